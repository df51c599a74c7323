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
        #expect(registry.formats(showing: .explanations) == [.text, .json])
        #expect(registry.formats(showing: .pinExtract) == [.text, .json])
        #expect(registry.formats(showing: .rules) == [.text, .json, .markdown])
        for section: ReportDocument.Section in [.scan, .audit, .app, .diagnosis, .pins] {
            #expect(registry.formats(showing: section) == OutputFormat.allCases, "\(section)")
        }
    }

    @Test("a document with a section the format does not show is refused, not rendered without it")
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
        let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

        func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
            var findings = document.scan?.findings ?? []
            for result in document.pins?.results ?? [] {
                findings += result.risks + (result.evaluation?.findings ?? [])
            }
            return findings.map { "\($0.severity.rawValue)\t\($0.rule.rawValue)\t\($0.message)\n" }.joined()
        }
    }

    @Test("a renderer registered in a test renders every command's document it accepts, no command involved")
    func renderersFromOutside() throws {
        let registry = ReportRendererRegistry([FindingsTSV()] + ReportRendererRegistry.standard.renderers)
        #expect(try registry.renderer(for: .markdown) is FindingsTSV)
        for fixture in DocumentFixtures.all {
            let accepted = fixture.document.sections.allSatisfy(FindingsTSV().sections.contains)
            guard accepted else {
                #expect(throws: ReportRenderingError.self) { try registry.render(fixture.document, as: .markdown) }
                continue
            }
            let tsv = try registry.render(fixture.document, as: .markdown)
            let expected =
                (fixture.document.scan?.findings.count ?? 0)
                + (fixture.document.pins.map { PinsFormats.findingsReport($0).findings.count } ?? 0)
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
