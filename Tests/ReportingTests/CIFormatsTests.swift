import Foundation
import TLSModel
import Testing

@testable import Reporting

/// SARIF fingerprints, GitHub workflow commands, the Code Climate report and the Markdown header counts
/// (issue 11), on hand-built reports.
@Suite("CI formats")
struct CIFormatsTests {
    /// The fixture report with other timings, handshake counts, scan times and lines, in reverse order.
    static var rerun: ScanReport {
        var report = ReportFixtures.report
        report.endpoints = report.endpoints.reversed().map { endpoint in
            var copy = endpoint
            copy.profile.handshakes += 3
            copy.profile.scannedAt = copy.profile.scannedAt.addingTimeInterval(86_400 * 3)
            if let line = copy.source?.line { copy.source?.line = line + 4 }
            return copy
        }
        report.findings = report.findings.reversed().map { finding in
            var copy = finding
            copy.line = copy.line.map { $0 + 7 }
            return copy
        }
        return report
    }

    static func fingerprints(_ report: ScanReport) throws -> [String: String] {
        let text = try SARIFRenderer.render(report, plistFile: "Info.plist", endpointsFile: "endpoints.txt")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let results = try #require((root["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        var byResult: [String: String] = [:]
        for result in results {
            let key = "\(result["ruleId"] ?? "") \(((result["message"] as? [String: Any])?["text"]) ?? "")"
            byResult[key] = try #require(
                (result["partialFingerprints"] as? [String: String])?[SARIFRenderer.fingerprintKey])
        }
        return byResult
    }

    @Test("partialFingerprints do not change with timings, order or lines; they differ between findings")
    func stableFingerprints() throws {
        let first = try Self.fingerprints(ReportFixtures.report)
        let second = try Self.fingerprints(Self.rerun)
        #expect(first.count >= 6)
        #expect(first == second)
        #expect(Set(first.values).count == first.count)
    }

    @Test("a fingerprint masks numbers in the message but keeps rule, file and subject")
    func fingerprintInputs() {
        let base = Fingerprint.of(
            rule: "trust.expiry.soon", file: "e.txt", subject: "a:443", message: "expires on 2026-01-02 (in 9 days)")
        #expect(
            base
                == Fingerprint.of(
                    rule: "trust.expiry.soon", file: "e.txt", subject: "a:443",
                    message: "expires on 2026-01-03 (in 8 days)"))
        #expect(
            base
                != Fingerprint.of(
                    rule: "trust.expired", file: "e.txt", subject: "a:443", message: "expires on 2026-01-02 (in 9 days)"
                ))
        #expect(
            base
                != Fingerprint.of(
                    rule: "trust.expiry.soon", file: "f.txt", subject: "a:443",
                    message: "expires on 2026-01-02 (in 9 days)"))
        #expect(
            base
                != Fingerprint.of(
                    rule: "trust.expiry.soon", file: "e.txt", subject: "b:443",
                    message: "expires on 2026-01-02 (in 9 days)"))
        #expect(base.count == 16)
    }

    @Test("github: one workflow command per finding and failing endpoint, at its file and line")
    func github() {
        let text = GitHubRenderer.render(ReportFixtures.report, plistFile: "Info.plist", endpointsFile: "endpoints.txt")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("::error file=Info.plist,line=12,title=plist.key.misspelled::unknown key") })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "::error file=endpoints.txt,line=3,title=ats.tls.forward-secrecy::legacy.example.com:443: no ECDHE")
            })
        #expect(lines.contains { $0.hasPrefix("::warning file=endpoints.txt,line=5,title=scan.unreachable::") })
        #expect(!lines.contains { $0.contains("api.example.com") }, "a passing endpoint has no annotation")
        #expect(lines.last?.hasPrefix("atscheck: 5 endpoint(s)") == true)
    }

    @Test("github escaping: data escapes % CR LF; properties also : and ,")
    func githubEscaping() {
        #expect(GitHubRenderer.data("100%\r\nx") == "100%25%0D%0Ax")
        #expect(GitHubRenderer.property("a:b,c%") == "a%3Ab%2Cc%25")
        let issue = ReportIssue(rule: "r", severity: .note, message: "m\u{1B}[2J", file: "f", line: nil, about: .none)
        #expect(GitHubRenderer.command(issue) == "::notice file=f,title=r::m\\u{1B}[2J")
    }

    @Test("codeclimate: severities, paths and lines GitLab reads")
    func codeClimate() throws {
        let text = try CodeClimateRenderer.render(
            ReportFixtures.report, plistFile: "Info.plist", endpointsFile: "endpoints.txt")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        let misspelled = try #require(issues.first { $0["check_name"] as? String == "plist.key.misspelled" })
        #expect(misspelled["severity"] as? String == "major")
        #expect((misspelled["location"] as? [String: Any])?["path"] as? String == "Info.plist")
        #expect(issues.allSatisfy { ($0["fingerprint"] as? String)?.count == 16 && $0["description"] is String })
        #expect(Set(issues.compactMap { $0["fingerprint"] as? String }).count == issues.count)
    }

    @Test("markdown header: endpoint-list and audit findings are not counted as plist errors")
    func markdownCounts() {
        let report = ScanReport(
            endpoints: [],
            findings: [
                Finding(rule: "endpoints.invalid", severity: .error, message: "bad line", file: "e.txt", line: 3),
                Finding(rule: "audit.exception.missing", severity: .error, message: "missing", file: "e.txt", line: 1),
                Finding(
                    rule: "plist.key.unknown", severity: .warning, message: "unknown", file: "Info.plist", line: 4,
                    keyPath: "NSAppTransportSecurity.X"),
            ])
        let text = MarkdownRenderer.render(report)
        #expect(
            text.hasPrefix(
                "## atscheck: endpoint list: 1 error, 0 warnings, 0 notes; audit: 1 error, 0 warnings, 0 notes; plist: 0 errors, 1 warning, 0 notes\n"
            ), "\(text)")
        #expect(text.contains("### Findings"))
    }
}
