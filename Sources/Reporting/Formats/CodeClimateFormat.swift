import TLSModel

/// `--format codeclimate`: a GitLab code-quality report (``CodeClimateRenderer``), placed in the document's
/// input files.
public struct CodeClimateFormat: ReportRenderer {
    public let format = OutputFormat.codeclimate
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        if let pins = document.pins, document.scan == nil {
            return try CodeClimateRenderer.render(
                PinsFormats.findingsReport(pins), catalogue: options.catalogue, sources: document.sources)
        }
        return try CodeClimateRenderer.render(
            try document.requireScan(for: format), catalogue: options.catalogue, sources: document.sources)
    }
}
