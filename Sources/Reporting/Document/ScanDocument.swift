import TLSModel

/// What `scan`, `merge` of scans and `plist` report: endpoints (with their ATS verdicts) and findings, the report
/// of the JSON contract, and the input files its results are placed in.
public struct ScanDocument: ReportDocument {
    public static let name = "scan"

    /// The endpoints and findings.
    public var report: ScanReport
    /// The input files findings and endpoints without a file of their own are placed in.
    public var sources: ReportSources

    /// - Parameters:
    ///   - report: the endpoints and findings.
    ///   - sources: the input files.
    public init(report: ScanReport, sources: ReportSources = ReportSources()) {
        self.report = report
        self.sources = sources
    }

    public static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.scan }

    public mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if sources.root == nil { sources.root = root }
        if report.trustData == nil { report.trustData = trustData }
    }

    /// The report alone.
    public func encode(to encoder: Encoder) throws { try report.encode(to: encoder) }
}
