import Foundation
import TLSModel

/// Renders `atscheck pins check` and `pins extract` reports as text: for each target the verdict, the
/// library's steps, the path pins were matched against, which pin matched where (or why none did), which
/// trust checks applied, and — with debug relaxations — the release build side by side with the risks.
/// Every input-derived string goes through ``ControlEscaping``; lines are fitted to ``width`` (``TextLayout``).
package struct PinsTextRenderer {
    /// Terminal styling.
    package var style: TextStyle
    /// The display columns lines are fitted to (`Int.max`: as long as they are).
    package var width: Int

    /// A renderer.
    /// - Parameters:
    ///   - style: Colours, when stdout is a terminal.
    ///   - width: The display columns lines are fitted to.
    package init(style: TextStyle = .plain, width: Int = TextLayout.defaultWidth) {
        self.style = style
        self.width = width
    }

    private func e(_ text: String) -> String { ControlEscaping.escape(text) }

    /// Renders a check report.
    /// - Parameter report: The report.
    /// - Returns: Text ending with a newline.
    package func render(_ report: PinCheckReport) -> String { TextLayout.fit(unfitted(report), width: width) }

    func unfitted(_ report: PinCheckReport) -> String {
        var out = style.bold("atscheck pins check — \(report.library.rawValue)") + "\n"
        out +=
            "pin material: " + (report.pinFiles.isEmpty ? "none" : report.pinFiles.map(e).joined(separator: ", "))
            + "\n"
        if report.scope == "ats-only" {
            out +=
                "probe: ATS-only (the served chain from at most 6 handshakes; suite lists not enumerated, --full "
                + "enumerates)\n"
        }
        for finding in report.findings { out += "  " + line(finding) + "\n" }
        for result in report.results {
            out += "\n" + render(result)
        }
        let s = report.summary
        out +=
            "\n\(report.results.count) target(s): \(s.accepted) accepted, \(s.rejected) rejected, \(s.unreachable) "
            + "could not be checked\n"
        return out
    }

    func render(_ result: PinCheckResult) -> String {
        guard let evaluation = result.evaluation else {
            return style.bold(e(result.target)) + "  " + style.yellow(result.status.rawValue.uppercased()) + "  "
                + e(result.error ?? "no chain received") + "\n"
        }
        var out = style.bold(e(result.target)) + "  " + verdict(evaluation) + "  (\(e(evaluation.result)))\n"
        if let release = result.release {
            out += sideBySide(debug: evaluation, release: release, risks: result.risks)
        }
        out += details(evaluation, indent: "  ")
        return out
    }

    func verdict(_ evaluation: PinEvaluation) -> String {
        evaluation.verdict == .accept ? style.green("ACCEPT") : style.red("REJECT")
    }

    /// The options, steps, path, matches, trust checks and findings of one evaluation.
    func details(_ ev: PinEvaluation, indent: String) -> String {
        var out =
            indent + "options: " + ev.options.map { "\(e($0.name)) = \(e($0.value))" }.joined(separator: ", ") + "\n"
        out += indent + "steps:\n"
        for step in ev.steps {
            out += "\(indent)  \(mark(step.status)) \(e(step.name)): \(e(step.detail))\n"
        }
        if !ev.path.isEmpty {
            out += indent + "path the pins were matched against (leaf first):\n"
            for entry in ev.path {
                let sent = entry.sentByServer ? "sent by the server" : "not sent: from the anchors"
                out += pathRow(entry, indent: indent + "  ", after: "  (\(sent))")
            }
        }
        if ev.matches.isEmpty {
            out += indent + "pin match: " + e(ev.noMatchReason ?? "none") + "\n"
        } else {
            for m in ev.matches {
                out +=
                    "\(indent)pin match: \(e(m.pin)) matched \(e(m.subject)) at position \(m.position) (\(m.role), "
                    + "by \(m.kind.rawValue))\n"
            }
        }
        let applied = ev.trustChecks.filter { $0.status == .applied }.map(\.check.rawValue)
        let skipped = ev.trustChecks.filter { $0.status == .skipped }.map(\.check.rawValue)
        let unchecked = ev.trustChecks.filter { $0.status == .unchecked }.map(\.check.rawValue)
        out += indent + "trust checks applied: " + (applied.isEmpty ? "none" : applied.joined(separator: ", ")) + "\n"
        out += indent + "trust checks skipped: " + (skipped.isEmpty ? "none" : skipped.joined(separator: ", ")) + "\n"
        if !unchecked.isEmpty { out += indent + "not checkable here: " + unchecked.joined(separator: ", ") + "\n" }
        for finding in ev.findings { out += indent + line(finding) + "\n" }
        return out
    }

    /// One entry of a path: position, role, subject, then its SPKI hash and `after` on the same line when they
    /// fit, else on the line below, under the subject.
    func pathRow(_ entry: PinPathEntry, indent: String, after: String) -> String {
        let head = "\(indent)\(entry.position) \(entry.role.padding(toLength: 12, withPad: " ", startingAt: 0)) "
        let subject = e(entry.subject)
        let spki = "spki \(entry.spkiSHA256)\(after)"
        let line = head + subject + "  " + spki
        if TextLayout.columns(line) <= width { return line + "\n" }
        let hang = TextLayout.columns(head)
        return TextLayout.wrap(head + subject, width: width, hang: hang) + "\n"
            + TextLayout.wrap(String(repeating: " ", count: hang) + spki, width: width, hang: hang) + "\n"
    }

    /// Debug and release as two columns of verdicts and steps, then the risks. The columns are as wide as their
    /// cells, two spaces apart; when they do not fit, each row is stacked as `debug: …` and `release: …`.
    func sideBySide(debug: PinEvaluation, release: PinEvaluation, risks: [Finding]) -> String {
        var names: [String] = []
        for step in debug.steps + release.steps where !names.contains(step.name) { names.append(step.name) }
        func cell(_ ev: PinEvaluation, _ name: String) -> String {
            ev.steps.first { $0.name == name }?.status.rawValue ?? "—"
        }
        var out = "  debug (as given) next to release (same mode, no relaxations):\n"
        var rows = [
            ["verdict", debug.verdict.rawValue.uppercased(), release.verdict.rawValue.uppercased()],
            ["result", e(debug.result), e(release.result)],
        ]
        rows += names.map { [e($0), cell(debug, $0), cell(release, $0)] }
        for line in TextLayout.keyedTable(header: ["", "debug", "release"], rows: rows, indent: 4, width: width) {
            out += line + "\n"
        }
        let relaxed = debug.options.filter { o in release.options.contains { $0.name == o.name && $0.value != o.value }
        }
        if !relaxed.isEmpty {
            out += "    relaxed: " + relaxed.map { "\(e($0.name)) = \(e($0.value))" }.joined(separator: ", ") + "\n"
        }
        if !risks.isEmpty {
            out += "  risks of shipping the debug configuration:\n"
            for risk in risks { out += "    " + line(risk) + "\n" }
        }
        out += "  release steps:\n"
        for step in release.steps { out += "    \(mark(step.status)) \(e(step.name)): \(e(step.detail))\n" }
        out += "  debug (the options as given):\n"
        return out
    }

    func mark(_ status: PinStep.Status) -> String {
        switch status {
        case .passed: return style.green("✓")
        case .failed: return style.red("✗")
        case .skipped: return style.dim("-")
        case .ignored: return style.yellow("~")
        }
    }

    func line(_ finding: Finding) -> String {
        let severity: String
        switch finding.severity {
        case .error: severity = style.red("error")
        case .warning: severity = style.yellow("warning")
        case .note: severity = style.dim("note")
        }
        var place = ""
        if let file = finding.file { place = e(file) + (finding.line.map { ":\($0)" } ?? "") + ": " }
        return "\(place)\(severity) \(finding.rule.rawValue): \(e(finding.message))"
    }

    /// Renders an extract report: the path and recommendation fitted to ``width``, then (when nothing was written)
    /// each pin file's text as it is, to be copied.
    /// - Parameter report: The report.
    /// - Returns: Text ending with a newline.
    package func render(_ report: PinExtractReport) -> String {
        var out = TextLayout.fit(unfitted(report), width: width)
        if report.written.isEmpty {
            for file in report.material.files where file.text != nil {
                let lines = (file.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map {
                    e(String($0))
                }
                out += "--- \(e(file.name))\n" + lines.joined(separator: "\n")
            }
        }
        return out
    }

    /// The extract report without the pin files' text.
    func unfitted(_ report: PinExtractReport) -> String {
        var out = style.bold("atscheck pins extract — \(e(report.target)) (\(report.material.format.rawValue))") + "\n"
        out += "live path (system and --ca-file anchors, SSL policy for \(e(report.host))): "
        out += report.trusted ? style.green("trusted") : style.red("not trusted") + " (\(e(report.verifyError ?? "")))"
        out += "\n"
        for entry in report.path {
            out += pathRow(entry, indent: "  ", after: entry.sentByServer ? "" : "  (not sent: from the anchors)")
        }
        let r = report.recommendation
        // Both pins' text starts at column 17, where their continuation lines go.
        out +=
            TextLayout.wrap(
                "recommended pin: position \(r.primary.position) (\(r.primary.role)) \(e(r.primary.subject)) — "
                    + "\(e(r.primary.why))", width: width, hang: 17) + "\n"
        if let backup = r.backup {
            out +=
                TextLayout.wrap(
                    "backup pin:      position \(backup.position) (\(backup.role)) \(e(backup.subject)) — "
                        + "\(e(backup.why))", width: width, hang: 17) + "\n"
        }
        out += "why: \(e(r.reason))\n"
        for finding in r.findings { out += "  " + line(finding) + "\n" }
        out += "\(e(report.material.summary))\n"
        for file in report.written { out += "wrote \(e(file))\n" }
        return out
    }
}
