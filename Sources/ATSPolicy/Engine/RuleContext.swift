import Foundation
import TLSModel

/// What every rule sees: the profile, the host's policy, the OS, the conflict readings, and where to
/// record findings, notes and the conflicts a rule consulted.
struct RuleContext {
    let profile: ServerProfile
    let host: String
    let scheme: String
    let client: ATSClient
    var os: AppleOSVersion { client.os }
    let now: Date
    let policy: HostPolicy
    let readings: Readings

    var violations: [ATSViolation] = []
    /// Why the verdict cannot be told, when no violation decides it.
    var unknowns: [String] = []
    /// Why the verdict depends on something the checker could not settle from its data (an SCT from a log newer than
    /// the log list, an issuer it was not allowed to fetch), when no violation decides it: the endpoint is
    /// `ambiguous` with these reasons, never a false failure.
    var ambiguities: [String] = []
    var notes: [String] = []
    var consulted: Set<ATSConflict> = []

    /// `NSAppTransportSecurity.NSExceptionDomains.<key>.<name>` for the entry that governs the host
    /// (the app's matching entry, or the host itself when it has none).
    func keyPath(_ key: ATSKey) -> String {
        let domain = policy.exception.flatMap { $0.builtIn ? nil : $0.key } ?? host
        return ATSKeyPath.exceptionDomain(domain, key.name)
    }

    /// The chain against the trust store of the OS being judged (Apple's store of that release), when the probe
    /// recorded one; nil in reports saved before stores were per release.
    var storeOutcome: StoreOutcome? { profile.certificate?.trust?.outcome(forIOS: [os.major, os.minor]) }

    /// The certificate chain to judge: the path verified against the judged OS's store when there is one, else the
    /// chain as sent.
    var chain: [CertificateFacts] {
        guard let c = profile.certificate else { return [] }
        if let outcome = storeOutcome {
            guard outcome.trusted, !outcome.path.isEmpty else { return c.chain }
            let pool = c.chain + c.verifiedChain + (c.trust?.certificates ?? [])
            let path = outcome.path.compactMap { sha in pool.first { $0.sha256 == sha } }
            if path.count == outcome.path.count { return path }
        }
        return c.verifiedChain.isEmpty ? c.chain : c.verifiedChain
    }

    var leaf: CertificateFacts? { profile.certificate?.leaf ?? chain.first }

    var anchor: AnchorKind { storeOutcome?.anchor ?? profile.certificate?.anchor ?? .none }

    /// "iOS 26.4", for messages.
    var osName: String { "iOS \(os)" }

    mutating func fail(_ rule: RuleID, _ message: String, keyPath: String? = nil) {
        violations.append(
            ATSViolation(
                rule: rule, message: message, keyPath: keyPath, keyPathComponents: keyPath.flatMap(components(of:))))
    }

    /// The keys of a path ``keyPath(_:)`` built: the governing domain is known, so its dots are not separators.
    func components(of path: String) -> [String]? {
        let domain = policy.exception.flatMap { $0.builtIn ? nil : $0.key } ?? host
        let prefix = ATSKeyPath.exceptionDomain(domain) + "."
        guard path.hasPrefix(prefix) else { return nil }
        return ATSKeyPath.exceptionDomainComponents(domain, String(path.dropFirst(prefix.count)))
    }

    /// Records that the verdict depends on data the checker lacks; `reason` says what and how to settle it.
    mutating func ambiguous(_ reason: String) {
        ambiguities.append(reason)
    }
}

/// One ATS or trust rule: reads the context, appends violations, notes and unknowns. Its catalogue entries are
/// declared beside it (``Rule/entries``); ``ATSRules`` lists the rules in evaluation order.
protocol ATSRule: Rule {
    func apply(to context: inout RuleContext)
}

extension Array where Element == String {
    /// `a, b, c and 2 more`.
    func listed(limit: Int = 3) -> String {
        if count <= limit { return joined(separator: ", ") }
        return prefix(limit).joined(separator: ", ") + " and \(count - limit) more"
    }
}
