import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// The pin material an audit reads for its endpoint-list entries (the pure findings tests are in
/// JudgingTests/PinFindingsTests.swift).
@Suite("Audit pin material")
struct AuditPinsFindingsTests {
    @Test(
        "material findings count for the libraries they concern, once per file; a configuration TrustKit refuses stops a TrustKit check"
    )
    func materialFindings() throws {
        let dir = TestScratch.file("atscheck-audit-material")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A hex pin: malformed for NSPinnedDomains, a configuration TrustKit refuses at launch.
        let hex = String(repeating: "ab", count: 32)
        try #"{"domains": {"a.example.com": {"pins": ["\#(hex)", "YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI="]}}}"#
            .write(toFile: dir + "/one.json", atomically: true, encoding: .utf8)
        func entry(_ line: Int, _ library: PinLibrary) -> EndpointEntry {
            EndpointEntry(
                target: try! Target(parsing: "https://a.example.com"),
                pinCheck: EndpointPinCheck(pins: dir + "/one.json", options: PinPolicyOptions(library: library)),
                source: SourceLocation(file: "e.yaml", line: line))
        }
        let document = try PlistDocument.parse(
            data: Data("<plist version=\"1.0\"><dict/></plist>".utf8), file: "Info.plist")
        let pins = try AuditPins.prepare(
            document: document,
            entries: [entry(2, .nspinneddomains), entry(4, .nspinneddomains), entry(6, .afnetworking)],
            settings: ScanSettings(), now: Date())
        #expect(pins.materialFindings.map(\.rule) == [RuleID.Pins.pinMalformed])
        #expect(pins.materialFindings.first?.severity == .error)
        #expect(pins.materialFindings.first?.file == dir + "/one.json")
        #expect(pins.entryCheckers.keys.sorted() == [0, 1, 2])
        #expect(PinningLibraries.concerns(RuleID.Pins.pemInCer, .afnetworking))
        #expect(!PinningLibraries.concerns(RuleID.Pins.pemInCer, .trustkit))
        #expect(!PinningLibraries.concerns(RuleID.Pins.trustKitConfigRejected, .afnetworking))
        // The same file for TrustKit: the app would crash at launch, so nothing is checked (exit 65).
        #expect {
            _ = try AuditPins.prepare(
                document: document, entries: [entry(2, .nspinneddomains), entry(4, .trustkit)],
                settings: ScanSettings(), now: Date())
        } throws: { error in
            let description = (error as? InputFileError)?.description ?? ""
            return description.hasPrefix(dir + "/one.json:1: a.example.com: pins[0]")
                && description.hasSuffix("TrustKit raises at launch: the app would crash")
        }
    }
}
