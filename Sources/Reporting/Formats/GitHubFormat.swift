import TLSModel

/// `--format github`: GitHub Actions annotations (``GitHubRenderer``), placed in the document's input files.
public struct GitHubFormat: ReportRenderer {
    public let format = OutputFormat.github
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        if let pins = document.pins, document.scan == nil {
            return GitHubRenderer.render(PinsFormats.findingsReport(pins), catalogue: options.catalogue)
        }
        return GitHubRenderer.render(
            try document.requireScan(for: format), catalogue: options.catalogue, plistFile: document.sources.plistFile,
            endpointsFile: document.sources.endpointsFile)
    }
}
