import TLSModel

/// `--format jsonl`: one compact endpoint a line, then the summary and findings (``JSONLinesRendering``);
/// a pin check as one compact line.
public struct JSONLinesFormat: ReportRenderer {
    public let format = OutputFormat.jsonl

    public init() {}

    public var scan: Rendering<ScanDocument> { .text(Self.report) }
    public var audit: Rendering<AuditDocument> { .text(Self.report) }
    public var app: Rendering<AppDocument> { .text(Self.report) }
    public var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    public var cert: Rendering<CertDocument> { .text(Self.report) }
    public var pinCheck: Rendering<PinCheckDocument> {
        .text { document, _ in try JSONRendering.render(document.report, pretty: false) }
    }
    public var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    public var explanation: Rendering<ExplanationDocument> { .unsupported }
    public var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's lines.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) throws -> String {
        try JSONLinesRendering.render(document.report)
    }
}
