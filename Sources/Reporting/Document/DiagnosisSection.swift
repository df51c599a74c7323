import TLSModel

/// What `atscheck diagnose` adds to its scan report (``DiagnosisDocument``): the nscurl matrix and minimal exception
/// (``DiagnosticsReport``), the profile it was predicted from, and the findings beside it.
///
/// Text and JSON show the matrix; the other formats show the endpoint as `scan` does.
package struct DiagnosisSection: Sendable {
    /// The 16 nscurl tests and the minimal exception.
    package var report: DiagnosticsReport
    /// The profile the matrix was predicted from (the text names it when it could not be scanned).
    package var profile: ServerProfile
    /// The findings beside the matrix (certificates about to expire).
    package var findings: [Finding]
    /// `--tls-diagnostics`: what nscurl's TLS diagnostics print, shown instead of the matrix; nil without it.
    package var tls: TLSDiagnostics?

    /// - Parameters:
    ///   - report: the matrix and minimal exception.
    ///   - profile: the profile they were predicted from.
    ///   - findings: the findings beside the matrix.
    ///   - tls: what nscurl's TLS diagnostics print (`--tls-diagnostics`), shown instead of the matrix.
    package init(report: DiagnosticsReport, profile: ServerProfile, findings: [Finding], tls: TLSDiagnostics? = nil) {
        self.report = report
        self.profile = profile
        self.findings = findings
        self.tls = tls
    }
}
