import Foundation
import TLSModel
import Testing

@testable import Reporting

@Suite("MarkdownRenderer")
struct MarkdownRendererTests {
    @Test("the pull-request comment matches the golden file")
    func golden() throws {
        try Snapshot.assert(MarkdownRenderer.render(ReportFixtures.report), named: "report.md")
    }

    @Test("the summary line counts endpoints and findings")
    func summary() {
        let text = MarkdownRenderer.render(ReportFixtures.report)
        #expect(
            text.hasPrefix(
                "## atscheck: 5 endpoints: 1 passed, 1 failed, 1 unreachable, 1 ambiguous, 1 unknown; plist: 1 error, "
                    + "1 warning, 1 note; endpoints: 2 errors, 2 warnings, 1 note\n"
            ))
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
