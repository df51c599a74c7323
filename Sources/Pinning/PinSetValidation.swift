import Foundation
import TLSModel

/// The checks TrustKit makes when it reads a configuration (``TrustKitLaunchCheck``), applied to any ``PinSet`` — a
/// parsed `TSKConfiguration` or a pin-set file — plus the pin text checks (docs/pinning-rules.md §7.2).
package enum PinSetValidation {
    /// Findings for a pin set: what TrustKit refuses at launch (`pins.trustkit.config-rejected`) and malformed pins
    /// (`pins.pin.malformed`).
    /// - Parameters:
    ///   - pinSet: The pin set.
    ///   - keyPathPrefix: Prefix of the findings' key paths (`domains` for a pin-set file).
    ///   - file: The file the set came from, if any.
    /// - Returns: Findings, by domain; key paths in the pin-set file's spelling (`domains.<name>.pins.<i>`).
    package static func findings(_ pinSet: PinSet, keyPathPrefix: String = "domains", file: String? = nil) -> [Finding]
    {
        let refusals = TrustKitLaunchCheck.refusals(TrustKitLaunchCheck.configuration(of: pinSet))
        return refusals.map {
            $0.finding(file: file, keyPath: pinSetKeyPath($0.keyPath, prefix: keyPathPrefix), names: pinSetKeyNames)
        }
            + malformedPins(pinSet, file: file) { ("\(keyPathPrefix).\($0).pins.\($1)", nil) }
    }

    /// A `pins.pin.malformed` error for every pin of a non-excluded entry that is not the Base64 of 32 bytes, and one
    /// `pins.pin.placeholder` per domain whose well-formed pins include placeholders (`AAAA…=`, which TrustKit
    /// configurations write to pass its two-pin rule): a note while another pin is real, an error when none is.
    /// - Parameters:
    ///   - pinSet: The pin set.
    ///   - file: The file, for findings.
    ///   - location: The key path of pin `index` of `domain`, and its line when known.
    /// - Returns: The findings, by domain.
    package static func malformedPins(
        _ pinSet: PinSet, file: String?, location: (_ domain: String, _ index: Int) -> (keyPath: String, line: Int?)
    ) -> [Finding] {
        var out: [Finding] = []
        for domain in pinSet.domains.keys.sorted() where !pinSet.domains[domain]!.excludeSubdomainFromParentPolicy {
            var placeholders: [Int] = []
            var real = 0
            for (i, pin) in pinSet.domains[domain]!.pins.enumerated() {
                guard let problem = SPKIPinText.problem(pin) else {
                    if PinPlaceholder.isPlaceholder(base64: pin) { placeholders.append(i) } else { real += 1 }
                    continue
                }
                let (keyPath, line) = location(domain, i)
                out.append(
                    Finding(
                        rule: RuleID.Pins.pinMalformed,
                        severity: RuleRegistry.pins.descriptor(for: RuleID.Pins.pinMalformed)?.severity ?? .error,
                        message: "\(domain): pin \(i + 1) \(pin.prefix(50)) is \(problem)", file: file, line: line,
                        keyPath: keyPath))
            }
            if let first = placeholders.first {
                let (keyPath, line) = location(domain, first)
                let which = placeholders.map { String($0 + 1) }.joined(separator: ", ")
                out.append(
                    Finding(
                        rule: RuleID.Pins.pinPlaceholder, severity: real == 0 ? .error : .note,
                        message: "\(domain): pin\(placeholders.count == 1 ? "" : "s") \(which) "
                            + (placeholders.count == 1 ? "is a placeholder" : "are placeholders")
                            + " (one character repeated) that no key matches: "
                            + (real == 0
                                ? "no pin of the domain is real, so every connection to it fails"
                                : "\(real == 1 ? "the one real pin has no working backup" : "they are no backup")"),
                        file: file, line: line, keyPath: keyPath))
            }
        }
        return out
    }

    /// A refusal's key path (from `TSKConfiguration`) in the pin-set file's spelling: `TSKPinnedDomains` →
    /// `prefix`, `TSKPublicKeyHashes` → `pins`, `TSKIncludeSubdomains` → `includeSubdomains` and so on.
    /// - Parameters:
    ///   - keyPath: The refusal's key path.
    ///   - prefix: What stands for `TSKPinnedDomains` (`domains`).
    /// - Returns: The dotted key path.
    package static func pinSetKeyPath(_ keyPath: [String], prefix: String = "domains") -> String {
        var names = pinSetKeyNames
        names[TrustKitLaunchCheck.Key.pinnedDomains] = prefix
        // The domain (index 1) is a name, never a key to translate.
        return keyPath.enumerated().map { i, part in i == 1 ? part : names[part] ?? part }.joined(separator: ".")
    }

    /// TrustKit's key names → a pin-set file's (`Pins/README.md`).
    package static let pinSetKeyNames: [String: String] = {
        typealias Key = TrustKitLaunchCheck.Key
        return [
            Key.pinnedDomains: "domains", Key.publicKeyHashes: "pins", Key.includeSubdomains: "includeSubdomains",
            Key.enforcePinning: "enforce", Key.expirationDate: "expirationDate",
            Key.excludeSubdomainFromParentPolicy: "excludeSubdomainFromParentPolicy",
        ]
    }()
}

extension TrustKitLaunchCheck {
    /// The `TSKConfiguration` a pin set stands for: `TSKPinnedDomains` with each entry's keys. An exclusion entry
    /// gets the exclusion key plus whatever else the set gives it (which TrustKit refuses).
    /// - Parameter pinSet: The pin set.
    /// - Returns: The configuration, for ``refusals(_:initializer:registry:)``.
    package static func configuration(of pinSet: PinSet) -> [String: Any] {
        var domains: [String: Any] = [:]
        for (name, entry) in pinSet.domains {
            var keys: [String: Any] = [:]
            if entry.excludeSubdomainFromParentPolicy {
                keys[Key.excludeSubdomainFromParentPolicy] = true
                if !entry.pins.isEmpty { keys[Key.publicKeyHashes] = entry.pins }
                if entry.includeSubdomains { keys[Key.includeSubdomains] = true }
                if !entry.enforce { keys[Key.enforcePinning] = false }
            } else {
                keys[Key.publicKeyHashes] = entry.pins
                keys[Key.includeSubdomains] = entry.includeSubdomains
                keys[Key.enforcePinning] = entry.enforce
            }
            if let date = entry.expirationDate { keys[Key.expirationDate] = date }
            domains[name] = keys
        }
        return [Key.pinnedDomains: domains]
    }
}

/// TrustKit's policy lookup (docs/pinning-rules.md §3.3 step 2–3).
package enum TrustKitPolicyLookup {
    /// How a host maps to the configuration.
    package enum Outcome: Equatable, Sendable {
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
    package static func lookup(host: String, in pinSet: PinSet, now: Date) -> Outcome {
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
