import Foundation
import TLSModel

/// The text of `atscheck app` before its findings (``ScanTextRenderer``): the bundle header (what the bundle
/// is, the libraries and pin material it carries, the endpoints harvested from it) and, live, each endpoint's
/// verdict over the build's OS eras and each pin check. Every string from the bundle is escaped (a hostile
/// bundle must not write terminal controls); lines are fitted to a width (``TextLayout``).
package enum AppText {
    /// How many places an endpoint's line names before "and N more" (as the `--emit-endpoints` list does).
    package static let sourcesShown = 3

    /// The header, ending in a blank line; the live section or the findings follow it.
    /// - Parameters:
    ///   - facts: The bundle's facts.
    ///   - style: Colour or not.
    ///   - width: The display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: The text.
    package static func header(
        _ facts: AppSection.Facts, style: TextStyle = .plain, width: Int = TextLayout.defaultWidth
    ) -> String {
        func e(_ s: String) -> String { ControlEscaping.escape(s) }
        var lines: [String] = []
        let identity =
            "App \(e(facts.bundleIdentifier ?? "(no CFBundleIdentifier)")) \(e(facts.version ?? "?"))"
            + " (\(e(facts.build ?? "?")))"
        lines.append(style.bold(identity) + " — \(e(facts.input)) (\(facts.container))")
        let minimum = facts.minimumOS
        lines.append("  Info.plist: \(e(facts.infoPlist))")
        lines.append(
            "  Minimum OS: \(minimum.key) \(e(minimum.value ?? "(missing)")); OS eras judged: "
                + facts.eras.joined(separator: ", "))
        lines.append("")
        lines.append(style.bold("Pinning libraries") + " (\(facts.libraries.count))")
        if facts.libraries.isEmpty { lines.append("  none linked (AFNetworking, Alamofire, TrustKit)") }
        for library in facts.libraries {
            let how =
                library.linkage == "framework"
                ? "framework \(e(library.path ?? ""))" : "static (\(e(library.marker ?? "")) in the executable)"
            lines.append("  \(library.name) \(e(library.version ?? "(version unknown)")): \(how)")
        }
        lines.append("")
        lines.append(style.bold("Pin material"))
        if facts.certificates.isEmpty { lines.append("  no .cer/.crt/.der files") }
        for pin in facts.certificates {
            let what: String
            if let subject = pin.subject, let spki = pin.spkiSHA256, let notAfter = pin.notAfter {
                what = "\(e(subject)), SPKI SHA-256 \(spki), expires \(CalendarDay.string(from: notAfter))"
            } else {
                what = "unreadable (\(pin.encoding))"
            }
            let readers = pin.loadedBy.isEmpty ? "no default lookup" : pin.loadedBy.joined(separator: ", ")
            lines.append("  \(e(pin.file)): \(what); read by \(readers)")
        }
        if let trustKit = facts.trustKit {
            let domains = trustKit.domains.keys.sorted().map(e).joined(separator: ", ")
            let listed = domains.isEmpty ? "" : ": " + domains
            lines.append("  TSKConfiguration: \(trustKit.domains.count) domain(s)\(listed)")
        }
        if let pinned = facts.pinnedDomains {
            let domains = pinned.domains.keys.sorted().map(e).joined(separator: ", ")
            lines.append("  NSPinnedDomains: \(pinned.domains.count) domain(s)\(domains.isEmpty ? "" : ": " + domains)")
        }
        lines.append("")
        lines.append(style.bold("Harvested endpoints") + " (\(facts.harvestedEndpoints.count))")
        if facts.harvestedEndpoints.isEmpty { lines.append("  none found") }
        for endpoint in facts.harvestedEndpoints {
            let shown = endpoint.sources.prefix(sourcesShown).map(e)
            let others = endpoint.sources.count - shown.count + (endpoint.sourcesNotShown ?? 0)
            let more = others > 0 ? " and \(others) more" : ""
            lines.append("  \(e(endpoint.target))  from \(shown.joined(separator: ", "))\(more)")
        }
        if let notShown = facts.harvestedEndpointsNotShown, notShown > 0 {
            lines.append(
                Self.notShownLine(notShown, isLowerBound: facts.harvestedEndpointsNotShownIsLowerBound == true))
        }
        return TextLayout.fit(lines.joined(separator: "\n"), width: width) + "\n\n"
    }

    /// `  … and 1990000 more endpoint(s) not shown (the harvest keeps the first ones found)`.
    /// - Parameters:
    ///   - notShown: Distinct endpoints left out.
    ///   - isLowerBound: Whether there may be more than `notShown` (`at least`).
    /// - Returns: The line, indented as the endpoints are.
    package static func notShownLine(_ notShown: Int, isLowerBound: Bool) -> String {
        "  … and \(isLowerBound ? "at least " : "")\(notShown) more endpoint(s) not shown (the harvest keeps the first "
            + "ones found)"
    }

    /// The live section, ending in a blank line: each endpoint's verdicts over the eras, then each pin check.
    /// - Parameters:
    ///   - live: The live checks.
    ///   - style: Colour or not.
    ///   - width: The display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: The text.
    package static func live(
        _ live: AppSection.Live, style: TextStyle = .plain, width: Int = TextLayout.defaultWidth
    ) -> String {
        func e(_ s: String) -> String { ControlEscaping.escape(s) }
        var lines: [String] = []
        let eras = live.eras.joined(separator: ", ")
        let from = live.endpointSource == "harvested" ? "harvested" : "from \(e(live.endpointSource))"
        lines.append(
            style.bold("Live verdicts")
                + " (\(live.endpoints.count) endpoint(s) \(from); OS eras \(eras); one probe each)")
        if live.endpoints.isEmpty { lines.append("  no endpoints to check") }
        var rows: [[String]] = []
        for endpoint in live.endpoints {
            let failing = endpoint.eras.contains { $0.verdict == .fail || $0.verdict == .ambiguous }
            let judged = endpoint.status == .completed || endpoint.endpoint.hasPrefix("http://")
            let summary =
                failing
                ? style.red(endpoint.summary)
                : judged ? style.green(endpoint.summary) : style.yellow(endpoint.summary)
            rows.append([e(endpoint.endpoint), summary])
        }
        // Endpoint and verdicts as two columns, the name column no wider than 48 (a longer name pushes its row).
        let columns = TextLayout.columnWidths(rows).map { min($0, 48) }
        lines += TextLayout.table(rows, indent: 2, width: width, columns: columns)
        lines.append("")
        lines.append(style.bold("Pins against the live paths") + " (\(live.pins.count) check(s))")
        if live.pins.isEmpty {
            lines.append("  none: no NSPinnedDomains, TSKConfiguration or bundled pins apply to these endpoints")
        }
        var notes: [String] = []
        for check in live.pins {
            let what: String
            switch check.origin {
            case .bundledCertificates:
                what = "\(check.library.rawValue) \(check.mode ?? "")\(check.assumed ? " (assumed)" : "")"
            case .pinnedDomains, .trustKit: what = check.origin.rawValue
            case .endpointList: what = "\(check.library.rawValue) (endpoint list)"
            }
            let verdict: String
            if let evaluation = check.result.evaluation {
                let word = evaluation.verdict == .accept ? style.green("accept") : style.red("reject")
                let matched = evaluation.matches.first.map { "pin matches \($0.role) \($0.subject)" }
                let why =
                    evaluation.verdict == .accept
                    ? (matched ?? evaluation.result) : (evaluation.noMatchReason ?? evaluation.result)
                verdict = "\(word) (\(e(why)))"
            } else {
                verdict = style.yellow("not checked") + " (\(e(check.result.error ?? check.result.status.rawValue)))"
            }
            lines.append("  \(e(check.endpoint))  \(what): \(verdict)")
            if let note = check.note, check.origin == .bundledCertificates, !notes.contains(note) { notes.append(note) }
        }
        lines += notes.map { "  note: \(e($0))" }
        return TextLayout.fit(lines.joined(separator: "\n"), width: width) + "\n\n"
    }
}
