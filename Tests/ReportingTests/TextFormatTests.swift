import Foundation
import Reporting
import TLSModel
import Testing

/// How the text format composes a document's sections.
@Suite("Text format: sections in order")
struct TextFormatTests {
    static func text(_ document: some ReportDocument, color: Bool = false) throws -> String {
        try ReportRendererRegistry.standard.render(
            document, as: .text, options: RenderOptions(color: color, now: ReportFixtures.date))
    }

    static var scanText: String {
        ScanTextRenderer(style: .plain, now: ReportFixtures.date).render(GoldenFileTests.auditReport)
    }

    @Test("audit: the policy note without a plist, then the scan text")
    func audit() throws {
        #expect(try Self.text(DocumentFixtures.audit(defaultPolicy: false)) == Self.scanText)
        #expect(
            try Self.text(DocumentFixtures.audit(defaultPolicy: true))
                == TextLayout.fit(AuditSection.defaultPolicyNote, width: 80) + "\n\n" + Self.scanText)
        let markdown = try ReportRendererRegistry.standard.render(
            DocumentFixtures.audit(defaultPolicy: true), as: .markdown)
        let note = "> \(AuditSection.defaultPolicyNote)\n\n"
        #expect(markdown == note + MarkdownRenderer.render(GoldenFileTests.auditReport))
    }

    @Test("a shard's line comes before its endpoints")
    func shard() throws {
        let text = try Self.text(ScanDocument(report: DocumentFixtures.shardReport))
        #expect(text.hasPrefix("shard 2/3: 5 of 14 endpoints\n\n"))
        let endpoints = ScanTextRenderer(style: .plain, now: ReportFixtures.date).render(DocumentFixtures.shardReport)
        #expect(text.hasSuffix(endpoints))
    }

    @Test("app: the bundle header, the live section, then the findings")
    func app() throws {
        let live = try Self.text(DocumentFixtures.app(live: true))
        let header = AppText.header(DocumentFixtures.appFacts)
        let section = AppText.live(DocumentFixtures.appLive)
        #expect(live.hasPrefix(header + section))
        #expect(
            live.hasSuffix(
                ScanTextRenderer(style: .plain, now: ReportFixtures.date)
                    .render(DocumentFixtures.app(live: true).report)))
        let offline = try Self.text(DocumentFixtures.app(live: false))
        #expect(offline.hasPrefix(header + "error: "))
    }

    @Test("diagnose: the matrix, not the scan report")
    func diagnose() throws {
        let text = try Self.text(DocumentFixtures.diagnose)
        #expect(text.contains("Starting ATS Diagnostics"))
        #expect(!text.contains("Summary:"))
    }

    @Test("colour only when the options ask for it")
    func colour() throws {
        let plain = try Self.text(DocumentFixtures.app(live: true))
        let coloured = try Self.text(DocumentFixtures.app(live: true), color: true)
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}["))
        #expect(coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) == plain)
    }
}
