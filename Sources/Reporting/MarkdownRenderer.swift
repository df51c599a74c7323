import Foundation
import TLSModel

/// Renders a ``ScanReport`` as a pull-request comment: a summary line with counts, a table of
/// endpoints (target, PASS/FAIL/…, reasons), the simulated Apple clients (a table per endpoint, folded) and the plist
/// findings.
package enum MarkdownRenderer {
    /// Renders the report.
    /// - Parameters:
    ///   - report: The report to render.
    ///   - catalogue: The rule catalogue issues are grouped by.
    /// - Returns: GitHub-flavoured Markdown, ending with a newline.
    package static func render(_ report: ScanReport, catalogue: RuleCatalogue) -> String {
        var out = "## atscheck: \(summaryLine(report, catalogue: catalogue))\n"
        if let partial = report.partial { out += "\n> **Partial report:** \(partial.summary).\n" }
        if !report.endpoints.isEmpty {
            out += "\n### Endpoints\n\n| Endpoint | Verdict | Reasons |\n| --- | --- | --- |\n"
            for endpoint in report.endpoints {
                out += "| `\(cell(endpoint.profile.target))` | \(verdict(endpoint)) | \(reasons(endpoint)) |\n"
            }
        }
        out += simulations(report)
        let findings = ReportIssues.of(report, catalogue: catalogue).filter(\.isFinding)
        if !findings.isEmpty {
            let onlyPlist = findings.allSatisfy { source(of: $0, catalogue: catalogue) == "plist" }
            out += onlyPlist ? "\n### Plist findings\n\n" : "\n### Findings\n\n"
            for finding in findings {
                var place = ControlEscaping.escape(finding.file ?? "")
                if let line = finding.line { place += ":\(line)" }
                var item = "- **\(finding.severity.rawValue)** `\(inline(finding.rule.rawValue))`"
                if !place.isEmpty { item += " \(place)" }
                if case .keyPath(let keyPath) = finding.about { item += " `\(inline(keyPath))`" }
                out += item + ": \(inline(finding.message))"
                if !finding.related.isEmpty {
                    out +=
                        " (scan rules: "
                        + finding.related.map { "`\(inline($0.rule.rawValue))`" }.joined(separator: ", ")
                        + ")"
                }
                out += "\n"
            }
        }
        return out
    }

    /// `3 endpoints: 1 passed, 1 failed, 1 unreachable; plist: 2 errors, 1 warning, 0 notes`, with one count per
    /// source of problems (`endpoints`, `plist`, `endpoint list`, `audit`, `baseline`, `certificates`, …): an
    /// endpoint-list finding is not counted as a plist error. The problems are those of ``ReportIssues``, so the counts
    /// add up to the text summary's and to the alerts of the other CI formats.
    static func summaryLine(_ report: ScanReport, catalogue: RuleCatalogue) -> String {
        let s = report.summary
        var parts: [String] = []
        if !report.endpoints.isEmpty {
            var line =
                "\(plural(report.endpoints.count, "endpoint")): \(s.passed) passed, \(s.failed) failed, "
                + "\(s.unreachable) unreachable"
            if s.ambiguous > 0 { line += ", \(s.ambiguous) ambiguous" }
            if s.unknown > 0 { line += ", \(s.unknown) unknown" }
            parts.append(line)
        }
        let issues = ReportIssues.of(report, catalogue: catalogue)
        if issues.isEmpty && report.endpoints.isEmpty {
            parts.append("plist: 0 errors, 0 warnings, 0 notes")
        }
        var sources: [String] = []
        for issue in issues where !sources.contains(source(of: issue, catalogue: catalogue)) {
            sources.append(source(of: issue, catalogue: catalogue))
        }
        for name in sources {
            let group = IssueCounts(issues.filter { source(of: $0, catalogue: catalogue) == name })
            parts.append(
                "\(name): \(plural(group.errors, "error")), \(plural(group.warnings, "warning")), "
                    + "\(plural(group.notes, "note"))"
            )
        }
        if let quantum = SimulationWording.summaryCount(s) { parts.append(quantum) }
        return parts.joined(separator: "; ")
    }

    /// The simulated Apple clients of each endpoint that has them: a table per endpoint (client, outcome, version,
    /// suite, group, quantum-secure) and its readiness line, in ``SimulationWording``'s words, inside a `<details>`
    /// block so that a long list does not push the findings out of sight; empty when no client was simulated.
    static func simulations(_ report: ScanReport) -> String {
        let simulated = report.endpoints.filter {
            $0.profile.status == .completed && !($0.profile.simulations ?? []).isEmpty
        }
        guard !simulated.isEmpty else { return "" }
        var out =
            "\n<details><summary>\(SimulationWording.title): \(plural(simulated.count, "endpoint"))</summary>\n"
        for endpoint in simulated {
            let profile = endpoint.profile
            out += "\n#### `\(cell(profile.target))`\n\n"
            out += "| Client | Outcome | Version | Suite | Group | Quantum-secure |\n"
            out += "| --- | --- | --- | --- | --- | --- |\n"
            for simulation in profile.simulations ?? [] { out += row(simulation) }
            out += "\n" + inline(SimulationWording.readiness(profile)) + "\n"
        }
        return out + "\n</details>\n"
    }

    /// One client's row: its outcome word (and why it fails), what was negotiated, and whether it is quantum-secure
    /// (`yes`/`no` for iOS 26, a dash for older clients, which never offer the hybrid).
    static func row(_ simulation: ClientSimulation) -> String {
        var client = cell(simulation.client)
        if SimulationWording.inferred(simulation) { client += " " + cell(SimulationWording.inferredNote) }
        var outcome = SimulationWording.outcomeWord(simulation)
        if !simulation.connects { outcome += " — " + SimulationWording.reason(simulation) }
        let quantum = SimulationWording.quantumSecure(simulation).map { $0 ? "yes" : "no" }
        let cells = [
            client, cell(outcome), simulation.version.map(SimulationWording.versionLabel) ?? "—",
            simulation.suite.map { "`\(cell($0.name))`" } ?? "—", simulation.group.map { "`\(cell($0.name))`" } ?? "—",
            quantum ?? "—",
        ]
        return "| " + cells.joined(separator: " | ") + " |\n"
    }

    /// Where a problem comes from, by its rule's family; a rule the catalogue does not know counts as `plist`
    /// when it has a key path, as `endpoints` when it is about an endpoint, else as `other`.
    static func source(of issue: ReportIssue, catalogue: RuleCatalogue) -> String {
        switch catalogue.family(of: issue.rule) {
        case .plist?: return "plist"
        case .endpoints?: return "endpoint list"
        case .audit?: return "audit"
        case .baseline?: return "baseline"
        case .pins?: return "pins"
        case .app?: return "app bundle"
        case .trust?: return "certificates"
        case .verdict?, .http?, .tls?, .scan?, .info?, .required?: return "endpoints"
        case nil:
            switch issue.about {
            case .keyPath: return "plist"
            case .target: return "endpoints"
            case .none: return "other"
            }
        }
    }

    static func verdict(_ endpoint: EndpointResult) -> String {
        guard endpoint.profile.status == .completed else { return endpoint.profile.status.rawValue.uppercased() }
        switch endpoint.ats.verdict {
        case .pass: return "PASS"
        case .fail: return "FAIL"
        case .ambiguous: return "AMBIGUOUS"
        case .unknown: return "UNKNOWN"
        }
    }

    static func reasons(_ endpoint: EndpointResult) -> String {
        let profile = endpoint.profile
        guard profile.status == .completed else { return cell(profile.error ?? "could not be scanned") }
        let ats = endpoint.ats
        var lines = ats.violations.map { v in
            "`\(v.rule)` \(v.message)" + (v.keyPath.map { " (relaxed by `\($0)`)" } ?? "")
        }
        if ats.verdict == .ambiguous {
            lines += ats.readings.map { "\($0.name) reading: \($0.verdict.rawValue.uppercased())" }
            lines += ats.ambiguities
        }
        if ats.verdict == .unknown { lines += ats.notes }
        return lines.map(cell).joined(separator: "<br>")
    }

    /// Text safe inside a table cell: pipes escaped, line breaks as `<br>`.
    static func cell(_ text: String) -> String {
        inline(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text on one line, with `<` and `>` escaped so GitHub does not read them as HTML tags, and the control
    /// characters left after joining lines escaped (``ControlEscaping``).
    static func inline(_ text: String) -> String {
        ControlEscaping.escape(text.split(whereSeparator: \.isNewline).joined(separator: " "))
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
}
