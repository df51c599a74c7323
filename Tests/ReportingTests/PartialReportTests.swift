import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

/// An interrupted scan (issue 34) says it is partial in every format, and its endpoints not scanned are `cancelled`
/// problems (rule `scan.cancelled`), never passes.
@Suite("partial reports in every format")
struct PartialReportTests {
    static let now = Date(timeIntervalSince1970: 1_760_000_000)
    static let marker = PartialScan(signal: "SIGINT", notScanned: 1, graceSeconds: 2)

    /// The fixture report with its last endpoint cancelled and the partial marker.
    static var report: ScanReport {
        var report = ReportFixtures.report
        let last = report.endpoints.count - 1
        report.endpoints[last].profile.status = .cancelled
        report.endpoints[last].profile.error = "the run was interrupted before this endpoint was scanned"
        report.endpoints[last].profile.protocols = []
        report.endpoints[last].ats = ATSEvaluation(verdict: .unknown)
        report.summary = ReportSummary(endpoints: report.endpoints)
        report.partial = marker
        return report
    }

    static func render(_ format: OutputFormat, _ report: ScanReport = report) throws -> String {
        try ReportRendererRegistry.standard.render(
            ScanDocument(report: report), as: format, options: RenderOptions(now: now))
    }

    @Test("text, Markdown and GitHub annotations say it in one line; a complete report says nothing")
    func lines() throws {
        let line = "interrupted by SIGINT; 1 endpoint not scanned"
        #expect(try Self.render(.text).contains("Partial report: \(line)"))
        #expect(try Self.render(.markdown).contains("> **Partial report:** \(line)."))
        #expect(try Self.render(.github).contains("::error title=atscheck partial report::Partial report: \(line)"))
        #expect(try Self.render(.text).contains("cancelled: the run was interrupted before this endpoint was scanned"))
        var complete = Self.report
        complete.partial = nil
        for format in [OutputFormat.text, .markdown, .github, .json, .jsonl, .sarif, .junit, .html] {
            #expect(!(try Self.render(format, complete)).lowercased().contains("partial report"), "\(format)")
        }
    }

    @Test("JSON and the JSON Lines summary line carry the marker")
    func json() throws {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.render(.json).utf8)) as? [String: Any])
        let partial = try #require(root["partial"] as? [String: Any])
        #expect(partial["signal"] as? String == "SIGINT" && partial["notScanned"] as? Int == 1)
        let last = try #require(try Self.render(.jsonl).split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect((summary["partial"] as? [String: Any])?["graceSeconds"] as? Double == 2)
        let decoded = try JSONDecoder.iso8601.decode(ScanReport.self, from: Data(Self.render(.json).utf8))
        #expect(decoded.partial == Self.marker)
        #expect(decoded.endpoints.last?.profile.status == .cancelled)
    }

    @Test("SARIF: an unsuccessful invocation with the signal and a notification, valid against the schema")
    func sarif() throws {
        let text = try Self.render(.sarif)
        let (ok, output) = try SARIFSchemaValidator.validate(text)
        #expect(ok, "\(output)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect(invocation["exitSignalName"] as? String == "SIGINT")
        let notification = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect(notification["level"] as? String == "error")
        #expect(((run["properties"] as? [String: Any])?["partial"] as? [String: Any])?["notScanned"] as? Int == 1)
        let rules = (run["results"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
        #expect(rules.contains("scan.cancelled"))
        // A complete run writes no invocation: the existing golden files stay as they are.
        var complete = Self.report
        complete.partial = nil
        #expect(!(try Self.render(.sarif, complete)).contains("invocations"))
    }

    @Test("JUnit: a run suite whose one case is an error")
    func junit() throws {
        let xml = try Self.render(.junit)
        #expect(xml.contains("<testsuite name=\"run\""))
        #expect(xml.contains("name=\"complete run\""))
        #expect(xml.contains("<error message=\"partial report: interrupted by SIGINT; 1 endpoint not scanned\""))
    }

    @Test("HTML: a banner above the verdict, in a page that parses")
    func html() throws {
        let html = try Self.render(.html)
        _ = try HTML5Parser.parse(html)
        let banner = try #require(html.range(of: "Partial report: interrupted by SIGINT; 1 endpoint not scanned"))
        let verdict = try #require(html.range(of: "class=\"verdict", options: .backwards))
        #expect(banner.lowerBound < verdict.lowerBound)
    }
}

extension JSONDecoder {
    fileprivate static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        return decoder
    }
}
