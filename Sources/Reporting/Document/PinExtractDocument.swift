import TLSModel

/// What `pins extract` reports: the pins extracted from a live path and the run's trust data.
package struct PinExtractDocument: ReportDocument {
    package static let name = "pinExtract"

    /// The path, the recommended pins and their material.
    package var report: PinExtractReport
    /// The trust data the run judged with.
    package var trustData: TrustDataInfo?

    /// - Parameters:
    ///   - report: the extracted pins.
    ///   - trustData: the trust data the run judged with.
    package init(report: PinExtractReport, trustData: TrustDataInfo? = nil) {
        self.report = report
        self.trustData = trustData
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.pinExtract }

    package mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if self.trustData == nil { self.trustData = trustData }
    }

    /// The extract with `trustData` beside its fields.
    package func encode(to encoder: Encoder) throws { try TrustDataBeside.encode(report, trustData, to: encoder) }
}
