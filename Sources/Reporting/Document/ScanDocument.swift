import TLSModel

/// What `scan`, `merge` of scans and `plist` report: endpoints (with their ATS verdicts) and findings, the report
/// of the JSON contract, and the input files its results are placed in.
package struct ScanDocument: ReportDocument {
    package static let name = "scan"

    /// The endpoints and findings.
    package var report: ScanReport
    /// The input files findings and endpoints without a file of their own are placed in.
    package var sources: ReportSources

    /// - Parameters:
    ///   - report: the endpoints and findings.
    ///   - sources: the input files.
    package init(report: ScanReport, sources: ReportSources = ReportSources()) {
        self.report = report
        self.sources = sources
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.scan }

    /// The report alone.
    package func encode(to encoder: Encoder) throws { try report.encode(to: encoder) }
}
