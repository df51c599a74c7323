import Foundation
import Reporting
import TLSModel
import Testing

/// The registry: one renderer per format, the formats a section allows, refusals, and a format added from
/// outside Reporting rendering every command's document.
@Suite("Report renderer registry")
struct ReportRendererRegistryTests {
    @Test("the standard registry has exactly one renderer per OutputFormat case")
    func oneRendererPerFormat() throws {
        let registered = ReportRendererRegistry.standard.renderers.map(\.format)
        for format in OutputFormat.allCases {
            #expect(registered.filter { $0 == format }.count == 1, "\(format.rawValue)")
            #expect(try ReportRendererRegistry.standard.renderer(for: format).format == format)
        }
        #expect(registered.count == OutputFormat.allCases.count)
    }

    @Test("the formats that show a section, in OutputFormat order (what a command accepts)")
    func formatsShowing() {
        let registry = ReportRendererRegistry.standard
        #expect(registry.formats(showing: ExplanationDocument.self) == [.text, .json])
        #expect(registry.formats(showing: PinExtractDocument.self) == [.text, .json])
        #expect(registry.formats(showing: RuleCatalogueDocument.self) == [.text, .json, .markdown])
        let scanBased: [any ReportDocument.Type] = [
            ScanDocument.self, AuditDocument.self, AppDocument.self, DiagnosisDocument.self, CertDocument.self,
            PinCheckDocument.self,
        ]
        for document in scanBased {
            #expect(registry.formats(showing: document) == OutputFormat.allCases, "\(document)")
        }
    }

    @Test("a document the format does not show is refused, not rendered without it")
    func refusesUnshownSection() throws {
        let document = DocumentFixtures.explain(count: 1)
        #expect(throws: ReportRenderingError(format: .sarif, reason: "it does not show explanations")) {
            try ReportRendererRegistry.standard.render(document, as: .sarif)
        }
        let empty = ReportRendererRegistry([])
        #expect(throws: ReportRenderingError.self) { try empty.render(document, as: .text) }
    }

    /// A format written here, outside Reporting, knowing no command: each finding as a tab-separated line.
    struct FindingsTSV: ReportRenderer {
        /// The slot it takes in the test registry (`OutputFormat` is closed: a real format adds its case).
        let format = OutputFormat.markdown

        var scan: Rendering<ScanDocument> { .text { document, _ in Self.lines(document.report.findings) } }
        var audit: Rendering<AuditDocument> { .text { document, _ in Self.lines(document.report.findings) } }
        var app: Rendering<AppDocument> { .text { document, _ in Self.lines(document.report.findings) } }
        var diagnosis: Rendering<DiagnosisDocument> { .text { document, _ in Self.lines(document.report.findings) } }
        var cert: Rendering<CertDocument> {
            .text { document, _ in Self.lines(document.report.findings + Self.findings(document.pinCheck)) }
        }
        var pinCheck: Rendering<PinCheckDocument> {
            .text { document, _ in Self.lines(Self.findings(document.report)) }
        }
        var pinExtract: Rendering<PinExtractDocument> { .unsupported }
        var explanation: Rendering<ExplanationDocument> { .unsupported }
        var rules: Rendering<RuleCatalogueDocument> { .unsupported }

        static func findings(_ pins: PinCheckReport?) -> [Finding] {
            (pins?.results ?? []).flatMap { $0.risks + ($0.evaluation?.findings ?? []) }
        }

        static func lines(_ findings: [Finding]) -> String {
            findings.map { "\($0.severity.rawValue)\t\($0.rule.rawValue)\t\($0.message)\n" }.joined()
        }
    }

    /// The findings a document's TSV lists: its scan report's, and its pin check's as the findings formats list them.
    static func expectedFindings(_ document: any ReportDocument) -> Int {
        let scan = (document as? any ScanReportDocument)?.report.findings.count ?? 0
        let pins = (document as? PinCheckDocument)?.report ?? (document as? CertDocument)?.pinCheck
        return scan + (pins.map { PinsFormats.findingsReport($0).findings.count } ?? 0)
    }

    @Test("a renderer registered in a test renders every command's document it accepts, no command involved")
    func renderersFromOutside() throws {
        let registry = ReportRendererRegistry([FindingsTSV()] + ReportRendererRegistry.standard.renderers)
        #expect(try registry.renderer(for: .markdown) is FindingsTSV)
        for fixture in DocumentFixtures.all {
            let accepted = registry.formats(showing: type(of: fixture.document)).contains(.markdown)
            guard accepted else {
                #expect(throws: ReportRenderingError.self) { try registry.render(fixture.document, as: .markdown) }
                continue
            }
            let tsv = try registry.render(fixture.document, as: .markdown)
            let expected = Self.expectedFindings(fixture.document)
            #expect(tsv.split(separator: "\n").count == expected, "\(fixture.command)")
            let columns = tsv.split(separator: "\n").map { $0.split(separator: "\t").count }
            #expect(columns.allSatisfy { $0 == 3 }, "\(fixture.command)")
            // The other formats of the same registry are untouched.
            #expect(
                try registry.render(fixture.document, as: .json)
                    == ReportRendererRegistry.standard.render(
                        fixture.document, as: .json))
        }
    }
}
