import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// How one pin evaluation becomes audit findings: the rejection an error, everything else at most a warning,
/// an `expect: fail` entry's NSPinnedDomains rejection a note.
@Suite("Audit pin findings")
struct AuditPinsFindingsTests {
    static func check(_ verdict: PinVerdict, findings: [Finding], risks: [Finding] = []) -> AuditPinCheck {
        let evaluation = PinEvaluation(
            library: .nspinneddomains, host: "a.example.com", options: [], verdict: verdict, result: "pin-mismatch",
            steps: [],
            findings: findings)
        let result = PinCheckResult(
            target: "a.example.com:443", host: "a.example.com", port: 443, address: "127.0.0.1", status: .completed,
            error: nil,
            evaluation: evaluation, risks: risks)
        return AuditPinCheck(
            origin: .pinnedDomains, endpoint: "a.example.com:443", library: .nspinneddomains,
            domains: ["a.example.com"],
            pinFiles: ["Info.plist"], source: SourceLocation(file: "Info.plist", line: 9),
            keyPath: "NSAppTransportSecurity.NSPinnedDomains.a.example.com", result: result)
    }

    static let rejected = Finding(
        rule: RuleID.Pins.rejected, severity: .error, message: "ATS rejects a.example.com (NSURLError −1200): no pin")
    static let noneMatch = Finding(rule: RuleID.Pins.noneMatch, severity: .error, message: "none of the 1 pins matches")
    static let rootOnly = Finding(rule: RuleID.Pins.rootOnly, severity: .note, message: "root only")

    @Test("a rejection is one error at the source with the evaluator's reason; the rest is capped at warning")
    func rejection() {
        let out = AuditPins.findings(
            of: Self.check(.reject, findings: [Self.rejected, Self.noneMatch, Self.rootOnly]),
            subject: "NSPinnedDomains 'a.example.com'", expectFail: false)
        #expect(out.map(\.rule) == [RuleID.Pins.rejected, RuleID.Pins.noneMatch, RuleID.Pins.rootOnly])
        #expect(out.map(\.severity) == [.error, .warning, .note])
        #expect(
            out.allSatisfy {
                $0.file == "Info.plist" && $0.line == 9
                    && $0.keyPath == "NSAppTransportSecurity.NSPinnedDomains.a.example.com"
            })
        #expect(
            out[0].message
                == "a.example.com:443: NSPinnedDomains 'a.example.com' rejects it: ATS rejects a.example.com (NSURLError −1200): no pin"
        )
    }

    @Test("expect: fail turns the rejection into a note; an accepted evaluation has no error; risks are warnings")
    func expectFailAndRisks() {
        let expected = AuditPins.findings(
            of: Self.check(.reject, findings: [Self.rejected]), subject: "x", expectFail: true)
        #expect(expected.map(\.severity) == [.note])
        #expect(expected.first?.message.hasPrefix("expected to fail (expect: fail): ") == true)
        let risk = Finding(rule: RuleID.Pins.debugAnyHost, severity: .error, message: "any host")
        let accepted = AuditPins.findings(
            of: Self.check(.accept, findings: [], risks: [risk]), subject: "x", expectFail: false)
        #expect(accepted.map(\.rule) == [RuleID.Pins.debugAnyHost])
        #expect(accepted.map(\.severity) == [.warning])
    }

    @Test("an evaluation that could not run is a warning, not an error")
    func couldNotEvaluate() {
        var c = Self.check(.accept, findings: [])
        c.result.evaluation = nil
        c.result.status = .error
        c.result.error = "cannot read the CA file"
        let out = AuditPins.findings(of: c, subject: "x", expectFail: false)
        #expect(out.map(\.severity) == [.warning])
        #expect(out.first?.message.contains("cannot read the CA file") == true)
    }

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
