import TLSModel

/// `--format codeclimate`: a GitLab code-quality report (``CodeClimateRenderer``), placed in the document's
/// input files.
public struct CodeClimateFormat: ReportRenderer {
    public let format = OutputFormat.codeclimate

    public init() {}

    public var scan: Rendering<ScanDocument> { .text(Self.report) }
    public var audit: Rendering<AuditDocument> { .text(Self.report) }
    public var app: Rendering<AppDocument> { .text(Self.report) }
    public var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    public var cert: Rendering<CertDocument> { .text(Self.report) }
    public var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            try CodeClimateRenderer.render(
                PinsFormats.findingsReport(document.report), catalogue: options.catalogue, sources: document.sources)
        }
    }
    public var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    public var explanation: Rendering<ExplanationDocument> { .unsupported }
    public var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's findings, placed in the document's input files.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) throws -> String {
        try CodeClimateRenderer.render(document.report, catalogue: options.catalogue, sources: document.sources)
    }
}
