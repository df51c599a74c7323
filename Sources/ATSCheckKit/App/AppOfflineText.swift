import AppBundle
import Foundation
import Reporting
import TLSModel

/// The text header of `atscheck app --offline`: what the bundle is, the libraries and pin material it carries
/// and the endpoints harvested from it. Every string from the bundle is escaped (a hostile bundle must not
/// write terminal controls).
public enum AppOfflineText {
    /// The header, ending in a blank line; the findings follow it (``ScanTextRenderer``).
    /// - Parameters:
    ///   - result: The offline result.
    ///   - style: Colour or not.
    /// - Returns: The text.
    public static func header(_ result: AppOfflineResult, style: TextStyle = TextStyle(enabled: false)) -> String {
        func e(_ s: String) -> String { ControlEscaping.escape(s) }
        let info = result.info
        var lines: [String] = []
        lines.append(style.bold("App \(e(info.bundleIdentifier ?? "(no CFBundleIdentifier)")) \(e(info.version ?? "?")) (\(e(info.build ?? "?")))") + " — \(e(result.input)) (\(result.container.rawValue))")
        let minimum = info.minimumOS
        lines.append("  Info.plist: \(e(result.infoPlist))")
        lines.append("  Minimum OS: \(minimum.key) \(e(minimum.written ?? "(missing)")); OS eras judged: \(result.eras.map(\.description).joined(separator: ", "))")
        lines.append("")
        lines.append(style.bold("Pinning libraries") + " (\(result.libraries.count))")
        if result.libraries.isEmpty { lines.append("  none linked (AFNetworking, Alamofire, TrustKit)") }
        for library in result.libraries {
            let how: String
            switch library.linkage {
            case .framework(let path): how = "framework \(e(path))"
            case .staticallyLinked(let marker): how = "static (\(e(marker)) in the executable)"
            }
            lines.append("  \(library.displayName) \(e(library.version ?? "(version unknown)")): \(how)")
        }
        lines.append("")
        lines.append(style.bold("Pin material"))
        if result.certificates.isEmpty { lines.append("  no .cer/.crt/.der files") }
        for pin in result.certificates {
            let what = pin.facts.map { "\(e($0.subject)), SPKI SHA-256 \($0.spkiSHA256), expires \(CalendarDay.string(from: $0.notAfter))" }
                ?? "unreadable (\(pin.encoding.rawValue))"
            let readers = pin.lookups.isEmpty ? "no default lookup" : pin.lookups.map(\.rawValue).joined(separator: ", ")
            lines.append("  \(e(pin.file)): \(what); read by \(readers)")
        }
        if let trustKit = result.trustKit {
            let domains = trustKit.domains.keys.sorted().map(e).joined(separator: ", ")
            lines.append("  TSKConfiguration: \(trustKit.domains.count) domain(s)\(domains.isEmpty ? "" : ": " + domains)")
        }
        if let pinned = result.pinnedDomains {
            let domains = pinned.domains.keys.sorted().map(e).joined(separator: ", ")
            lines.append("  NSPinnedDomains: \(pinned.domains.count) domain(s)\(domains.isEmpty ? "" : ": " + domains)")
        }
        lines.append("")
        lines.append(style.bold("Harvested endpoints") + " (\(result.endpoints.count))")
        if result.endpoints.isEmpty { lines.append("  none found") }
        for endpoint in result.endpoints {
            let shown = endpoint.sources.prefix(EndpointListWriter.maxSourcesShown).map { e($0.description) }
            let more = endpoint.sources.count > shown.count ? " and \(endpoint.sources.count - shown.count) more" : ""
            lines.append("  \(e(endpoint.target))  from \(shown.joined(separator: ", "))\(more)")
        }
        return lines.joined(separator: "\n") + "\n\n"
    }
}
