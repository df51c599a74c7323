import TLSModel

/// `--format sarif`: SARIF 2.1.0 for code scanning (``SARIFRenderer``; a pin check: ``PinsFormats/sarif(_:sources:)``).
package struct SARIFFormat: ReportRenderer {
    package let format = OutputFormat.sarif

    package init() {}

    package var scan: Rendering<ScanDocument> { .text(Self.report) }
    package var audit: Rendering<AuditDocument> { .text(Self.report) }
    package var app: Rendering<AppDocument> { .text(Self.report) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    package var cert: Rendering<CertDocument> { .text(Self.report) }
    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            try PinsFormats.sarif(document.report, catalogue: options.catalogue, sources: document.sources)
        }
    }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report, its results placed in the document's input files.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) throws -> String {
        try SARIFRenderer.render(document.report, catalogue: options.catalogue, sources: document.sources)
    }
}
