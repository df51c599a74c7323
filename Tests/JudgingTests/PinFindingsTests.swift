import Foundation
import Judging
import TLSModel
import Testing

/// How one pin evaluation becomes audit findings: the rejection an error, everything else at most a warning,
/// an `expect: fail` entry's NSPinnedDomains rejection a note. Pure (moved from ATSCheckKitTests, issue 33).
@Suite("Audit pin findings")
struct PinFindingsTests {
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
        let out = PinFindings.of(
            Self.check(.reject, findings: [Self.rejected, Self.noneMatch, Self.rootOnly]),
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
        let expected = PinFindings.of(
            Self.check(.reject, findings: [Self.rejected]), subject: "x", expectFail: true)
        #expect(expected.map(\.severity) == [.note])
        #expect(expected.first?.message.hasPrefix("expected to fail (expect: fail): ") == true)
        let risk = Finding(rule: RuleID.Pins.debugAnyHost, severity: .error, message: "any host")
        let accepted = PinFindings.of(
            Self.check(.accept, findings: [], risks: [risk]), subject: "x", expectFail: false)
        #expect(accepted.map(\.rule) == [RuleID.Pins.debugAnyHost])
        #expect(accepted.map(\.severity) == [.warning])
    }

    @Test("an evaluation that could not run is a warning, not an error")
    func couldNotEvaluate() {
        var c = Self.check(.accept, findings: [])
        c.result.evaluation = nil
        c.result.status = .error
        c.result.error = "cannot read the CA file"
        let out = PinFindings.of(c, subject: "x", expectFail: false)
        #expect(out.map(\.severity) == [.warning])
        #expect(out.first?.message.contains("cannot read the CA file") == true)
    }

    @Test("an endpoint-list entry's check is worded as its library's policy with its pins")
    func entry() {
        var check = Self.check(.reject, findings: [Self.rejected])
        check.origin = .endpointList
        check.pins = "pins/api.json"
        #expect(
            PinFindings.ofEntry(check)
                == PinFindings.of(
                    check, subject: "the nspinneddomains policy with pins pins/api.json", expectFail: false))
        #expect(PinFindings.ofEntry(check).first?.severity == .error)
    }
}
