import TLSModel

/// `--format sarif`: SARIF 2.1.0 for code scanning (``SARIFRenderer``; a pin check: ``PinsFormats/sarif(_:sources:)``).
public struct SARIFFormat: ReportRenderer {
    public let format = OutputFormat.sarif

    public init() {}

    public var scan: Rendering<ScanDocument> { .text(Self.report) }
    public var audit: Rendering<AuditDocument> { .text(Self.report) }
    public var app: Rendering<AppDocument> { .text(Self.report) }
    public var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    public var cert: Rendering<CertDocument> { .text(Self.report) }
    public var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            try PinsFormats.sarif(document.report, catalogue: options.catalogue, sources: document.sources)
        }
    }
    public var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    public var explanation: Rendering<ExplanationDocument> { .unsupported }
    public var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report, its results placed in the document's input files.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) throws -> String {
        try SARIFRenderer.render(document.report, catalogue: options.catalogue, sources: document.sources)
    }
}
