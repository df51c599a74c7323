import Foundation
import TLSModel

/// Leaf validity caps (docs/apple-rules.md §2.1). No Info.plist key relaxes them. Two readings (CONFLICT added
/// 2026-11-23), evaluated both ways where they differ:
/// - trustd (Security source, the primary reading): a system-anchored leaf issued from 2020-09-01 fails when
///   `notAfter − notBefore > 398 × 86,400 s`; every other system-anchored leaf (the 2018-03-01 date is only
///   in a log message) and a user/MDM-anchored leaf issued after 2019-07-01 fail over 825 days + 1 hour.
/// - Apple's documentation (support 102028, 103769): the lifetime counts notBefore through notAfter
///   inclusive in days of 86,400 s, any remainder one more day; at most 398 days for a leaf from a
///   preinstalled root issued from 2020-09-01, at most 825 days for any leaf issued after 2019-07-01.
/// A user-trusted (self-signed, custom-anchored) leaf has no cap in either reading.
struct LifetimeRule: ATSRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.lifetime398, .trust, .error,
                title: "A certificate from a preinstalled root is valid for more than 398 days.",
                help: """
                    Leaves issued from 2020-09-01 that chain to a root preinstalled in the OS may be valid for at \
                    most 398 days (Apple support 102028; Apple recommends 397). Lifetime counts notBefore through \
                    notAfter inclusive. No Info.plist key relaxes it. Reissue the certificate with a shorter validity.
                    """),
            RuleDescriptor(
                RuleID.Trust.lifetime825, .trust, .error, title: "A certificate is valid for more than 825 days.",
                help: """
                    From iOS 13 / macOS 10.15 a leaf issued after 2019-07-01 may be valid for at most 825 days, and \
                    trustd applies 825 days + 1 hour to system-anchored leaves issued from 2018-03-01 (support \
                    103769). This catches private-CA certificates with long lifetimes. No Info.plist key relaxes it. \
                    Reissue the certificate with a validity of 825 days or less.
                    """),
        ]
    }

    /// The cap one reading applies to a leaf: which rule, and whether the leaf exceeds it.
    struct Cap: Equatable {
        var rule: RuleID
        var exceeded: Bool
    }

    /// trustd's cap for `leaf` under `anchor`, or nil when none applies.
    static func sourceCap(_ leaf: CertificateFacts, anchor: AnchorKind) -> Cap? {
        let seconds = leaf.lifetimeSeconds
        if anchor == .system {
            if leaf.notBefore >= AppleDates.cap398 {
                return Cap(rule: .Trust.lifetime398, exceeded: seconds > 398 * 86_400)
            }
            return Cap(rule: .Trust.lifetime825, exceeded: seconds > 825 * 86_400 + 3_600)
        }
        guard leaf.notBefore > AppleDates.ios13Rules else { return nil }
        return Cap(rule: .Trust.lifetime825, exceeded: seconds > 825 * 86_400 + 3_600)
    }

    /// The documented cap for `leaf` under `anchor`, or nil when none applies.
    static func documentedCap(_ leaf: CertificateFacts, anchor: AnchorKind) -> Cap? {
        if anchor == .system && leaf.notBefore >= AppleDates.cap398 {
            return Cap(rule: .Trust.lifetime398, exceeded: leaf.lifetimeDays > 398)
        }
        guard leaf.notBefore > AppleDates.ios13Rules else { return nil }
        return Cap(rule: .Trust.lifetime825, exceeded: leaf.lifetimeDays > 825)
    }

    func apply(to context: inout RuleContext) {
        guard context.os.enforcesIOS13CertificateRules, let leaf = context.leaf,
            !leaf.selfSigned || context.anchor != .custom
        else { return }
        let anchor = context.anchor
        let source = Self.sourceCap(leaf, anchor: anchor).flatMap { $0.exceeded ? $0.rule : nil }
        let documented = Self.documentedCap(leaf, anchor: anchor).flatMap { $0.exceeded ? $0.rule : nil }
        if source != documented { context.consulted.insert(.lifetimeBoundary) }
        guard let rule = context.readings.documentedLifetime ? documented : source else { return }
        let days = leaf.lifetimeDays
        let issued = ChainTrustRule.day(leaf.notBefore)
        let how =
            context.readings.documentedLifetime
            ? "counting notBefore through notAfter inclusive (support 102028)"
            : "notAfter − notBefore is \(Int(leaf.lifetimeSeconds)) s"
        if rule == .Trust.lifetime398 {
            context.fail(
                rule,
                "the certificate is valid for \(days) days (issued \(issued); \(how)) under a preinstalled root; "
                    + "Apple allows at most 398 days for certificates issued from 2020-09-01"
            )
        } else {
            let root =
                anchor == .custom
                ? "a user- or MDM-installed root" : anchor == .system ? "a preinstalled root" : "an unverified chain"
            let limit = context.readings.documentedLifetime ? "825 days" : "825 days + 1 hour"
            context.fail(
                rule,
                "the certificate is valid for \(days) days (issued \(issued); \(how)) under \(root); Apple allows at "
                    + "most \(limit)"
            )
        }
    }
}

extension LifetimeRule: SSLPathCheck {
    /// The SSL policy's lifetime cap on a built path's leaf (trustd's reading); none for a leaf the user anchored.
    func sslPolicyFailures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure] {
        guard let leaf = path.first, !(leaf.selfSigned && anchor != .system),
            let cap = Self.sourceCap(leaf, anchor: anchor == .system ? .system : .custom), cap.exceeded
        else { return [] }
        let limit = cap.rule == .Trust.lifetime398 ? "398 days" : "825 days"
        return [
            SSLPolicyFailure(
                cap.rule, "the leaf is valid for \(leaf.lifetimeDays) days; Apple allows at most \(limit) here")
        ]
    }
}
