import TLSModel

/// `--format markdown`: a pull-request comment (``MarkdownRenderer``), after the audit's policy note as a quote;
/// a pin check's table (``PinsFormats/markdown(_:)``); the rule catalogue of docs/rules.md.
package struct MarkdownFormat: ReportRenderer {
    package let format = OutputFormat.markdown

    package init() {}

    package var scan: Rendering<ScanDocument> { .text(Self.report) }
    package var audit: Rendering<AuditDocument> {
        .text { document, options in
            let note = document.audit.judgedUnderDefaultPolicy ? "> \(AuditSection.defaultPolicyNote)\n\n" : ""
            return note + Self.report(document, options: options)
        }
    }
    package var app: Rendering<AppDocument> { .text(Self.report) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    package var cert: Rendering<CertDocument> { .text(Self.report) }
    package var pinCheck: Rendering<PinCheckDocument> { .text { document, _ in PinsFormats.markdown(document.report) } }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> {
        .text { document, _ in RuleCatalogueRenderer.markdown(document.rules) }
    }

    /// The scan report as a pull-request comment.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) -> String {
        MarkdownRenderer.render(document.report, catalogue: options.catalogue)
    }
}
