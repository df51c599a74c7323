import ATSPolicy
import Foundation
import TLSModel

/// The pure decisions of checking an Info.plist's `NSPinnedDomains` against a served chain (`audit`, `scan --plist`):
/// which entry locates the findings, where it is written, and how the findings read. The facade
/// (`PinnedDomainsCheck`) reads the plist and runs the evaluation; nothing here touches a file or OpenSSL.
package enum PinnedDomainsJudge {
    /// The entries that pin `host`, in the order a check reports them: the key written for `host` itself first
    /// (case-insensitively, a trailing dot ignored), else the first including parent, then the others in their
    /// order. Precondition: `applicable` is not empty.
    /// - Parameters:
    ///   - host: The host the app connects to.
    ///   - applicable: The `NSPinnedDomains` keys that pin it (`PinnedDomainsEvaluator.applicable(host:in:)`).
    /// - Returns: The keys; the first locates the findings.
    package static func domains(host: String, applicable: [String]) -> [String] {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let key = applicable.first { $0.lowercased() == name } ?? applicable[0]
        return [key] + applicable.filter { $0 != key }
    }

    /// The dotted plist key path of a pinned-domain entry (`NSAppTransportSecurity.NSPinnedDomains.<key>`).
    package static func keyPath(_ key: String) -> String { ATSKeyPath.path([ATSKey.pinnedDomains.name, key]) }

    /// The findings of an evaluation, as the audit reports them (``PinFindings/of(_:subject:expectFail:)``), its
    /// subject the entry that locates them.
    package static func findings(of check: AuditPinCheck, expectFail: Bool = false) -> [Finding] {
        PinFindings.of(check, subject: "NSPinnedDomains '\(check.domains.first ?? "")'", expectFail: expectFail)
    }

    /// The `audit.pinned-domain.no-endpoint` notes: one per `NSPinnedDomains` entry no `https` endpoint of the
    /// list is covered by, in key order, at the entry's line.
    /// - Parameters:
    ///   - configuration: The plist's `NSPinnedDomains`.
    ///   - covered: The keys that pinned some endpoint of the list.
    ///   - file: The plist.
    ///   - lines: The plist line of each key.
    /// - Returns: The notes.
    package static func uncovered(
        _ configuration: PinnedDomainsConfiguration, covered: Set<String>, file: String, lines: [String: Int]
    ) -> [Finding] {
        configuration.domains.keys.sorted().filter { !covered.contains($0) }.map { key in
            let subdomains = configuration.domains[key]?.includesSubdomains == true ? " or one label below it" : ""
            return Finding(
                rule: RuleID.Audit.pinnedDomainNoEndpoint, severity: .note,
                message:
                    "the NSPinnedDomains entry '\(key)' covers no https endpoint of the list (none is "
                    + "\(key)\(subdomains)): its pins were not checked against a live path",
                file: file, line: lines[key], keyPath: keyPath(key))
        }
    }
}
