import TLSModel

/// `--format github`: GitHub Actions annotations (``GitHubRenderer``), placed in the document's input files.
package struct GitHubFormat: ReportRenderer {
    package let format = OutputFormat.github

    package init() {}

    package var scan: Rendering<ScanDocument> { .text(Self.report) }
    package var audit: Rendering<AuditDocument> { .text(Self.report) }
    package var app: Rendering<AppDocument> { .text(Self.report) }
    package var diagnosis: Rendering<DiagnosisDocument> { .text(Self.report) }
    package var cert: Rendering<CertDocument> { .text(Self.report) }
    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            GitHubRenderer.render(PinsFormats.findingsReport(document.report), catalogue: options.catalogue)
        }
    }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    /// The scan report's annotations, placed in the document's plist and endpoint list.
    @Sendable static func report(_ document: some ScanReportDocument, options: RenderOptions) -> String {
        GitHubRenderer.render(
            document.report, catalogue: options.catalogue, plistFile: document.sources.plistFile,
            endpointsFile: document.sources.endpointsFile)
    }
}
