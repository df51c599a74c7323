import Foundation
import Reporting
import TLSModel

/// The text of `atscheck app` (live) between the bundle header (``AppOfflineText``) and the report: each
/// endpoint's verdict over the build's OS eras, and each pin check. Strings from the bundle are escaped.
public enum AppLiveText {
    /// The live section, ending in a blank line.
    /// - Parameters:
    ///   - result: The live result.
    ///   - style: Colour or not.
    /// - Returns: The text.
    public static func section(_ result: AppLiveResult, style: TextStyle = TextStyle(enabled: false)) -> String {
        func e(_ s: String) -> String { ControlEscaping.escape(s) }
        var lines: [String] = []
        let eras = result.eras.map(AppEras.label).joined(separator: ", ")
        let from = result.endpointSource == "harvested" ? "harvested" : "from \(e(result.endpointSource))"
        lines.append(style.bold("Live verdicts") + " (\(result.endpoints.count) endpoint(s) \(from); OS eras \(eras); one probe each)")
        if result.endpoints.isEmpty { lines.append("  no endpoints to check") }
        let width = min(result.endpoints.map(\.endpoint.count).max() ?? 0, 48)
        for endpoint in result.endpoints {
            let name = e(endpoint.endpoint)
            let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
            let failing = endpoint.eras.contains { $0.verdict == .fail || $0.verdict == .ambiguous }
            let summary = failing ? style.red(endpoint.summary)
                : endpoint.status == .completed || endpoint.endpoint.hasPrefix("http://") ? style.green(endpoint.summary)
                : style.yellow(endpoint.summary)
            lines.append("  \(padded)  \(summary)")
        }
        lines.append("")
        lines.append(style.bold("Pins against the live paths") + " (\(result.pins.count) check(s))")
        if result.pins.isEmpty { lines.append("  none: no NSPinnedDomains, TSKConfiguration or bundled pins apply to these endpoints") }
        var notes: [String] = []
        for check in result.pins {
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
                let why = evaluation.verdict == .accept ? (matched ?? evaluation.result) : (evaluation.noMatchReason ?? evaluation.result)
                verdict = "\(word) (\(e(why)))"
            } else {
                verdict = style.yellow("not checked") + " (\(e(check.result.error ?? check.result.status.rawValue)))"
            }
            lines.append("  \(e(check.endpoint))  \(what): \(verdict)")
            if let note = check.note, check.origin == .bundledCertificates, !notes.contains(note) { notes.append(note) }
        }
        lines += notes.map { "  note: \(e($0))" }
        return lines.joined(separator: "\n") + "\n\n"
    }
}
