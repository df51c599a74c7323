import TLSModel

/// `--format json`: the model every other format renders (``ReportJSON``), pretty-printed with sorted keys.
/// A plain scan report is written in pieces, endpoint by endpoint, and `plist --explain` host pattern by host pattern
/// (``JSONStreamRendering``).
public struct JSONFormat: ReportRenderer {
    public let format = OutputFormat.json
    public let sections = Set(ReportDocument.Section.allCases)

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        try JSONRendering.render(ReportJSON(document))
    }

    public func pieces(_ document: ReportDocument, options: RenderOptions) -> ReportPieces? {
        if let explanations = document.explanations {
            // `plist --explain` of a plist with many exception domains: host pattern by host pattern.
            return { sink in try JSONStreamRendering.write(explanations.map(\.explanation), to: sink) }
        }
        guard document.sections == [.scan], let scan = document.scan else { return nil }
        return { sink in try JSONStreamRendering.write(scan, to: sink) }
    }
}
