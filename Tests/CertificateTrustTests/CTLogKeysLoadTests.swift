import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import CertificateTrust

/// A log list's keys are checked at load: a key OpenSSL cannot read, or a log_id that is not its key's hash, is refused
/// with the log's name (before, every SCT from such a log ended "signature could not be verified").
@Suite("CT log list keys are checked at load (--ct-log-list)")
struct CTLogKeysLoadTests {
    @Test("real test logs pass")
    func good() throws {
        let list = try TestCTLogList.make([
            TestCTLogListing(try TestCTLog("Good A", operator: "One")),
            TestCTLogListing(try TestCTLog("Good B", operator: "Two")),
        ])
        #expect(CTLogKeys.problems(list).first == nil)
    }

    @Test("a key that is not a public key is refused with the log's name")
    func badKey() throws {
        var list = try TestCTLogList.make([TestCTLogListing(try TestCTLog("Broken", operator: "Op"))])
        list.logs[0].key = Data([0x30, 0x03, 0x02, 0x01, 0x01])
        let problem = try #require(CTLogKeys.problems(list).first)
        #expect(problem.hasPrefix("log 'Broken' of Op: its key is not a valid public key"))
    }

    @Test("a log_id that is not the key's SHA-256 is refused")
    func wrongID() throws {
        let one = try TestCTLog("One", operator: "Op"), two = try TestCTLog("Two", operator: "Op")
        var list = try TestCTLogList.make([TestCTLogListing(one)])
        list.logs[0].key = two.spki
        let problem = try #require(CTLogKeys.problems(list).first)
        #expect(problem == "log 'One' of Op: its log_id is not the SHA-256 of its key")
    }
}
