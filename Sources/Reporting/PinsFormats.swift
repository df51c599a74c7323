import Foundation
import TLSModel

/// JUnit, Markdown and SARIF renderings of a ``PinCheckReport`` (the JSON model is the report itself).
package enum PinsFormats {
    /// The JUnit test case name of the policy the options describe.
    package static let policyCheck = "pin policy"
    /// The JUnit test case name of the release build next to a relaxed one.
    package static let releaseCheck = "pin policy (release build)"

    /// Every finding of the run as a findings-only ``ScanReport``, for the formats that list findings
    /// (`github` annotations, Code Climate): material findings, each evaluation's findings (a rejection is
    /// `pins.rejected`), and the risks of a relaxed build, each once.
    package static func findingsReport(_ report: PinCheckReport) -> ScanReport {
        var findings = report.findings
        for result in report.results {
            findings += result.evaluation?.findings ?? []
            findings += result.risks
        }
        var seen = Set<String>()
        findings = findings.filter { seen.insert("\($0.rule)|\($0.file ?? "")|\($0.line ?? 0)|\($0.message)").inserted }
        return ScanReport(endpoints: [], findings: findings)
    }

    /// JUnit XML: one test case per target for the policy (failure on reject, error when no chain was
    /// received), one more for the release build when relaxations were given; material findings of error
    /// severity fail a case of their file.
    package static func junit(_ report: PinCheckReport, catalogue: RuleCatalogue) -> String {
        typealias Case = JUnitRenderer.Case
        var cases: [Case] = []
        for result in report.results {
            guard let ev = result.evaluation else {
                cases.append(
                    Case(
                        classname: result.target, name: policyCheck,
                        outcome: .error(message: result.error ?? result.status.rawValue, type: result.status.rawValue)))
                continue
            }
            cases.append(
                Case(classname: result.target, name: policyCheck, outcome: outcome(ev), systemOut: summary(ev)))
            if let release = result.release {
                let risks = result.risks.map { "\($0.rule): \($0.message)" }.joined(separator: "\n")
                cases.append(
                    Case(
                        classname: result.target, name: releaseCheck, outcome: outcome(release),
                        systemOut: risks.isEmpty ? summary(release) : risks))
            }
        }
        for finding in report.findings {
            let issue = ReportIssue(
                rule: finding.rule, severity: finding.severity, message: finding.message, file: finding.file,
                line: finding.line, about: finding.keyPath.map { .keyPath($0) } ?? .none)
            cases.append(JUnitRenderer.testCase(for: issue, classname: finding.file ?? "pins", catalogue: catalogue))
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(JUnitRenderer.escape(report.tool.name))\" \(JUnitRenderer.counts(cases))>\n"
        xml += "  <testsuite name=\"pins \(report.library.rawValue)\" \(JUnitRenderer.counts(cases))>\n"
        for c in cases { xml += c.xml(indent: "    ") }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    static func outcome(_ ev: PinEvaluation) -> JUnitRenderer.Case.Outcome {
        guard ev.verdict == .reject else { return .passed }
        let why = ev.findings.first { $0.rule == RuleID.Pins.rejected }?.message ?? ev.result
        return .failure(
            message: why, type: RuleID.Pins.rejected.rawValue,
            detail: ev.steps.map { "\($0.status.rawValue) \($0.name): \($0.detail)" }.joined(separator: "\n"))
    }

    static func summary(_ ev: PinEvaluation) -> String {
        let options = ev.options.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
        let match =
            ev.matches.first.map { "pin matched \($0.subject) at position \($0.position) (\($0.role))" }
            ?? (ev.noMatchReason ?? "")
        return "\(ev.library.rawValue) \(options): \(ev.verdict.rawValue) (\(ev.result)); \(match)"
    }

    /// Markdown: a table of targets with both verdicts, then risks and findings.
    package static func markdown(_ report: PinCheckReport) -> String {
        func cell(_ text: String) -> String {
            ControlEscaping.escape(text).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(
                of: "`", with: "'")
        }
        let s = report.summary
        var out =
            "## atscheck pins (\(report.library.rawValue)): \(s.accepted) accepted, \(s.rejected) rejected, "
            + "\(s.unreachable) could not be checked\n\n"
        out += "| Target | Verdict | Result | Release build | Pin match |\n| --- | --- | --- | --- | --- |\n"
        for result in report.results {
            guard let ev = result.evaluation else {
                out +=
                    "| `\(cell(result.target))` | \(result.status.rawValue.uppercased()) | "
                    + "\(cell(result.error ?? "")) | | |\n"
                continue
            }
            let release = result.release.map { "\($0.verdict.rawValue.uppercased()) (\(cell($0.result)))" } ?? "—"
            let match =
                ev.matches.first.map { "\(cell($0.subject)) at position \($0.position) (\($0.role))" }
                ?? cell(ev.noMatchReason ?? "")
            out +=
                "| `\(cell(result.target))` | \(ev.verdict.rawValue.uppercased()) | \(cell(ev.result)) | \(release) "
                + "| \(match) |\n"
        }
        let findings = report.results.flatMap { $0.risks + ($0.evaluation?.findings ?? []) } + report.findings
        if !findings.isEmpty {
            out += "\n### Findings\n\n"
            for f in findings {
                let place = f.file.map { " \(cell($0))" + (f.line.map { ":\($0)" } ?? "") } ?? ""
                out += "- **\(f.severity.rawValue)** `\(f.rule.rawValue)`\(place): \(cell(f.message))\n"
            }
        }
        return out
    }

    /// SARIF 2.1.0: one result per finding of each evaluation and risk (logically located at the target), per
    /// material finding (at its file and line), and per target that could not be checked. Results without a file are
    /// placed at the pin configuration (``ReportSources/plistFile``), else the invocation artifact.
    /// - Throws: An `EncodingError` if encoding fails.
    package static func sarif(
        _ report: PinCheckReport, catalogue: RuleCatalogue, sources: ReportSources = ReportSources()
    ) throws -> String {
        var builder = ResultBuilder(catalogue: catalogue, descriptions: [:], sources: sources)
        func add(_ finding: Finding, target: String?) {
            let about: ReportIssue.Subject =
                target.map { .target($0) } ?? finding.keyPath.map { .keyPath($0) } ?? .none
            builder.add(
                ReportIssue(
                    rule: finding.rule, severity: finding.severity,
                    message: target.map { "\($0): \(finding.message)" } ?? finding.message, file: finding.file,
                    line: finding.line.flatMap { $0 > 0 ? $0 : nil }, about: about))
        }
        for finding in report.findings { add(finding, target: nil) }
        for result in report.results {
            guard let ev = result.evaluation else {
                let rule = RuleID.Scan.id(for: result.status) ?? RuleID.Scan.id(for: .error)!
                add(
                    Finding(
                        rule: rule, severity: .warning,
                        message: "could not be checked (\(result.status.rawValue)): \(result.error ?? "")"),
                    target: result.target)
                continue
            }
            for finding in ev.findings + result.risks { add(finding, target: result.target) }
        }
        return try SARIFRenderer.render(builder, tool: report.tool, root: sources.root)
    }
}
