import TLSModel

/// `--format junit`: JUnit XML test cases per endpoint and finding (``JUnitRenderer``; a pin check:
/// ``PinsFormats/junit(_:)``).
package struct JUnitFormat: ReportRenderer {
    package let format = OutputFormat.junit

    package init() {}

    package var scan: Rendering<ScanDocument> { .text(Self.report) }
    package var audit: Rendering<AuditDocument> { .text(Self.report) }
    package var app: Rendering<AppDocument> { .text(Self.report) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    package var cert: Rendering<CertDocument> { .text(Self.report) }
    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            PinsFormats.junit(document.report, catalogue: options.catalogue)
        }
    }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's test cases.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) -> String {
        JUnitRenderer.render(document.report, catalogue: options.catalogue)
    }
}
