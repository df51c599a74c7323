import TLSModel

/// `--format markdown`: a pull-request comment (``MarkdownRenderer``), after the audit's policy note as a quote;
/// a pin check's table (``PinsFormats/markdown(_:)``); the rule catalogue of docs/rules.md.
public struct MarkdownFormat: ReportRenderer {
    public let format = OutputFormat.markdown

    public init() {}

    public var scan: Rendering<ScanDocument> { .text(Self.report) }
    public var audit: Rendering<AuditDocument> {
        .text { document, options in
            let note = document.audit.judgedUnderDefaultPolicy ? "> \(AuditSection.defaultPolicyNote)\n\n" : ""
            return note + Self.report(document, options: options)
        }
    }
    public var app: Rendering<AppDocument> { .text(Self.report) }
    public var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    public var cert: Rendering<CertDocument> { .text(Self.report) }
    public var pinCheck: Rendering<PinCheckDocument> { .text { document, _ in PinsFormats.markdown(document.report) } }
    public var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    public var explanation: Rendering<ExplanationDocument> { .unsupported }
    public var rules: Rendering<RuleCatalogueDocument> {
        .text { document, _ in RuleCatalogueRenderer.markdown(document.rules) }
    }

    /// The scan report as a pull-request comment.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) -> String {
        MarkdownRenderer.render(document.report, catalogue: options.catalogue)
    }
}
