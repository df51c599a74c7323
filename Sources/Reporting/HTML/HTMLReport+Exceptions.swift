import TLSModel

extension HTMLReport {
    /// The exception debt of an audit or a live app run (an app's with the eras it holds on).
    var exceptionDebt: [AppExceptionDebt] {
        if let live = document.app?.live { return live.exceptionDebt }
        return document.audit?.exceptionDebt.map { AppExceptionDebt(debt: $0, eras: []) } ?? []
    }

    /// Each exception to add, narrow or remove, with the smallest entry ready to paste; for `diagnose`, its
    /// minimal exception.
    func exceptionsSection() -> String {
        var out = ""
        for item in exceptionDebt {
            let debt = item.debt
            let mark = debt.kind == .unneeded || debt.kind == .noEndpoint ? HTMLMark.warning : HTMLMark.error
            let kind =
                "<span class=\"chip \(mark.cssClass)\"><span class=\"sym\" aria-hidden=\"true\">"
                + "\(mark.symbol)</span> \(e(Self.kindLabel(debt.kind)))</span>"
            out += "<article class=\"entry\">\n<h3>\(kind) \(code(debt.domain))</h3>\n"
            out += "<p>\(e(debt.message))</p>\n"
            var about: [String] = []
            if !debt.endpoints.isEmpty {
                about.append("Endpoints: " + debt.endpoints.map(code).joined(separator: ", "))
            }
            if !item.eras.isEmpty {
                about.append("OS eras: " + item.eras.map { e("iOS " + $0) }.joined(separator: ", "))
            }
            if let keyPath = debt.keyPath { about.append("Key: " + code(keyPath)) }
            about.append("Rule: " + ruleLink(debt.rule))
            out += "<p class=\"sub\">\(about.joined(separator: " · "))</p>\n"
            out += instruction(for: debt)
            if let plist = debt.plist { out += pasteBlock(plist) }
            out += "</article>\n"
        }
        if let minimal = document.diagnosis?.report.minimalException {
            out += minimalException(minimal, os: document.diagnosis?.report.osVersion ?? "")
        }
        guard !out.isEmpty else { return "" }
        return section("exceptions", "Minimal Info.plist exceptions", out)
    }

    /// What to do with a piece of debt.
    func instruction(for debt: ExceptionDebt) -> String {
        let text: String
        if debt.plist != nil {
            if debt.current == nil {
                text = "Add this entry under NSAppTransportSecurity → NSExceptionDomains:"
            } else if debt.kind == .broader {
                text = "Replace the entry under NSAppTransportSecurity → NSExceptionDomains with this narrower one:"
            } else {
                text = "Replace the entry under NSAppTransportSecurity → NSExceptionDomains with this one:"
            }
        } else {
            switch debt.kind {
            case .unneeded, .noEndpoint, .broader: text = "Remove the entry (or the key) from the Info.plist."
            case .impossible: text = "No Info.plist exception makes it pass: the server has to change."
            case .missing, .http: text = "An exception is needed; atscheck could not write one for it."
            }
        }
        return "<p>\(e(text))</p>\n"
    }

    /// A plist fragment in `<pre>`, escaped, with nothing added: it can be copied as it is.
    func pasteBlock(_ plist: String) -> String {
        "<pre class=\"paste\"><code>\(HTMLEscaping.preformatted(plist))</code></pre>\n"
    }

    func minimalException(_ minimal: MinimalException, os: String) -> String {
        var out = "<article class=\"entry\">\n<h3>Minimal exception for \(code(minimal.domain)) "
        out += "<span class=\"sub\">(iOS \(e(os)) rules)</span></h3>\n"
        switch minimal.status {
        case .noneNeeded: out += "<p>\(HTMLMark.pass.chip) None needed: the default policy loads it.</p>\n"
        case .exception:
            out += "<p>Add this entry under NSAppTransportSecurity → NSExceptionDomains:</p>\n"
            if let plist = minimal.plist { out += pasteBlock(plist) }
        case .impossible: out += "<p>\(HTMLMark.fail.chip) No exception can make it pass.</p>\n"
        case .unknown: out += "<p>\(HTMLMark.unknown.chip) Could not be predicted.</p>\n"
        }
        out += "<p class=\"sub\">\(e(minimal.reason))</p>\n"
        return out + "</article>\n"
    }

    static func kindLabel(_ kind: ExceptionDebt.Kind) -> String {
        switch kind {
        case .missing: return "MISSING"
        case .unneeded: return "UNNEEDED"
        case .broader: return "BROADER THAN NEEDED"
        case .noEndpoint: return "NO ENDPOINT"
        case .http: return "HTTP"
        case .impossible: return "NO EXCEPTION HELPS"
        }
    }

    /// The nscurl matrix of `diagnose`: each test's ATS dictionary, predicted result and reason.
    func diagnosisSection(_ diagnosis: DiagnosisSection) -> String {
        let report = diagnosis.report
        var out = "<p class=\"lead\">What <code>nscurl --ats-diagnostics</code> would print for \(code(report.url))"
        out += ", predicted from one scan with iOS \(e(report.osVersion)) rules.</p>\n"
        if diagnosis.profile.status != .completed {
            out += "<p>\(HTMLMark.notScanned.chip) \(e(diagnosis.profile.error ?? diagnosis.profile.status.rawValue))"
            out += "</p>\n"
        }
        out += "<table class=\"diagnostics\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">Test</th>"
        out += "<th scope=\"col\">Result</th><th scope=\"col\">Reason</th></tr></thead>\n"
        var current: String?
        for test in report.tests {
            if test.section != current {
                if current != nil { out += "</tbody>\n" }
                out += "<tbody>\n<tr><th scope=\"colgroup\" colspan=\"4\">\(e(test.section))</th></tr>\n"
                current = test.section
            }
            let mark: HTMLMark
            switch test.result {
            case .pass: mark = .pass
            case .fail: mark = .fail
            case .ambiguous: mark = .ambiguous
            case .unknown: mark = .unknown
            }
            out += "<tr><td>\(test.number)</td><td>\(e(test.title))</td>"
            out += "<td class=\"cell \(mark.cssClass)\">\(mark.html)</td><td>\(e(test.reason ?? ""))</td></tr>\n"
        }
        if current != nil { out += "</tbody>\n" }
        out += "</table>\n"
        if !report.notes.isEmpty {
            out += "<ul class=\"notes\">\n" + report.notes.map { "<li>\(e($0))</li>\n" }.joined() + "</ul>\n"
        }
        return section("diagnostics", "nscurl diagnostics", out)
    }
}
