import Foundation
import Testing
import TLSModel

@testable import Reporting

@Suite("MarkdownRenderer")
struct MarkdownRendererTests {
    static let snapshots = ReportFixtures.packageRoot.appendingPathComponent("Tests/ReportingTests/Snapshots")

    /// Compares with a golden file; `ATSCHECK_RECORD_SNAPSHOTS=1` rewrites it instead (then fails, so a
    /// recording run is never mistaken for a passing one).
    static func assertSnapshot(_ text: String, named name: String) throws {
        let url = snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ATSCHECK_RECORD_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: url)
            Issue.record("recorded \(url.path); run again without ATSCHECK_RECORD_SNAPSHOTS")
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(text == golden, "differs from \(url.path); record with ATSCHECK_RECORD_SNAPSHOTS=1")
    }

    @Test("the pull-request comment matches the golden file")
    func golden() throws {
        try Self.assertSnapshot(MarkdownRenderer.render(ReportFixtures.report), named: "report.md")
    }

    @Test("the summary line counts endpoints and findings")
    func summary() {
        let text = MarkdownRenderer.render(ReportFixtures.report)
        #expect(
            text.hasPrefix(
                "## atscheck: 5 endpoints: 1 passed, 2 failed, 1 unreachable, 1 unknown; plist: 1 error, 1 warning, 1 note\n"))
    }

    @Test("pipes and line breaks cannot break the table")
    func tableCells() {
        #expect(MarkdownRenderer.cell("a | b\nc <d>") == "a \\| b c &lt;d&gt;")
        let text = MarkdownRenderer.render(ReportFixtures.report)
        for row in text.split(separator: "\n") where row.hasPrefix("| `") {
            let unescaped = row.replacingOccurrences(of: "\\|", with: "")
            #expect(unescaped.filter { $0 == "|" }.count == 4, "row: \(row)")
        }
    }

    @Test("a plist-only report has no endpoint table")
    func plistOnly() {
        let text = MarkdownRenderer.render(ScanReport(endpoints: []))
        #expect(text == "## atscheck: plist: 0 errors, 0 warnings, 0 notes\n")
    }
}
