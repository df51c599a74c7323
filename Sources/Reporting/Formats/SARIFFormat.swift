import TLSModel

/// `--format sarif`: SARIF 2.1.0 for code scanning (``SARIFRenderer``; a pin check: ``PinsFormats/sarif(_:)``).
public struct SARIFFormat: ReportRenderer {
    public let format = OutputFormat.sarif
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        if let pins = document.pins, document.scan == nil {
            return try PinsFormats.sarif(pins, catalogue: options.catalogue, sources: document.sources)
        }
        return try SARIFRenderer.render(
            try document.requireScan(for: format), catalogue: options.catalogue, sources: document.sources)
    }
}
