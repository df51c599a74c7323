import Foundation
import Reporting
import TLSModel
import TLSTestSupport
import Testing

/// Every command's document renders in each format the command accepts, and is refused in the others.
@Suite("Report documents in every format")
struct ReportDocumentTests {
    @Test(
        "the formats a command accepts are those whose renderer shows its type of document",
        arguments: DocumentFixtures.all)
    func acceptedFormats(_ fixture: DocumentFixtures.Case) {
        let accepted = ReportRendererRegistry.standard.formats(showing: type(of: fixture.document))
        #expect(accepted == fixture.formats)
    }

    @Test(
        "each command's document renders in each format it allows; the others are refused",
        arguments: DocumentFixtures.all)
    func rendersInAllowedFormats(_ fixture: DocumentFixtures.Case) throws {
        for format in OutputFormat.allCases {
            guard fixture.formats.contains(format) else {
                #expect(throws: ReportRenderingError.self, "\(format)") {
                    try ReportRendererRegistry.standard.render(fixture.document, as: format)
                }
                continue
            }
            let out = try ReportRendererRegistry.standard.render(fixture.document, as: format)
            #expect(!out.isEmpty, "\(format)")
            #expect(out.hasSuffix("\n"), "\(format)")
            switch format {
            case .json, .sarif, .codeclimate:
                #expect(throws: Never.self, "\(format)") { try JSONSerialization.jsonObject(with: Data(out.utf8)) }
            case .jsonl:
                for line in out.split(separator: "\n") {
                    #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
                }
            case .junit:
                #expect(out.hasPrefix("<?xml"))
            case .text, .markdown, .github:
                #expect(!out.contains("\u{1B}"), "no colour unless asked")
            case .html:
                #expect(throws: Never.self, "\(fixture.command)") { try HTML5Parser.parse(out) }
            }
        }
    }

    @Test("a scan's JSON is written in pieces whose bytes are the whole rendering")
    func scanJSONInPieces() throws {
        let document = ScanDocument(report: ReportFixtures.report)
        guard case .pieces(let writer) = try ReportRendererRegistry.standard.output(document, as: .json) else {
            Issue.record("a scan's JSON is not written in pieces")
            return
        }
        var pieces: [Data] = []
        try writer { pieces.append($0) }
        #expect(pieces.count > 2)
        let whole = try JSONRendering.render(ReportFixtures.report)
        #expect(String(decoding: pieces.reduce(Data(), +), as: UTF8.self) == whole)
        // A cert without a pin check is the report alone, in pieces too; with one, one string.
        guard
            case .pieces = try ReportRendererRegistry.standard.output(
                CertDocument(report: ReportFixtures.report), as: .json)
        else {
            Issue.record("a cert's JSON is not written in pieces")
            return
        }
        let certPins = CertDocument(report: ReportFixtures.report, pinCheck: DocumentFixtures.pinsReport)
        guard case .text = try ReportRendererRegistry.standard.output(certPins, as: .json) else {
            Issue.record("a cert's JSON with a pin check is written in pieces")
            return
        }
        // Any other section beside the scan: one string.
        let audit = DocumentFixtures.audit(defaultPolicy: false)
        guard case .text = try ReportRendererRegistry.standard.output(audit, as: .json) else {
            Issue.record("an audit's JSON is written in pieces")
            return
        }
    }

    @Test("cert: the report alone as a scan's, and with one library's pin check, the check after it")
    func cert() throws {
        let registry = ReportRendererRegistry.standard
        let options = RenderOptions(now: ReportFixtures.date)
        let scan = ScanDocument(report: ReportFixtures.report)
        for format in OutputFormat.allCases {
            #expect(
                try registry.render(CertDocument(report: ReportFixtures.report), as: format, options: options)
                    == registry.render(scan, as: format, options: options), "\(format)")
        }
        let withPins = CertDocument(report: ReportFixtures.report, pinCheck: DocumentFixtures.pinsReport)
        let text = try registry.render(withPins, as: .text, options: options)
        #expect(
            text
                == (try registry.render(scan, as: .text, options: options)) + "\n"
                + PinsTextRenderer(style: .plain).render(DocumentFixtures.pinsReport))
        let json = try JSONSerialization.jsonObject(with: Data(try registry.render(withPins, as: .json).utf8))
        #expect((json as? [String: Any])?["pinCheck"] != nil)
    }
}
