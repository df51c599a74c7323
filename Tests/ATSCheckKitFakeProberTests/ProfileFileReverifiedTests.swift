import ATSCheckKit
import Foundation
import Synchronization
import TLSModel
import Testing

/// A chain judge that records what it was asked and answers a fixed report, or fails.
final class FakeChainJudge: ChainJudging {
    struct Call: Equatable {
        var chain: [Data]
        var host: String
        var now: Date
        var saved: CertificateReport?
        var stapledOCSP: Data?
    }

    let calls = Mutex<[Call]>([])
    let answer: CertificateReport?

    /// - Parameter answer: the report every chain gets; nil: every chain fails to parse.
    init(answer: CertificateReport?) { self.answer = answer }

    func report(
        chain: [Data], delivered: [SCTFacts]?, ocspStapled: Bool?, stapledOCSP: Data?, host: String, now: Date,
        saved: CertificateReport?
    ) throws -> CertificateReport {
        calls.withLock {
            $0.append(Call(chain: chain, host: host, now: now, saved: saved, stapledOCSP: stapledOCSP))
        }
        guard let answer else { throw ProbeFailure(.local, "a certificate does not parse: fake") }
        return answer
    }
}

/// Saved profiles are judged again through the ``ChainJudging`` they are handed (TLSModel's seam), never through the
/// prober: the saved chain, host and the run's time go in, and the judge's report replaces the saved verdict.
@Suite("Saved profiles judged again through a chain judge")
struct ProfileFileReverifiedTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    static func certificate(der: [UInt8], trusted: Bool) -> CertificateReport {
        let facts = CertificateFacts(
            subject: "CN=saved", issuer: "CN=saved CA", serialNumber: "01", notBefore: .distantPast,
            notAfter: .distantFuture, keyType: .rsa, keyBits: 2048, signatureAlgorithm: "sha256WithRSAEncryption",
            signatureHash: .sha256, sha256: "00", spkiSHA256: "AA==", der: Data(der))
        return CertificateReport(chain: [facts], trusted: trusted, hostnameMatches: true, verifyError: nil)
    }

    static var settings: ScanSettings {
        var settings = ScanSettings()
        settings.now = at
        return settings
    }

    @Test("each saved chain goes to the judge with its host, the run's time and the saved report")
    func judged() throws {
        let saved = Self.certificate(der: [0x30, 0x01], trusted: true)
        let judged = Self.certificate(der: [0x30, 0x01], trusted: false)
        let judge = FakeChainJudge(answer: judged)
        let profiles = [
            ServerProfile(
                target: "a.test:443", host: "a.test", port: 443, status: .completed, certificate: saved),
            ServerProfile(target: "b.test:443", host: "b.test", port: 443, status: .unreachable),
        ]
        let again = try ProfileFile.reverified(profiles, settings: Self.settings, judge: judge)
        let calls = judge.calls.withLock { $0 }
        #expect(
            calls == [FakeChainJudge.Call(chain: [Data([0x30, 0x01])], host: "a.test", now: Self.at, saved: saved)])
        #expect(again[0].certificate?.trusted == false, "the judge's verdict, not the saved one")
        #expect(again[1] == profiles[1], "a profile without a chain is left as saved")
    }

    @Test("a chain the judge cannot read is an input error naming --profile")
    func unreadable() throws {
        let profiles = [
            ServerProfile(
                target: "a.test:443", host: "a.test", port: 443, status: .completed,
                certificate: Self.certificate(der: [0x30, 0x01], trusted: true))
        ]
        #expect {
            try ProfileFile.reverified(profiles, settings: Self.settings, judge: FakeChainJudge(answer: nil))
        } throws: { error in
            guard let error = error as? InputFileError else { return false }
            return error.file == "--profile" && error.reason.contains("cannot verify the saved chain again")
        }
    }
}
