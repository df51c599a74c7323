import TLSModel

/// `--format junit`: JUnit XML test cases per endpoint and finding (``JUnitRenderer``; a pin check:
/// ``PinsFormats/junit(_:)``).
public struct JUnitFormat: ReportRenderer {
    public let format = OutputFormat.junit

    public init() {}

    public var scan: Rendering<ScanDocument> { .text(Self.report) }
    public var audit: Rendering<AuditDocument> { .text(Self.report) }
    public var app: Rendering<AppDocument> { .text(Self.report) }
    public var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    public var cert: Rendering<CertDocument> { .text(Self.report) }
    public var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            PinsFormats.junit(document.report, catalogue: options.catalogue)
        }
    }
    public var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    public var explanation: Rendering<ExplanationDocument> { .unsupported }
    public var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's test cases.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) -> String {
        JUnitRenderer.render(document.report, catalogue: options.catalogue)
    }
}
