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
}
