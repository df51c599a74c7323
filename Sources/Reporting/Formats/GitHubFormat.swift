import TLSModel

/// `--format github`: GitHub Actions annotations (``GitHubRenderer``), placed in the document's input files.
public struct GitHubFormat: ReportRenderer {
    public let format = OutputFormat.github

    public init() {}

    public var scan: Rendering<ScanDocument> { .text(Self.report) }
    public var audit: Rendering<AuditDocument> { .text(Self.report) }
    public var app: Rendering<AppDocument> { .text(Self.report) }
    public var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    public var cert: Rendering<CertDocument> { .text(Self.report) }
    public var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            GitHubRenderer.render(PinsFormats.findingsReport(document.report), catalogue: options.catalogue)
        }
    }
    public var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    public var explanation: Rendering<ExplanationDocument> { .unsupported }
    public var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's annotations, placed in the document's plist and endpoint list.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) -> String {
        GitHubRenderer.render(
            document.report, catalogue: options.catalogue, plistFile: document.sources.plistFile,
            endpointsFile: document.sources.endpointsFile)
    }
}
