import ATSCheckKit
import AuditFixtures
import Foundation
import Judging
import TLSModel
import Testing

private typealias F = AuditFixture

@Suite("Baseline waivers")
struct AuditBaselineTests {
    /// A report with a missing exception (legacy, line 1 of endpoints.txt) and an unused entry in the plist.
    func report() throws -> ScanReport {
        let doc = try F.plist(F.domains([("gone.example.com", F.tls10)]))
        return try F.audit(doc, [("legacy.example.com", F.profile("legacy.example.com", F.tls10Only))]).report
    }

    func errors(_ report: ScanReport) -> [RuleID] { report.findings.filter { $0.severity == .error }.map(\.rule) }

    @Test("a waiver by rule and target turns the finding into a note; keyPath waivers match plist findings")
    func suppresses() throws {
        let baseline = try Baseline.parse(
            text: """
                waivers:
                  - rule: audit.exception.missing
                    target: legacy.example.com:443
                    reason: vendor moves to TLS 1.2 in Q3 (OPS-42)
                    expires: 2025-09-30
                  - rule: audit.exception.*
                    keyPath: NSExceptionDomains.gone.example.com
                    reason: endpoint returns next release
                    expires: 2025-12-31
                """, file: "baseline.yaml")
        #expect(baseline.waivers.map(\.source.line) == [2, 6])
        let before = try report()
        #expect(errors(before) == ["audit.exception.missing"])
        let (after, own) = baseline.apply(to: before, now: F.now)
        #expect(errors(after).isEmpty)
        let missing = after.findings.first { $0.rule == "audit.exception.missing" }
        #expect(missing?.severity == .note)
        #expect(missing?.message.hasPrefix("waived by baseline.yaml:2 until 2025-09-30") == true)
        #expect(after.findings.first { $0.rule == "audit.exception.no-endpoint" }?.severity == .note)
        #expect(own.isEmpty)
        #expect(after.endpoints.map(\.ats.verdict) == before.endpoints.map(\.ats.verdict))
    }

    @Test("a waiver of every ATS violation of an endpoint waives its failure findings")
    func waivesEndpointFailure() throws {
        let baseline = try Baseline.parse(
            text: """
                waivers:
                  - rule: ats.tls.*
                    target: legacy.example.com
                    reason: legacy vendor
                    expires: 2025-07-01
                """, file: "b.yml")
        let (after, _) = baseline.apply(to: try report(), now: F.now)
        #expect(errors(after).isEmpty)
        #expect(after.endpoints.first?.ats.notes.contains { $0.hasPrefix("ATS failure waived by b.yml:2") } == true)
        #expect(after.endpoints.first?.ats.verdict == .fail)
    }

    @Test("an expired waiver no longer suppresses and is an error")
    func expired() throws {
        let baseline = try Baseline.parse(
            text: """
                waivers:
                  - rule: audit.exception.missing
                    target: legacy.example.com
                    reason: vendor moves to TLS 1.2
                    expires: 2025-05-31
                """, file: "b.yml")
        let (after, own) = baseline.apply(to: try report(), now: F.now)
        #expect(own.map(\.rule) == [BaselineRuleID.expired])
        #expect(own.first?.line == 2)
        #expect(Set(errors(after)) == ["audit.exception.missing", BaselineRuleID.expired])
        // The last day still counts.
        let (sameDay, _) = baseline.apply(to: try report(), now: F.now.addingTimeInterval(-1))
        #expect(errors(sameDay).isEmpty)
    }

    @Test("a waiver without a reason or an expiry, or with a bad date, is invalid and suppresses nothing")
    func invalid() throws {
        let baseline = try Baseline.parse(
            text: """
                waivers:
                  - rule: audit.exception.missing
                    target: legacy.example.com
                    expires: 2030-01-01
                  - rule: audit.exception.missing
                    target: legacy.example.com
                    reason: no date
                  - rule: audit.exception.missing
                    target: legacy.example.com
                    reason: bad date
                    expires: 31/12/2030
                  - target: legacy.example.com
                    reason: no rule
                    expires: 2030-01-01
                """, file: "b.yml")
        let (after, own) = baseline.apply(to: try report(), now: F.now)
        #expect(own.map(\.rule) == Array(repeating: BaselineRuleID.invalid, count: 4))
        #expect(own.map(\.line) == [2, 5, 8, 12])
        #expect(own[0].message.contains("reason"))
        #expect(own[1].message.contains("expiry"))
        #expect(own[2].message.contains("31/12/2030"))
        #expect(errors(after).contains("audit.exception.missing"))
    }

    @Test("an unused waiver is a note")
    func unused() throws {
        let baseline = try Baseline.parse(
            text: """
                {"waivers": [{"rule": "audit.endpoint.http", "target": "cdn.example.com", "reason": "r", "expires": "2030-01-01"}]}
                """, file: "b.json")
        let (after, own) = baseline.apply(to: try report(), now: F.now)
        #expect(own.map(\.rule) == [BaselineRuleID.unused])
        #expect(own.first?.severity == .note)
        #expect(errors(after) == ["audit.exception.missing"])
    }

    @Test(
        "a malformed baseline throws InputFileError",
        arguments: [
            "waivers: [", "- rule: x\n", "waivers: just text\n", "waivers:\n  - just text\n", "other: 1\n",
        ])
    func malformed(_ text: String) {
        #expect(throws: InputFileError.self) { try Baseline.parse(text: text, file: "b.yaml") }
    }

    @Test("an empty baseline is empty, and a missing file throws")
    func empty() throws {
        #expect(try Baseline.parse(text: "", file: "b.yaml").waivers.isEmpty)
        #expect(try Baseline.parse(text: "waivers:\n", file: "b.yaml").waivers.isEmpty)
        #expect(throws: InputFileError.self) { try Baseline.load(path: "/nonexistent/atscheck-baseline.yaml") }
    }
}
