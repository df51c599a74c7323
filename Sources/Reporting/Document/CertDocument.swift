import TLSModel

/// What `cert` reports: the chain's report (the pin checks' findings in it) and, when one library decided,
/// that library's pin check, shown after the report in text and as `pinCheck` in the JSON.
public struct CertDocument: ReportDocument {
    public static let name = "cert"

    /// The chain's endpoint and findings.
    public var report: ScanReport
    /// The one library's pin check (`--pins` with one library); nil for none or several.
    public var pinCheck: PinCheckReport?
    /// The input files (the plist) findings without a file are placed in.
    public var sources: ReportSources

    /// - Parameters:
    ///   - report: the chain's report.
    ///   - pinCheck: the one library's pin check, if any.
    ///   - sources: the input files.
    public init(report: ScanReport, pinCheck: PinCheckReport? = nil, sources: ReportSources = ReportSources()) {
        self.report = report
        self.pinCheck = pinCheck
        self.sources = sources
    }

    public static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.cert }

    public mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if sources.root == nil { sources.root = root }
        if report.trustData == nil { report.trustData = trustData }
    }

    private enum Keys: String, CodingKey { case pinCheck }

    /// The report with `pinCheck` beside it when one library decided.
    public func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        if let pinCheck {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(pinCheck, forKey: .pinCheck)
        }
    }
}
