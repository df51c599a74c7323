import Foundation
import TLSModel

/// The release report a person opens in a browser (`--format html`, `--report html=PATH`): one self-contained HTML5
/// page, inline CSS only and no script, with what was checked, the endpoints × OS-era matrix, each failure's rule,
/// reason and fix, the minimal exceptions to paste, and the pin checks of the release and debug builds.
///
/// Every colour in the page has a symbol and a word beside it (a colour-blind reader, or a black-and-white print,
/// loses nothing), and every string from input or a server is escaped (``HTMLEscaping``).
struct HTMLReport {
    /// What the page shows: the parts of the command's document, each present where the document has it.
    struct Content {
        var scan: ScanReport?
        var audit: AuditSection?
        var app: AppSection?
        var diagnosis: DiagnosisSection?
        var pins: PinCheckReport?
        var sources: ReportSources
    }

    /// The command the page comes from: it names the page and what was checked.
    enum Kind {
        case app, audit, diagnose, pinsCheck, cert, plist, scan

        /// A scan report's command: `plist` without endpoints, `cert` when every endpoint is a chain alone.
        init(scan: ScanReport) {
            if scan.endpoints.isEmpty {
                self = .plist
            } else if scan.endpoints.allSatisfy(\.profile.judgesCertificateOnly) {
                self = .cert
            } else {
                self = .scan
            }
        }
    }

    /// The command the page comes from.
    var kind: Kind
    /// What the page shows.
    var document: Content
    /// The time the report is stamped with (injected for golden tests).
    var now: Date
    /// The rule catalogue the rules' help comes from.
    var catalogue: RuleCatalogue

    /// The whole page, ending in a newline.
    func render() -> String {
        let matrix = Matrix(document)
        var body = header(matrix)
        body += "<main>\n"
        // The picture first (the matrix and what fails), then what to paste, the pins, the findings; the bundle's
        // facts and the rules' help last, for reference.
        body += matrixSection(matrix)
        body += failuresSection(matrix)
        if let diagnosis = document.diagnosis { body += diagnosisSection(diagnosis) }
        body += exceptionsSection()
        body += pinsSection()
        body += findingsSection()
        if let facts = document.app?.facts { body += appSection(facts) }
        body += rulesSection(matrix)
        body += "</main>\n"
        body += footer()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e("atscheck: " + title))</title>
            <style>
            \(HTMLStyle.css)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    // MARK: - Header

    /// What the page is about: the app, the plist and endpoint list, the URL, the pin material.
    var title: String {
        let sources = document.sources
        switch kind {
        case .app:
            guard let facts = document.app?.facts else { return "app" }
            let identity = [facts.bundleIdentifier ?? facts.input, facts.version].compactMap { $0 }
            return "app " + identity.joined(separator: " ") + (facts.build.map { " (\($0))" } ?? "")
        case .audit:
            return "audit of " + (sources.plistFile ?? "the default ATS policy") + " against "
                + (sources.endpointsFile ?? "the endpoints")
        case .diagnose: return "diagnose " + (document.diagnosis?.report.url ?? "")
        case .pinsCheck: return "pins check (\(document.pins?.library.rawValue ?? ""))"
        case .cert: return "certificate check of " + endpointNames()
        case .plist: return "plist " + (sources.plistFile ?? "")
        case .scan: return "scan of " + endpointNames()
        }
    }

    private func endpointNames() -> String {
        let endpoints = document.scan?.endpoints ?? []
        if let file = document.sources.endpointsFile { return "\(endpoints.count) endpoint(s) from \(file)" }
        if endpoints.count == 1 { return endpoints[0].profile.target }
        return "\(endpoints.count) endpoints"
    }

    var tool: ToolInfo { document.scan?.tool ?? document.pins?.tool ?? ToolInfo() }

