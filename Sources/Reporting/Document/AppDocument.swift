import TLSModel

/// What `atscheck app` reports: the scan report and, beside it, the bundle's facts and, live, its verdicts per OS
/// era and pin checks (``AppSection``).
public struct AppDocument: ReportDocument {
    public static let name = "app"

    /// The endpoints (live) and findings.
    public var report: ScanReport
    /// The bundle's facts and live checks.
    public var app: AppSection
    /// The bundle and endpoint list results are placed in.
    public var sources: ReportSources

    /// - Parameters:
    ///   - report: the endpoints and findings.
    ///   - app: the app's section.
    ///   - sources: the input files.
    public init(report: ScanReport, app: AppSection, sources: ReportSources = ReportSources()) {
        self.report = report
        self.app = app
        self.sources = sources
    }

    public static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.app }

    public mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if sources.root == nil { sources.root = root }
        if report.trustData == nil { report.trustData = trustData }
    }

    /// The report with `app` and, live, `live` beside it.
    public func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        try app.encode(to: encoder)
    }
}
