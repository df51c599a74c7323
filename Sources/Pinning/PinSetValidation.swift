import Foundation
import TLSModel

/// The checks TrustKit makes when it reads a configuration (pinning.md §3.1–3.2), applied to any
/// ``PinSet`` — a parsed `TSKConfiguration` or a pin-set file.
public enum PinSetValidation {
    /// Findings for a pin set: malformed pins, missing backups, excluded subdomains without a parent.
    /// - Parameters:
    ///   - pinSet: The pin set.
    ///   - keyPathPrefix: Prefix of the findings' key paths (`TSKConfiguration.TSKPinnedDomains` for a plist,
    ///     `domains` for a pin-set file).
    ///   - file: The file the set came from, if any.
    /// - Returns: Findings, by domain.
    public static func findings(_ pinSet: PinSet, keyPathPrefix: String = "domains", file: String? = nil) -> [Finding] {
        var out: [Finding] = []
        func add(_ rule: RuleID, _ message: String, _ keyPath: String) {
            out.append(
                Finding(
                    rule: rule, severity: rule.descriptor?.severity ?? .error, message: message, file: file,
                    keyPath: keyPath))
        }
        for domain in pinSet.domains.keys.sorted() {
            let entry = pinSet.domains[domain]!
            let path = "\(keyPathPrefix).\(domain)"
            if IPAddress(domain) != nil {
                add(RuleID.Pins.trustKitConfigRejected, "\(domain): TrustKit cannot pin an IP address", path)
            }
            if entry.excludeSubdomainFromParentPolicy {
                let parent = TrustKitPolicyLookup.includingParent(of: domain, in: pinSet)
                if parent == nil {
                    add(
                        RuleID.Pins.trustKitConfigRejected,
                        "\(domain) is excluded from its parent's policy, but no parent entry has includeSubdomains",
                        path)
                }
                if !entry.pins.isEmpty {
                    add(
                        RuleID.Pins.trustKitConfigRejected,
                        "\(domain): an excluded subdomain's entry must hold no other key, yet it has pins", path)
                }
                continue
            }
            var valid = Set<String>()
            for (i, pin) in entry.pins.enumerated() {
                if let problem = SPKIPinText.problem(pin) {
                    add(
                        RuleID.Pins.pinMalformed, "\(domain): pin \(i + 1) \(pin.prefix(50)) is \(problem)",
                        "\(path).pins.\(i)")
                } else {
                    valid.insert(pin)
                }
            }
            let needed = entry.enforce ? 2 : 1
            if Set(entry.pins).count < needed {
                let what = entry.enforce ? "fewer than 2 distinct pins while enforcing (no backup pin)" : "no pin"
                add(
                    RuleID.Pins.trustKitConfigRejected,
                    "\(domain): \(what): TrustKit raises an exception at initialisation", path)
            } else if valid.count != Set(entry.pins).count {
                add(
                    RuleID.Pins.trustKitConfigRejected,
                    "\(domain): a pin does not decode to 32 bytes: TrustKit raises an exception at initialisation", path
                )
            }
        }
        return out
    }
}

/// TrustKit's policy lookup (pinning.md §3.3 step 2–3).
public enum TrustKitPolicyLookup {
    /// How a host maps to the configuration.
    public enum Outcome: Equatable, Sendable {
        /// The entry that applies: `domain` is its key, `viaParent` whether it was inherited.
        case pinned(domain: String, entry: DomainPins, viaParent: Bool)
        /// No entry, an excluded subdomain, or an expired entry: TrustKit answers DomainNotPinned.
        case notPinned(reason: String, expiredDomain: String?)
    }

    /// Finds the policy for a host: exact key first, then the longest parent with includeSubdomains (any
    /// depth); an excluded or expired entry means not pinned.
    /// - Parameters:
    ///   - host: The host the app connects to.
    ///   - pinSet: The configuration.
    ///   - now: The evaluation time (for `expirationDate`).
    /// - Returns: The outcome.
    public static func lookup(host: String, in pinSet: PinSet, now: Date) -> Outcome {
        let name = host.lowercased()
        let keyed = Dictionary(pinSet.domains.map { ($0.key.lowercased(), ($0.key, $0.value)) }) { a, _ in a }
        var found: (String, DomainPins, Bool)?
        if let (domain, entry) = keyed[name] {
            if entry.excludeSubdomainFromParentPolicy {
                return .notPinned(reason: "\(domain) is excluded from its parent's policy", expiredDomain: nil)
            }
            found = (domain, entry, false)
        } else if let parent = includingParent(of: name, in: pinSet) {
            found = (parent.domain, parent.entry, true)
        }
        guard let (domain, entry, viaParent) = found else {
            return .notPinned(
                reason: "no entry for \(host) and no parent entry with includeSubdomains", expiredDomain: nil)
        }
        if let expiry = entry.expiration, now >= expiry {
            return .notPinned(
                reason: "the policy of \(domain) expired on \(entry.expirationDate ?? "")", expiredDomain: domain)
        }
        return .pinned(domain: domain, entry: entry, viaParent: viaParent)
    }

    /// The longest parent of `host` whose entry has includeSubdomains.
    static func includingParent(of host: String, in pinSet: PinSet) -> (domain: String, entry: DomainPins)? {
        let name = host.lowercased()
        return pinSet.domains
            .filter { $0.value.includeSubdomains && name.hasSuffix("." + $0.key.lowercased()) }
            .max { $0.key.count < $1.key.count }
            .map { ($0.key, $0.value) }
    }
}