    func header(_ matrix: Matrix) -> String {
        var out = "<header>\n"
        out += "<p class=\"kicker\">atscheck \(e(tool.version)) · App Transport Security report</p>\n"
        out += "<h1>\(e(title))</h1>\n"
        out += verdictBanner()
        out += "<dl class=\"facts\">\n"
        for (term, value) in facts(matrix) {
            out += "<div><dt>\(e(term))</dt><dd>\(value)</dd></div>\n"
        }
        out += "</dl>\n"
        out += counts()
        return out + "</header>\n"
    }

    /// The header's facts, as (term, HTML) pairs.
    func facts(_ matrix: Matrix) -> [(String, String)] {
        var rows: [(String, String)] = []
        let sources = document.sources
        if let facts = document.app?.facts {
            rows.append(("Bundle", code(facts.input) + " (\(e(facts.container)))"))
            rows.append(("Info.plist", code(facts.infoPlist)))
            let minimum = facts.minimumOS
            rows.append(("Minimum OS", "\(e(minimum.platform)) \(e(minimum.value ?? "(missing)")) (\(e(minimum.key)))"))
            if let live = document.app?.live {
                let from =
                    live.endpointSource == "harvested"
                    ? "harvested from the bundle" : "from " + code(live.endpointSource)
                rows.append(("Endpoints", "\(live.endpoints.count), \(from); one probe each, judged per OS era"))
            } else {
                rows.append(("Endpoints", "offline: none checked live"))
            }
        } else {
            if let plist = sources.plistFile { rows.append(("Info.plist", code(plist))) }
            if kind == .audit && sources.plistFile == nil {
                rows.append(("Policy", e(AuditSection.defaultPolicyNote)))
            }
            if let list = sources.endpointsFile { rows.append(("Endpoint list", code(list))) }
        }
        if let diagnosis = document.diagnosis {
            rows.append(("URL", code(diagnosis.report.url)))
        }
        if let pins = document.pins {
            let files = pins.pinFiles.isEmpty ? "none" : pins.pinFiles.map(code).joined(separator: ", ")
            rows.append(("Pinning", "\(e(pins.library.rawValue)); pin material \(files)"))
        }
        if !matrix.columns.isEmpty {
            rows.append(("Judged as", matrix.columns.map { e($0.label) }.joined(separator: ", ")))
        }
        if let shard = document.scan?.shard {
            rows.append(("Shard", "\(shard.index)/\(shard.count): \(shard.selected) of \(shard.total) endpoints"))
        }
        rows.append(("Generated", e(Self.timestamp(now))))
        rows.append(("Tool", "\(e(tool.name)) \(e(tool.version))"))
        return rows
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date).replacingOccurrences(of: "T", with: " ").replacingOccurrences(
            of: "Z", with: " UTC")
    }

    /// One line: fail when anything fails, incomplete when something could not be judged, else pass.
    func verdictBanner() -> String {
        let summary = document.scan?.summary ?? ReportSummary()
        let errors = allFindings.filter { $0.severity == .error }.count
        let pins = pinRows
        let rejected = pins.filter { $0.releaseVerdict == .reject }.count
        let unchecked = pins.filter { $0.releaseVerdict == nil }.count
        var failures: [String] = []
        if summary.failed > 0 { failures.append(plural(summary.failed, "endpoint fails", "endpoints fail") + " ATS") }
        if rejected > 0 { failures.append(plural(rejected, "pin check rejects", "pin checks reject")) }
        if errors > 0 { failures.append(plural(errors, "error finding", "error findings")) }
        let state: HTMLMark
        let text: String
        if !failures.isEmpty {
            state = .fail
            text = "Not ready: " + failures.joined(separator: ", ")
        } else if summary.unreachable + summary.unknown + summary.ambiguous + unchecked > 0 {
            state = .unknown
            text =
                "Incomplete: "
                + plural(summary.unreachable + summary.unknown + summary.ambiguous + unchecked, "check", "checks")
                + " could not be judged (an ambiguous verdict depends on a conflicting Apple rule); nothing judged fails"
        } else {
            state = .pass
            text = "Everything checked passes"
        }
        var banner =
            "<p class=\"verdict \(state.cssClass)\"><span class=\"sym\" aria-hidden=\"true\">\(state.symbol)</span> "
            + "\(e(text))</p>\n"
        if let partial = document.scan?.partial {
            // An interrupted scan: said above everything else, so nothing below reads as the whole batch.
            let mark = HTMLMark.notScanned
            banner =
                "<p class=\"verdict \(mark.cssClass)\"><span class=\"sym\" aria-hidden=\"true\">\(mark.symbol)</span> "
                + "\(e("Partial report: " + partial.summary + "; what completed is below"))</p>\n" + banner
        }
        return banner
    }

    /// The counts: endpoints by verdict, findings by severity, exceptions and pin checks.
    func counts() -> String {
        var items: [(HTMLMark?, Int, String)] = []
        if let scan = document.scan, !scan.endpoints.isEmpty {
            let s = scan.summary
            items.append((nil, scan.endpoints.count, scan.endpoints.count == 1 ? "endpoint" : "endpoints"))
            items += [(.pass, s.passed, "pass"), (.fail, s.failed, "fail")]
            if s.ambiguous > 0 { items.append((.ambiguous, s.ambiguous, "ambiguous")) }
            items.append((.notScanned, s.unreachable, "not scanned"))
            if s.unknown > 0 { items.append((.unknown, s.unknown, "unknown")) }
            if let judged = s.quantumJudged, let secure = s.quantumSecure {
                // The readiness count of every summary (``SimulationWording/summaryCount(_:)``), as a count here.
                let unknown = s.quantumUnknown ?? 0
                items.append(
                    (nil, secure, "of \(judged) quantum-secure (iOS 26)" + (unknown > 0 ? ", \(unknown) unknown" : "")))
            }
        }
        let findings = allFindings
        for severity in Finding.Severity.allCases.reversed() {
            let n = findings.filter { $0.severity == severity }.count
            items.append((HTMLMark(severity), n, severity.rawValue + (n == 1 ? "" : "s")))
        }
        let debt = exceptionDebt
        if !debt.isEmpty { items.append((nil, debt.count, debt.count == 1 ? "exception to fix" : "exceptions to fix")) }
        let pins = pinRows
        if !pins.isEmpty {
            let accepted = pins.filter { $0.releaseVerdict == .accept }.count
            let rejected = pins.filter { $0.releaseVerdict == .reject }.count
            items.append((.accept, accepted, accepted == 1 ? "pin check accepts" : "pin checks accept"))
            items.append((.reject, rejected, rejected == 1 ? "pin check rejects" : "pin checks reject"))
        }
        var out = "<ul class=\"counts\">\n"
        for (state, n, label) in items {
            let mark = state.map { "<span class=\"sym\" aria-hidden=\"true\">\($0.symbol)</span> " } ?? ""
            let css = state.map { n > 0 ? " class=\"\($0.cssClass)\"" : " class=\"zero\"" } ?? ""
            out += "<li\(css)>\(mark)<b>\(n)</b> \(e(label))</li>\n"
        }
        return out + "</ul>\n"
    }

    func footer() -> String {
        """
        <footer>
        <p>Written by \(e(tool.name)) \(e(tool.version)) on \(e(Self.timestamp(now))). Verdicts are predicted from \
        TLS handshakes made on this machine and Apple's published rules; rule ids link to \
        <a href="\(e(RuleCatalogue.documentationURL))">docs/rules.md</a>.</p>
        </footer>

        """
    }

    // MARK: - Helpers

    /// Input-derived text, escaped.
    func e(_ text: String) -> String { HTMLEscaping.text(text) }

    /// Input-derived text as `<code>`.
    func code(_ text: String) -> String { "<code>\(e(text))</code>" }

    func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// A section with a heading and an id, its content already HTML.
    func section(_ id: String, _ heading: String, _ content: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(e(heading))</h2>\n\(content)</section>\n"
    }

    /// Every finding the page lists: the scan's, else the pin check's (its material, evaluation and risk findings).
    var allFindings: [Finding] {
        if let scan = document.scan { return scan.findings }
        if let pins = document.pins { return PinsFormats.findingsReport(pins).findings }
        return []
    }
}
