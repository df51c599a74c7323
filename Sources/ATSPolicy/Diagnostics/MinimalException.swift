import Foundation
import TLSModel

extension ATSDiagnostics {
    /// The candidate entries, least permissive first: lower the minimum TLS version only as far as needed,
    /// then turn off forward secrecy, then both; `NSExceptionAllowsInsecureHTTPLoads` (ATS off for the host)
    /// only if nothing else works.
    static func candidates() -> [[String: PlistValue]] {
        let minimum = ATSKey.exceptionMinimumTLSVersion.name
        let pfs = ATSKey.exceptionRequiresForwardSecrecy.name
        let insecure = ATSKey.exceptionAllowsInsecureHTTPLoads.name
        let lower: [PlistValue] = [.string("TLSv1.1"), .string("TLSv1.0")]
        var list: [[String: PlistValue]] = lower.map { [minimum: $0] }
        list.append([pfs: .bool(false)])
        list += lower.map { [minimum: $0, pfs: .bool(false)] }
        list.append([insecure: .bool(true)])
        list += lower.map { [insecure: .bool(true), minimum: $0] }
        list.append([insecure: .bool(true), pfs: .bool(false)])
        list += lower.map { [insecure: .bool(true), minimum: $0, pfs: .bool(false)] }
        return list
    }

    /// The least-permissive `NSExceptionDomains` entry for the URL's host that makes the default load pass.
    /// - Parameters:
    ///   - profile: the scan of the URL's endpoint.
    ///   - target: the URL (its host names the entry).
    ///   - client: the OS whose rules apply and the client class.
    /// - Returns: none needed, the entry (as data and as a plist fragment), impossible, or unknown.
    package static func minimalException(
        profile: ServerProfile, target: Target, for client: ATSClient = .newest
    ) -> MinimalException {
        minimalException(profile: profile, target: target, evaluator: ATSPolicyEvaluator(for: client))
    }

