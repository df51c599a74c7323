import TLSModel

extension HTMLReport {
    /// One pin check: what asked for it and how the library decided, as the release build and, with relaxations,
    /// as the debug build.
    struct PinRow {
        var endpoint: String
        /// What was evaluated: `NSPinnedDomains`, `afnetworking certificate (assumed)`, …
        var check: String
        var result: PinCheckResult
        /// Where the pins were loaded from and why, when the check says.
        var note: String?

        /// The release build's decision (the evaluation itself when nothing was relaxed); nil: not checked.
        var release: PinEvaluation? { result.release ?? result.evaluation }
        var releaseVerdict: PinVerdict? { release?.verdict }
        /// The debug build's decision: the configuration as given, when it relaxes the release one.
        var debug: PinEvaluation? { result.release == nil ? nil : result.evaluation }
    }

    /// The pin checks of an audit, a live app run, `pins check` or `cert --pins`.
    var pinRows: [PinRow] {
        var rows: [PinRow] = []
        for check in document.audit?.pins ?? [] {
            let what: String
            switch check.origin {
            case .pinnedDomains:
                what = "NSPinnedDomains" + (check.domains.isEmpty ? "" : " (\(check.domains.joined(separator: ", ")))")
            case .endpointList: what = "\(check.library.rawValue) (endpoint list)"
            }
            rows.append(PinRow(endpoint: check.endpoint, check: what, result: check.result, note: nil))
        }
        for check in document.app?.live?.pins ?? [] {
            let what: String
            switch check.origin {
            case .bundledCertificates:
                what = "\(check.library.rawValue) \(check.mode ?? "")\(check.assumed ? " (assumed mode)" : "")"
            case .pinnedDomains, .trustKit: what = check.origin.rawValue
            case .endpointList: what = "\(check.library.rawValue) (endpoint list)"
            }
            rows.append(PinRow(endpoint: check.endpoint, check: what, result: check.result, note: check.note))
        }
        for result in document.pins?.results ?? [] {
            rows.append(
                PinRow(endpoint: result.target, check: document.pins?.library.rawValue ?? "", result: result, note: nil)
            )
        }
        return rows
    }

    /// The pin checks: release and debug verdicts side by side, why, and the risks of shipping the debug one.
    func pinsSection() -> String {
        let rows = pinRows
        guard !rows.isEmpty else { return "" }
        var out = "<table class=\"pins\">\n<thead><tr><th scope=\"col\">Endpoint</th><th scope=\"col\">Pinning</th>"
        out += "<th scope=\"col\">Release build</th><th scope=\"col\">Debug build (relaxed)</th>"
        out += "<th scope=\"col\">Why</th></tr></thead>\n<tbody>\n"
        for row in rows {
            out += "<tr><th scope=\"row\">\(code(row.endpoint))</th><td>\(e(row.check))</td>"
            guard let release = row.release else {
                let why = row.result.error ?? row.result.status.rawValue
                out += "<td class=\"cell s-none\">\(HTMLMark.notChecked.html)</td><td class=\"dim\">—</td>"
                out += "<td>\(e(why))</td></tr>\n"
                continue
            }
            out += verdictCell(release)
            if let debug = row.debug {
                out += verdictCell(debug)
            } else {
                out += "<td class=\"dim\">nothing relaxed</td>"
            }
            out += "<td>\(e(reason(release)))"
            if let debug = row.debug {
                let relaxed = debug.options.filter { option in
                    release.options.contains { $0.name == option.name && $0.value != option.value }
                }
                if !relaxed.isEmpty {
                    let options = relaxed.map { code("\($0.name) = \($0.value)") }.joined(separator: ", ")
                    out += "<span class=\"sub\">Debug relaxes \(options)</span>"
                }
            }
            if let note = row.note { out += "<span class=\"sub\">\(e(note))</span>" }
            if !row.result.risks.isEmpty {
                out += "<ul class=\"risks\">"
                for risk in row.result.risks {
                    out += "<li>\(HTMLMark(risk.severity).chip) \(ruleLink(risk.rule)) \(e(risk.message))</li>"
                }
                out += "</ul>"
            }
            out += "</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        let lead =
            "<p class=\"lead\">Each pinning configuration against the chain the server serves now, as the library "
            + "decides. The release build is the configuration without debug relaxations.</p>\n"
        return section("pins", "Pins: release and debug builds", lead + out)
    }

    func verdictCell(_ evaluation: PinEvaluation) -> String {
        let mark = HTMLMark(evaluation.verdict)
        return "<td class=\"cell \(mark.cssClass)\">\(mark.html)<span class=\"sub\">\(e(evaluation.result))</span></td>"
    }

    /// Why a library decided as it did: the pin that matched, or why none did.
    func reason(_ evaluation: PinEvaluation) -> String {
        if evaluation.verdict == .accept {
            return evaluation.matches.first.map { "pin matches the \($0.role) \($0.subject)" } ?? evaluation.result
        }
        return evaluation.noMatchReason ?? evaluation.steps.first { $0.status == .failed }?.detail ?? evaluation.result
    }
}
