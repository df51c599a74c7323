import TLSModel

/// What `cert` reports: the chain's report (the pin checks' findings in it) and, when one library decided,
/// that library's pin check, shown after the report in text and as `pinCheck` in the JSON.
package struct CertDocument: ReportDocument {
    package static let name = "cert"

    /// The chain's endpoint and findings.
    package var report: ScanReport
    /// The one library's pin check (`--pins` with one library); nil for none or several.
    package var pinCheck: PinCheckReport?
    /// The input files (the plist) findings without a file are placed in.
    package var sources: ReportSources

    /// - Parameters:
    ///   - report: the chain's report.
    ///   - pinCheck: the one library's pin check, if any.
    ///   - sources: the input files.
    package init(report: ScanReport, pinCheck: PinCheckReport? = nil, sources: ReportSources = ReportSources()) {
        self.report = report
        self.pinCheck = pinCheck
        self.sources = sources
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.cert }

    private enum Keys: String, CodingKey { case pinCheck }

    /// The report with `pinCheck` beside it when one library decided.
    package func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        if let pinCheck {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(pinCheck, forKey: .pinCheck)
        }
    }
}
