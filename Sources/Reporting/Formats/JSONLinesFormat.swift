import TLSModel

/// `--format jsonl`: one compact endpoint a line, then the summary and findings (``JSONLinesRendering``);
/// a pin check as one compact line.
package struct JSONLinesFormat: ReportRenderer {
    package let format = OutputFormat.jsonl

    package init() {}

    package var scan: Rendering<ScanDocument> { .text(Self.report) }
    package var audit: Rendering<AuditDocument> { .text(Self.report) }
    package var app: Rendering<AppDocument> { .text(Self.report) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    package var cert: Rendering<CertDocument> { .text(Self.report) }
    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, _ in try JSONRendering.render(document.report, pretty: false) }
    }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's lines.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) throws -> String {
        try JSONLinesRendering.render(document.report)
    }
}
