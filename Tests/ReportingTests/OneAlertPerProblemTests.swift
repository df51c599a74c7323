import Foundation
import Judging
import TLSModel
import Testing

@testable import Reporting

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Issue 24: an audit reported each endpoint problem twice (the scan rule and the audit rule at the same line), so the
/// text said 5 errors, SARIF and Code Climate 9, JUnit 11 failures. Every CI format now shows the one list of
/// ``ReportIssues``, and its counts are the text summary's.
@Suite("one alert per problem, the same counts in every format")
struct OneAlertPerProblemTests {
    /// An audit's report: the fixture's endpoints from an endpoint list, with the audit's findings at the lines of the
    /// failing and the unreachable endpoint, and one about a plist entry.
    static var audit: ScanReport {
        var report = ReportFixtures.report
        report.findings += [
            Finding(
                rule: RuleID.Audit.exceptionMissing, severity: .error,
                message:
                    "legacy.example.com:443 fails ATS (no ECDHE suite); add NSExceptionRequiresForwardSecrecy = NO",
                file: "endpoints.txt", line: 3),
            Finding(
                rule: RuleID.Audit.endpointUnscanned, severity: .warning,
                message: "down.example.com:443 could not be scanned or judged (connection refused)",
                file: "endpoints.txt", line: 5),
            Finding(
                rule: RuleID.Audit.exceptionNoEndpoint, severity: .warning,
                message: "no endpoint in the list uses the NSExceptionDomains entry 'old.example.com'",
                file: "Info.plist", line: 30, keyPath: "NSAppTransportSecurity.NSExceptionDomains.old.example.com"),
        ]
        return report
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("an audit finding stands for its endpoint's problems, which become related information")
    func folded() throws {
        let issues = ReportIssues.of(Self.audit)
        let rules = issues.map(\.rule.rawValue)
        #expect(!rules.contains("ats.tls.forward-secrecy"), "the scan rule is not a second alert")
        #expect(!rules.contains("trust.chain"))
        #expect(!rules.contains("scan.unreachable"))
        let missing = try #require(issues.first { $0.rule == RuleID.Audit.exceptionMissing })
        #expect(missing.related.map(\.rule.rawValue) == ["ats.tls.forward-secrecy", "trust.chain"])
        #expect(missing.endpoint == 1)
        let unscanned = try #require(issues.first { $0.rule == RuleID.Audit.endpointUnscanned })
        #expect(unscanned.related.map(\.rule.rawValue) == ["scan.unreachable"])
        // The ambiguous and unknown endpoints have no audit finding: they keep their own issue.
        #expect(rules.contains("ats.ambiguous") && rules.contains("ats.unknown"))
        // A plain scan (no audit finding) keeps every endpoint problem.
        let scan = ReportIssues.of(ReportFixtures.report).map(\.rule.rawValue)
        #expect(scan.contains("ats.tls.forward-secrecy") && scan.contains("scan.unreachable"))
    }

    @Test(
        "SARIF, Code Climate, GitHub, JUnit and Markdown count what the text summary counts", arguments: [true, false])
    func sameCounts(isAudit: Bool) throws {
        let report = isAudit ? Self.audit : ReportFixtures.report
        let counts = IssueCounts(ReportIssues.of(report))
        #expect(counts.total > 0)

        // Text: "N finding(s): E error, W warning, N note".
        let summary = ScanTextRenderer.summary(report)
        #expect(
            summary.hasSuffix(
                "\(counts.total) finding(s): \(counts.errors) error, \(counts.warnings) warning, \(counts.notes) note"),
            "\(summary)")
        #expect(summary.contains("1 fail, 1 ambiguous"), "an ambiguous endpoint is its own bucket, not a failure")

        // SARIF: one result per problem, by level.
        let sarif = try #require(
            try Self.json(SARIFRenderer.render(report, plistFile: "Info.plist", endpointsFile: "endpoints.txt"))
                as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(results.count == counts.total)
        #expect(results.filter { $0["level"] as? String == "error" }.count == counts.errors)
        #expect(results.filter { $0["level"] as? String == "warning" }.count == counts.warnings)

        // Code Climate: one issue per problem; major = errors.
        let climate = try #require(try Self.json(CodeClimateRenderer.render(report)) as? [[String: Any]])
        #expect(climate.count == counts.total)
        #expect(climate.filter { $0["severity"] as? String == "major" }.count == counts.errors)

        // GitHub: one annotation per problem, and the summary line says the same numbers.
        let github = GitHubRenderer.render(report).split(separator: "\n")
        #expect(github.filter { $0.hasPrefix("::") }.count == counts.total)
        #expect(github.filter { $0.hasPrefix("::error ") }.count == counts.errors)
        #expect(github.last?.contains("\(counts.total) problem(s): \(counts.errors) error(s)") == true)

        // JUnit: a failure per error.
        let junit = try XMLDocument(data: Data(JUnitRenderer.render(report).utf8), options: [])
        #expect(junit.rootElement()?.attribute(forName: "failures")?.stringValue == "\(counts.errors)")

        // Markdown: the per-source counts add up to the same totals.
        let header = MarkdownRenderer.summaryLine(report)
        let numbers = { (word: String) -> Int in
            let pattern = try! NSRegularExpression(pattern: "(\\d+) \(word)s?\\b")
            let range = NSRange(header.startIndex..., in: header)
            return pattern.matches(in: header, range: range).reduce(0) {
                $0 + Int(header[Range($1.range(at: 1), in: header)!])!
            }
        }
        #expect(numbers("error") == counts.errors, "\(header)")
        #expect(numbers("warning") == counts.warnings, "\(header)")
        #expect(numbers("note") == counts.notes, "\(header)")
    }

    @Test("SARIF: the folded scan rules are related locations at the audit finding's place")
    func relatedLocations() throws {
        let sarif = try #require(
            try Self.json(SARIFRenderer.render(Self.audit, plistFile: "Info.plist", endpointsFile: "endpoints.txt"))
                as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        let missing = try #require(results.first { $0["ruleId"] as? String == "audit.exception.missing" })
        let related = try #require(missing["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 2)
        #expect(related.compactMap { $0["id"] as? Int } == [1, 2])
        let text = (related.first?["message"] as? [String: Any])?["text"] as? String
        #expect(text?.hasSuffix("[ats.tls.forward-secrecy]") == true)
        let place = (related.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        #expect(place?["startLine"] as? Int == 3)
    }
}
