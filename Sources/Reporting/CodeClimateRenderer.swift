import TLSModel

/// Renders a report as a GitLab code-quality report: the Code Climate issue format GitLab reads from
/// `artifacts:reports:codequality` (a JSON array of issues with `description`, `check_name`, `fingerprint`,
/// `severity` and `location.path` / `location.lines.begin`).
///
/// One issue per problem of ``ReportIssues`` (an audit finding carries its endpoint's scan rules in
/// `content.body`). Severities: error → `major`, warning → `minor`, note → `info`. An issue without a file (a target
/// given on the command line) is placed at line 1 of the endpoint list or plist when there is one, else of the
/// invocation artifact (``ArtifactRoot``; GitLab lists it without a link).
package enum CodeClimateRenderer {
    struct Issue: Encodable {
        var type = "issue"
        var checkName: String
        var description: String
        var categories = ["Security"]
        var severity: String
        var fingerprint: String
        var location: Location
        var content: Content?

        struct Content: Encodable {
            var body: String
        }

        struct Location: Encodable {
            var path: String
            var lines: Lines
        }

        struct Lines: Encodable {
            var begin: Int
        }

        enum CodingKeys: String, CodingKey {
            case type, description, categories, severity, fingerprint, location, content
            case checkName = "check_name"
        }
    }

    /// Renders the report.
    /// - Parameters:
    ///   - report: the report.
    ///   - catalogue: the rule catalogue issues are grouped by.
    ///   - sources: the files an issue without one is placed in.
    /// - Returns: a pretty-printed JSON array (empty when nothing was found).
    /// - Throws: an `EncodingError` (not for well-formed reports).
    package static func render(_ report: ScanReport, catalogue: RuleCatalogue, sources: ReportSources) throws
        -> String
    {
        let issues = ReportIssues.of(
            report, catalogue: catalogue, plistFile: sources.plistFile, endpointsFile: sources.endpointsFile
        )
        .map { issue in
            Issue(
                checkName: issue.rule.rawValue, description: issue.message, severity: severity(issue.severity),
                fingerprint: issue.fingerprint,
                location: .init(path: issue.file ?? sources.fallbackFile, lines: .init(begin: issue.line ?? 1)),
                content: issue.related.isEmpty
                    ? nil
                    : .init(
                        body: "Scan rules behind it:\n"
                            + issue.related.map { "- `\($0.rule)` \($0.message)" }.joined(separator: "\n")))
        }
        return try JSONRendering.render(issues)
    }

    /// Renders the report (the files as separate arguments).
    package static func render(
        _ report: ScanReport, catalogue: RuleCatalogue, plistFile: String? = nil, endpointsFile: String? = nil
    ) throws -> String {
        try render(
            report, catalogue: catalogue, sources: ReportSources(plistFile: plistFile, endpointsFile: endpointsFile))
    }

    static func severity(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: return "major"
        case .warning: return "minor"
        case .note: return "info"
        }
    }
}
