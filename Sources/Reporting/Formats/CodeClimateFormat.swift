import TLSModel

/// `--format codeclimate`: a GitLab code-quality report (``CodeClimateRenderer``), placed in the document's
/// input files.
package struct CodeClimateFormat: ReportRenderer {
    package let format = OutputFormat.codeclimate

    package init() {}

    package var scan: Rendering<ScanDocument> { .text(Self.report) }
    package var audit: Rendering<AuditDocument> { .text(Self.report) }
    package var app: Rendering<AppDocument> { .text(Self.report) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    package var cert: Rendering<CertDocument> { .text(Self.report) }
    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            try CodeClimateRenderer.render(
                PinsFormats.findingsReport(document.report), catalogue: options.catalogue, sources: document.sources)
        }
    }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's findings, placed in the document's input files.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) throws -> String {
        try CodeClimateRenderer.render(document.report, catalogue: options.catalogue, sources: document.sources)
    }
}
