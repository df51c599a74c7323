import TLSModel

/// `--format json`: the model every other format renders, each document's own shape (its `Encodable`;
/// docs/json-output.md), pretty-printed with sorted keys. A scan report is written in pieces, endpoint by
/// endpoint, and `plist --explain` host pattern by host pattern (``JSONStreamRendering``).
package struct JSONFormat: ReportRenderer {
    package let format = OutputFormat.json

    package init() {}

    package var scan: Rendering<ScanDocument> { .output { document, _ in Self.streamed(document.report) } }
    package var audit: Rendering<AuditDocument> { .text(Self.document) }
    package var app: Rendering<AppDocument> { .text(Self.document) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.document) }
    package var cert: Rendering<CertDocument> {
        .output { document, options in
            // Without a pin check beside it, the report alone: in pieces, as a scan's.
            guard document.pinCheck != nil else { return Self.streamed(document.report) }
            return .text(try Self.document(document, options: options))
        }
    }
    package var pinCheck: Rendering<PinCheckDocument> { .text(Self.document) }
    package var pinExtract: Rendering<PinExtractDocument> { .text(Self.document) }
    package var explanation: Rendering<ExplanationDocument> {
        // `plist --explain` of a plist with many exception domains: host pattern by host pattern.
        .output { document, _ in
            .pieces { sink in try JSONStreamRendering.write(document.plists.map(\.explanation), to: sink) }
        }
    }
    package var rules: Rendering<RuleCatalogueDocument> { .text(Self.document) }

    /// A scan report alone, in pieces.
    static func streamed(_ report: ScanReport) -> RenderedReport {
        .pieces { sink in try JSONStreamRendering.write(report, to: sink) }
    }

    /// The document's JSON as one string.
    @Sendable static func document(_ document: some ReportDocument, options: RenderOptions) throws -> String {
        try JSONRendering.render(document)
    }
}
