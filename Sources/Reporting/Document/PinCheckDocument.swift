import TLSModel

/// What `pins check` reports: one library's pin check, the plist its findings are placed in and the run's trust
/// data.
package struct PinCheckDocument: ReportDocument {
    package static let name = "pins"

    /// The pin check.
    package var report: PinCheckReport
    /// The input files (the pin material's plist) findings without a file are placed in.
    package var sources: ReportSources
    /// The trust data the run judged with.
    package var trustData: TrustDataInfo?

    /// - Parameters:
    ///   - report: the pin check.
    ///   - sources: the input files.
    ///   - trustData: the trust data the run judged with.
    package init(report: PinCheckReport, sources: ReportSources = ReportSources(), trustData: TrustDataInfo? = nil) {
        self.report = report
        self.sources = sources
        self.trustData = trustData
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.pinCheck }

    package mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if sources.root == nil { sources.root = root }
        if self.trustData == nil { self.trustData = trustData }
    }

    /// The pin check with `trustData` beside its fields.
    package func encode(to encoder: Encoder) throws { try TrustDataBeside.encode(report, trustData, to: encoder) }
}

/// The JSON of a document that is one report's fields with `trustData` beside them (`pins check`, `pins extract`).
enum TrustDataBeside {
    private enum Keys: String, CodingKey { case trustData }

    /// Encodes `report`'s own fields, then `trustData` (when known) at the same level.
    /// - Throws: What the encoder throws.
    static func encode(_ report: some Encodable, _ trustData: TrustDataInfo?, to encoder: Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(trustData, forKey: .trustData)
    }
}
