import TLSModel

extension HTMLReport {
    /// One entry per endpoint that fails, is ambiguous or could not be scanned: each rule that fails, why, and the
    /// fix (the Info.plist key that would relax it, or none), then the reasons per era and the verdict's notes.
    func failuresSection(_ matrix: Matrix) -> String {
        let failing = matrix.rows.filter(\.needsEntry)
        guard !failing.isEmpty else { return "" }
        var out = ""
        for row in failing {
            out += "<article id=\"\(row.anchor)\" class=\"entry\">\n"
            out += "<h3>\(code(row.endpoint)) \(row.worst.chip)</h3>\n"
            if let summary = row.summary { out += "<p class=\"sub\">\(e(summary))</p>\n" }
            if let result = row.result { out += failureDetails(result) }
            out += eraReasons(row, columns: matrix.columns)
            if let source = row.result?.source {
                out += "<p class=\"sub\">Listed at \(code(place(source.file, source.line)))</p>\n"
            }
            out += "</article>\n"
        }
        return section("failures", "What fails and how to fix it", out)
    }

    /// The violations of one endpoint as a rule / reason / fix table, or why it could not be scanned.
    func failureDetails(_ result: EndpointResult) -> String {
        let profile = result.profile
        if profile.status != .completed {
            let rule = RuleID.Scan.id(for: profile.status).map(ruleLink) ?? ""
            return "<p>\(rule) \(e(profile.status.rawValue)): \(e(profile.error ?? "no reason given")). Nothing "
                + "was judged: check that the server is up and reachable from here, then run again.</p>\n"
        }
        let ats = result.ats
        var violations = ats.violations.map { ($0, nil as String?) }
        for reading in ats.readings {
            violations += reading.violations.map { ($0, "reading '\(reading.name)': \(reading.verdict.rawValue)") }
        }
        var out = ""
        if !violations.isEmpty {
            out += "<table class=\"issues\">\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">Why it fails"
            out += "</th><th scope=\"col\">Fix</th></tr></thead>\n<tbody>\n"
            for (violation, reading) in violations {
                let why = e(violation.message) + (reading.map { " <span class=\"sub\">(\(e($0)))</span>" } ?? "")
                let fix =
                    violation.keyPath.map { "Fix the server, or relax with the exception key \(code($0)) (below)." }
                    ?? "Fix the server: no Info.plist key relaxes this."
                out += "<tr><td>\(ruleLink(violation.rule))</td><td>\(why)</td><td>\(fix) "
                out += "<a href=\"#\(Self.anchor(violation.rule))\">How to fix</a></td></tr>\n"
            }
            out += "</tbody>\n</table>\n"
        }
        if ats.verdict == .ambiguous {
            let readings = ats.readings.map { "\(e($0.name)): \(HTMLMark($0.verdict).word)" }
            out += "<p>Readings of the conflicting rule: \(readings.joined(separator: "; ")).</p>\n"
        }
        if !ats.notes.isEmpty {
            out += "<ul class=\"notes\">\n" + ats.notes.map { "<li>\(e($0))</li>\n" }.joined() + "</ul>\n"
        }
        return out
    }

    /// For an app row: each reason and the eras it holds on, when the eras give different reasons (or no table of
    /// violations says it).
    func eraReasons(_ row: Matrix.Row, columns: [Matrix.Column]) -> String {
        guard document.app?.live != nil else { return "" }
        var groups: [(reason: String, eras: [String])] = []
        for (column, cell) in zip(columns, row.cells) where cell.mark.isFailure {
            let reason = cell.detail ?? cell.mark.word.lowercased()
            if let index = groups.firstIndex(where: { $0.reason == reason }) {
                groups[index].eras.append(column.label)
            } else {
                groups.append((reason, [column.label]))
            }
        }
        // One reason over every failing era says no more than the row's summary and the table above.
        guard groups.count > 1 || (row.result == nil && !groups.isEmpty) else { return "" }
        var out = "<p>Per OS era:</p>\n<ul class=\"eras\">\n"
        for group in groups {
            out += "<li><b>\(e(group.eras.joined(separator: ", ")))</b>: \(e(group.reason))</li>\n"
        }
        return out + "</ul>\n"
    }

    /// Every finding (plist, audit, endpoint list, pins, certificates), errors first.
    func findingsSection() -> String {
        let findings = allFindings.enumerated().sorted {
            $0.element.severity != $1.element.severity
                ? $0.element.severity > $1.element.severity : $0.offset < $1.offset
        }.map(\.element)
        guard !findings.isEmpty else { return "" }
        var out = "<table class=\"findings\">\n<thead><tr><th scope=\"col\">Severity</th><th scope=\"col\">Rule</th>"
        out += "<th scope=\"col\">Where</th><th scope=\"col\">Finding</th></tr></thead>\n<tbody>\n"
        for finding in findings {
            var place = finding.file.map { code(self.place($0, finding.line)) } ?? ""
            if let keyPath = finding.keyPath { place += (place.isEmpty ? "" : "<br>") + code(keyPath) }
            out += "<tr><td>\(HTMLMark(finding.severity).chip)</td><td>\(ruleLink(finding.rule))</td>"
            out += "<td class=\"where\">\(place)</td><td>\(e(finding.message))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        return section("findings", "Findings", out)
    }

    /// Each rule the page names, once: its title, its help (what it means, what Apple does, how to fix it), the
    /// Info.plist key it concerns and a link to its documentation.
    func rulesSection(_ matrix: Matrix) -> String {
        var rules: [RuleID] = []
        var anchors = Set<String>()
        let named =
            matrix.rows.flatMap(\.rules) + allFindings.map(\.rule) + exceptionDebt.map(\.debt.rule)
            + pinRows.flatMap { $0.result.risks.map(\.rule) }
        for rule in named where anchors.insert(Self.anchor(rule)).inserted {
            rules.append(rule)
        }
        guard !rules.isEmpty else { return "" }
        var out = "<dl class=\"catalogue\">\n"
        for rule in rules.sorted() {
            out += "<dt id=\"\(Self.anchor(rule))\">\(code(rule.rawValue))"
            guard let descriptor = catalogue.descriptor(for: rule) else {
                out += "</dt>\n<dd>Not in this atscheck's rule catalogue.</dd>\n"
                continue
            }
            out += " \(e(descriptor.title))</dt>\n<dd>\(Self.inlineCode(descriptor.help))"
            if let key = descriptor.appleKey { out += " Info.plist key: \(code(key))." }
            out += " <a href=\"\(e(descriptor.helpURI))\">Documentation</a></dd>\n"
        }
        out += "</dl>\n"
        return section("rules", "Rules in this report and how to fix them", out)
    }

    /// `file:line`, or `file`.
    func place(_ file: String, _ line: Int?) -> String {
        line.map { "\(file):\($0)" } ?? file
    }

    /// Text whose `backquoted` spans become `<code>`, escaped (the rule catalogue's help is written so).
    static func inlineCode(_ text: String) -> String {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
            index % 2 == 1 ? "<code>\(HTMLEscaping.text(String(part)))</code>" : HTMLEscaping.text(String(part))
        }.joined()
    }
}
