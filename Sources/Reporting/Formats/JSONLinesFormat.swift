import TLSModel

/// `--format jsonl`: one compact endpoint a line, then the summary and findings (``JSONLinesRendering``);
/// a pin check as one compact line.
public struct JSONLinesFormat: ReportRenderer {
    public let format = OutputFormat.jsonl
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        if let pins = document.pins, document.scan == nil { return try JSONRendering.render(pins, pretty: false) }
        return try JSONLinesRendering.render(try document.requireScan(for: format))
    }
}
