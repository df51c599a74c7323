import TLSModel

/// Renders a report as a GitLab code-quality report: the Code Climate issue format GitLab reads from
/// `artifacts:reports:codequality` (a JSON array of issues with `description`, `check_name`, `fingerprint`,
/// `severity` and `location.path` / `location.lines.begin`).
///
/// Severities: error → `major`, warning → `minor`, note → `info`. An issue without a file (a target given on
/// the command line) is placed at line 1 of the plist or endpoint list when there is one, else of
/// `atscheck` (GitLab lists it without a link).
public enum CodeClimateRenderer {
    struct Issue: Encodable {
        var type = "issue"
        var checkName: String
        var description: String
        var categories = ["Security"]
        var severity: String
        var fingerprint: String
        var location: Location

        struct Location: Encodable {
            var path: String
            var lines: Lines
        }

        struct Lines: Encodable {
            var begin: Int
        }

        enum CodingKeys: String, CodingKey {
            case type, description, categories, severity, fingerprint, location
            case checkName = "check_name"
        }
    }

    /// Renders the report.
    /// - Parameters:
    ///   - report: the report.
    ///   - plistFile: the file a finding without one is placed in.
    ///   - endpointsFile: the file an endpoint without a `source` is placed in.
    /// - Returns: a pretty-printed JSON array (empty when nothing was found).
    /// - Throws: an `EncodingError` (not for well-formed reports).
    public static func render(_ report: ScanReport, plistFile: String? = nil, endpointsFile: String? = nil) throws
        -> String
    {
        let issues = ReportIssues.of(report, plistFile: plistFile, endpointsFile: endpointsFile).map { issue in
            Issue(
                checkName: issue.rule.rawValue, description: issue.message, severity: severity(issue.severity),
                fingerprint: issue.fingerprint,
                location: .init(
                    path: issue.file ?? endpointsFile ?? plistFile ?? "atscheck", lines: .init(begin: issue.line ?? 1)))
        }
        return try JSONRendering.render(issues)
    }

    static func severity(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: return "major"
        case .warning: return "minor"
        case .note: return "info"
        }
    }
}
