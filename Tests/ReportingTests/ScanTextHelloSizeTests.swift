import Foundation
import Judging
import Reporting
import TLSModel
import TLSTestSupport
import Testing

/// The ClientHello size tolerance in the reports (issue 36): a line in the text report, and for an intolerant
/// server the `ats.tls.hello-size-intolerant` warning, a SARIF result of level warning.
@Suite("ClientHello size tolerance in the reports")
struct ScanTextHelloSizeTests {
    static let intolerantDetail =
        "the iOS 26 ClientHello in two TCP segments fails: the connection is reset after the first segment of the "
        + "ClientHello (1400 of 1532 bytes); the iOS 18 ClientHello in one segment (517 bytes) is answered: "
        + "TLSv1.3, TLS_AES_256_GCM_SHA384, x25519"

    static func report(_ tolerance: HelloSizeTolerance?) -> ScanReport {
        var profile = ReportFixtures.profile("api.example.com")
        profile.helloSizeTolerance = tolerance
        return ScanReport(endpoints: [
            EndpointResult(
                profile: profile, ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"),
                source: SourceLocation(file: "endpoints.txt", line: 4))
        ]).addingExpiryWarnings(days: nil)
    }

    static func text(_ tolerance: HelloSizeTolerance?) -> String {
        ScanTextRenderer(now: ReportFixtures.date, width: 400).render(report(tolerance))
    }

    @Test("a tolerant server: one line, no warning")
    func tolerant() {
        let text = Self.text(HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true))
        #expect(text.contains("\n  ClientHello in two TCP segments (iOS 26): answered\n"))
        #expect(!text.contains("hello-size-intolerant"))
        #expect(
            Self.report(HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true)).findings.isEmpty)
    }

    @Test("an intolerant server: the line with both outcomes, and the warning")
    func intolerant() throws {
        let tolerance = HelloSizeTolerance(
            split: .dropped, single: .negotiated, tolerant: false, detail: Self.intolerantDetail)
        let text = Self.text(tolerance)
        #expect(
            text.contains(
                "\n  ClientHello in two TCP segments (iOS 26): fails, iOS 26 cannot connect: \(Self.intolerantDetail)\n"
            ))
        let findings = Self.report(tolerance).findings
        #expect(findings.map(\.rule.rawValue) == ["ats.tls.hello-size-intolerant"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning && finding.file == "endpoints.txt" && finding.line == 4)
        #expect(finding.message.hasPrefix("api.example.com:443: iOS 26 cannot connect: the iOS 26 ClientHello"))
    }

    @Test("not decided: the detail in the line; untested: no line")
    func undecided() {
        let text = Self.text(
            HelloSizeTolerance(split: .refused, single: .refused, tolerant: nil, detail: "not decided: both refused"))
        #expect(text.contains("\n  ClientHello in two TCP segments (iOS 26): not decided: both refused\n"))
        #expect(!Self.text(nil).contains("ClientHello in two TCP segments"))
    }

    @Test("SARIF: a warning result of the declared rule, and the output still validates")
    func sarif() throws {
        let tolerance = HelloSizeTolerance(
            split: .dropped, single: .negotiated, tolerant: false, detail: Self.intolerantDetail)
        let text = try SARIFRenderer.render(Self.report(tolerance), plistFile: nil, endpointsFile: "endpoints.txt")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let result = try #require(results.first { $0["ruleId"] as? String == "ats.tls.hello-size-intolerant" })
        #expect(result["level"] as? String == "warning")
        let rules = try #require(
            ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let rule = try #require(rules.first { $0["id"] as? String == "ats.tls.hello-size-intolerant" })
        #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
        let (ok, output) = try SARIFSchemaValidator.validate(text)
        #expect(ok, "\(output)")
    }
}