    static func minimalException(
        profile: ServerProfile, target: Target, evaluator: ATSPolicyEvaluator,
        baseline known: (evaluation: ATSEvaluation, unknowns: [String])? = nil
    ) -> MinimalException {
        let host = target.host
        let (baseline, unknowns) =
            known
            ?? evaluator.detailedEvaluation(
                profile, host: host, configuration: .default, scheme: target.scheme)
        switch baseline.verdict {
        case .pass:
            return MinimalException(
                status: .noneNeeded, domain: host, reason: "the default ATS configuration already passes")
        case .unknown:
            return MinimalException(
                status: .unknown, domain: host,
                reason: "could not be predicted: "
                    + (unknowns.isEmpty ? "the scan was incomplete" : unknowns.joined(separator: "; ")))
        case .fail, .ambiguous:
            break
        }
        // Each candidate is evaluated once, least permissive first.
        let evaluated = candidates().map { entry -> (entry: [String: PlistValue], result: ATSEvaluation) in
            let configuration = ATSConfiguration(dictionary: [
                ATSKey.exceptionDomains.name: [host: PlistValue.dict(entry).foundationValue]
            ])
            return (entry, evaluator.evaluate(profile, host: host, configuration: configuration, scheme: target.scheme))
        }
        if let passing = evaluated.first(where: { $0.result.verdict == .pass }) {
            var reasons = passing.entry.keys.sorted().compactMap { explain($0, passing.entry[$0]!, host: host) }
            if baseline.verdict == .ambiguous {
                reasons.insert(
                    "the default configuration is ambiguous (Apple's sources disagree); this entry passes under "
                        + "every reading",
                    at: 0)
            }
            return MinimalException(
                status: .exception, domain: host, dictionary: .dict(passing.entry),
                plist: plistFragment(host: host, entry: passing.entry), reason: reasons.joined(separator: "; "))
        }
        // No entry passes under every reading of Apple's conflicting sources. An entry that passes
        // under at least one (e.g. ATS off for a DHE-only host: the system's default suite list is
        // not public, §1.3/§6) is still the answer, but its reason says the outcome is uncertain.
        // An entry only helps if it passes under a reading under which the default does not: a conflict in
        // the trust rules (e.g. a lifetime at exactly 398 days) reads the same way whatever the entry says.
        let baselinePassing = Set(baseline.readings.filter { $0.verdict == .pass }.map(\.name))
        if let uncertain = evaluated.first(where: {
            $0.result.verdict == .ambiguous
                && !Set($0.result.readings.filter { $0.verdict == .pass }.map(\.name)).subtracting(baselinePassing)
                    .isEmpty
        }) {
            let passing = uncertain.result.readings.filter { $0.verdict == .pass }.map(\.name).joined(separator: ", ")
            let failing = uncertain.result.readings.filter { $0.verdict != .pass }.map(\.name).joined(separator: ", ")
            var reasons = [
                "UNCERTAIN: this entry passes under the reading(s) \(passing) but not under \(failing); Apple's "
                    + "sources disagree, so test on a device"
            ]
            reasons += uncertain.entry.keys.sorted().compactMap { explain($0, uncertain.entry[$0]!, host: host) }
            return MinimalException(
                status: .exception, domain: host, dictionary: .dict(uncertain.entry),
                plist: plistFragment(host: host, entry: uncertain.entry), reason: reasons.joined(separator: "; "))
        }
        let blocking = baseline.violations.filter { $0.keyPath == nil }
        let why = (blocking.isEmpty ? baseline.violations : blocking).map(\.message)
        var reason = "no NSExceptionDomains entry can make this pass: " + why.joined(separator: "; ")
        if baseline.verdict == .ambiguous {
            let readings = baseline.readings.map { "\($0.name): \($0.verdict.rawValue.uppercased())" }.joined(
                separator: "; ")
            reason =
                "Apple's sources disagree whether the default configuration passes (\(readings)), and "
                + reason + "; fix the server rather than the Info.plist, or test on a device"
        }
        return MinimalException(status: .impossible, domain: host, reason: reason)
    }

    static func explain(_ key: String, _ value: PlistValue, host: String) -> String? {
        switch (key, value) {
        case (ATSKey.exceptionMinimumTLSVersion.name, .string(let v)):
            return
                "NSExceptionMinimumTLSVersion \(v) lets the client offer \(v) (App Review asks for a justification "
                + "below TLS 1.2)"
        case (ATSKey.exceptionRequiresForwardSecrecy.name, .bool(false)):
            return
                "NSExceptionRequiresForwardSecrecy NO adds the RSA key-exchange suites (no forward secrecy) and "
                + "drops the ATS key-size check"
        case (ATSKey.exceptionAllowsInsecureHTTPLoads.name, .bool(true)):
            return
                "NSExceptionAllowsInsecureHTTPLoads YES disables ATS for \(host): it also allows cleartext http:// "
                + "loads, and App Review asks for a justification"
        default:
            return nil
        }
    }

    /// `<key>host</key>` + `<dict>…</dict>`, keys sorted, tab-indented as Xcode writes plists.
    package static func plistFragment(host: String, entry: [String: PlistValue]) -> String {
        var lines = ["<key>\(xmlEscape(host))</key>", "<dict>"]
        for key in entry.keys.sorted() {
            lines.append("\t<key>\(xmlEscape(key))</key>")
            switch entry[key]! {
            case .bool(let b): lines.append(b ? "\t<true/>" : "\t<false/>")
            case .int(let i): lines.append("\t<integer>\(i)</integer>")
            case .string(let s): lines.append("\t<string>\(xmlEscape(s))</string>")
            case .array, .dict: lines.append("\t<!-- nested values are not used in exception entries -->")
            }
        }
        lines.append("</dict>")
        return lines.joined(separator: "\n")
    }

    static func xmlEscape(_ s: String) -> String { PropertyListValues.escapedXML(s) }
}
