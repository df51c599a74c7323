import TLSModel

/// Renders a report as GitHub Actions workflow commands, so findings become annotations on the pull request:
/// `::error file=Info.plist,line=12,title=plist.key.misspelled::message`.
///
/// Errors are `::error`, warnings `::warning`, notes `::notice`. An issue with a file (a plist finding, an
/// endpoint from a list) is placed at its file and line; one without a file (a target given on the command
/// line) is an annotation without a place. A plain summary line ends the output. Text is escaped as the
/// runner expects: `%`, CR and LF in messages; those and `:` and `,` in properties.
///
/// The simulated Apple clients (issue 36) are log lines, not annotations, folded in a `::group::` before the summary:
/// one line per endpoint and client, in the text report's words (``SimulationWording``). Annotations stay one per
/// problem (a client of the judged release that fails is one already, `ats.tls.simulated-handshake-failed`); a notice
/// per endpoint would be counted with the problems and use up the few annotations a step may show.
package enum GitHubRenderer {
    /// Renders the report.
    /// - Parameters:
    ///   - report: the report.
    ///   - catalogue: the rule catalogue issues are grouped by.
    ///   - plistFile: the file a finding without one is placed in.
    ///   - endpointsFile: the file an endpoint without a `source` is placed in.
    /// - Returns: one workflow command a line, then the summary line.
    package static func render(
        _ report: ScanReport, catalogue: RuleCatalogue, plistFile: String? = nil, endpointsFile: String? = nil
    ) -> String {
        var out = ""
        let issues = ReportIssues.of(report, catalogue: catalogue, plistFile: plistFile, endpointsFile: endpointsFile)
        for issue in issues {
            out += command(issue) + "\n"
        }
        if let partial = report.partial {
            out +=
                "::error title=atscheck partial report::\(ControlEscaping.escape(data("Partial report: " + partial.summary)))\n"
        }
        return out + simulations(report) + "atscheck: " + summary(report, issues: issues) + "\n"
    }

    /// The `::group::` of simulated clients: `atscheck: tldr.example.com:443: iOS 26 (URLSession): fails — …`, then
    /// each endpoint's readiness; empty when no client was simulated. Every line starts with `atscheck: `, so text
    /// from the server can never start a workflow command.
    static func simulations(_ report: ScanReport) -> String {
        var lines: [String] = []
        for endpoint in report.endpoints where endpoint.profile.status == .completed {
            let profile = endpoint.profile
            guard let simulations = profile.simulations, !simulations.isEmpty else { continue }
            lines += simulations.map { "\(profile.target): " + SimulationWording.line($0) }
            lines.append("\(profile.target): " + SimulationWording.readiness(profile))
        }
        guard !lines.isEmpty else { return "" }
        // Control characters escaped: a line break from the server would end the line and start another.
        let body = lines.map { "atscheck: " + ControlEscaping.escape($0) + "\n" }.joined()
        return "::group::\(SimulationWording.title)\n" + body + "::endgroup::\n"
    }

    /// `5 endpoint(s): 3 passed, 2 failed, 0 ambiguous, 0 unreachable, 0 unknown; 7 problem(s): 2 error(s), …`: the
    /// counts of the text summary, the problems being the annotations above it.
    static func summary(_ report: ScanReport, issues: [ReportIssue]) -> String {
        let summary = report.summary
        var parts: [String] = []
        if !report.endpoints.isEmpty {
            parts.append(
                "\(report.endpoints.count) endpoint(s): \(summary.passed) passed, \(summary.failed) failed, "
                    + "\(summary.ambiguous) ambiguous, \(summary.unreachable) unreachable, \(summary.unknown) unknown"
            )
        }
        let counts = IssueCounts(issues)
        parts.append(
            "\(counts.total) problem(s): \(counts.errors) error(s), \(counts.warnings) warning(s), "
                + "\(counts.notes) note(s)")
        if let quantum = SimulationWording.summaryCount(summary) { parts.append(quantum) }
        return parts.joined(separator: "; ")
    }

    /// One workflow command.
    static func command(_ issue: ReportIssue) -> String {
        let name: String
        switch issue.severity {
        case .error: name = "error"
        case .warning: name = "warning"
        case .note: name = "notice"
        }
        var properties: [String] = []
        if let file = issue.file {
            properties.append("file=\(ControlEscaping.escape(property(file)))")
            if let line = issue.line { properties.append("line=\(line)") }
        }
        properties.append("title=\(ControlEscaping.escape(property(issue.rule.rawValue)))")
        var message = issue.message
        for related in issue.related { message += "\n\(related.rule): \(related.message)" }
        return "::\(name) \(properties.joined(separator: ","))::\(ControlEscaping.escape(data(message)))"
    }

    /// A message: `%`, CR and LF percent-encoded (the runner's `escapeData`).
    static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: as a message, and `:` and `,` too (the runner's `escapeProperty`).
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
