import TLSModel

/// What `diagnose` reports: the nscurl matrix (``DiagnosisSection``), and the endpoint under the default policy as
/// a scan report, which the formats other than text and JSON show.
package struct DiagnosisDocument: ReportDocument {
    package static let name = "diagnosis"

    /// The endpoint under the default policy and the findings.
    package var report: ScanReport
    /// The matrix, its profile and the findings beside it.
    package var diagnosis: DiagnosisSection
    /// Where results without a file are placed (the invocation).
    package var sources: ReportSources
    /// The trust data the run judged with (the text and JSON name it; the scan report carries its own).
    package var trustData: TrustDataInfo?

    /// - Parameters:
    ///   - report: the endpoint under the default policy.
    ///   - diagnosis: the matrix.
    ///   - sources: the input files.
    ///   - trustData: the trust data the run judged with.
    package init(
        report: ScanReport, diagnosis: DiagnosisSection, sources: ReportSources = ReportSources(),
        trustData: TrustDataInfo? = nil
    ) {
        self.report = report
        self.diagnosis = diagnosis
        self.sources = sources
        self.trustData = trustData
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.diagnosis }

    package mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if sources.root == nil { sources.root = root }
        if self.trustData == nil { self.trustData = trustData }
        if report.trustData == nil { report.trustData = trustData }
    }

    private enum Keys: String, CodingKey { case findings, trustData, tlsDiagnostics }

    /// The ``DiagnosticsReport`` with `findings` and `trustData` beside it; with `--tls-diagnostics`, the
    /// ``TLSDiagnostics`` under `tlsDiagnostics` instead of the matrix.
    package func encode(to encoder: Encoder) throws {
        if diagnosis.tls == nil { try diagnosis.report.encode(to: encoder) }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(diagnosis.tls, forKey: .tlsDiagnostics)
        try container.encode(diagnosis.findings, forKey: .findings)
        try container.encodeIfPresent(trustData, forKey: .trustData)
    }
}
