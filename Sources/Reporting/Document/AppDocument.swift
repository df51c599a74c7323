import TLSModel

/// What `atscheck app` reports: the scan report and, beside it, the bundle's facts and, live, its verdicts per OS
/// era and pin checks (``AppSection``).
package struct AppDocument: ReportDocument {
    package static let name = "app"

    /// The endpoints (live) and findings.
    package var report: ScanReport
    /// The bundle's facts and live checks.
    package var app: AppSection
    /// The bundle and endpoint list results are placed in.
    package var sources: ReportSources

    /// - Parameters:
    ///   - report: the endpoints and findings.
    ///   - app: the app's section.
    ///   - sources: the input files.
    package init(report: ScanReport, app: AppSection, sources: ReportSources = ReportSources()) {
        self.report = report
        self.app = app
        self.sources = sources
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.app }

    /// The report with `app` and, live, `live` beside it.
    package func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        try app.encode(to: encoder)
    }
}
