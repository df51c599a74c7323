import Foundation
import TLSModel

/// Pure parsers for pin configurations already decoded from an Info.plist (`PropertyListSerialization`
/// output): TrustKit's `TSKConfiguration` and ATS's `NSPinnedDomains`.
package enum PinConfigurationParser {
    /// The plist string of TrustKit's exclusion key: `kSKExcludeSubdomainFromParentPolicy`, a typo that an
    /// Info.plist configuration must repeat (docs/pinning-rules.md §3.1).
    package static let trustKitExcludeKey = "kSKExcludeSubdomainFromParentPolicy"

    /// Parses a `TSKConfiguration` dictionary into a ``PinSet`` as TrustKit reads it, with what TrustKit refuses
    /// at launch (``TrustKitLaunchCheck``) and malformed pins.
    /// - Parameters:
    ///   - configuration: The value of the `TSKConfiguration` key.
    ///   - file: The plist's path, for findings.
    ///   - line: The line of a key path relative to `TSKConfiguration` (`["TSKPinnedDomains", "api.example.com"]`),
    ///     for findings.
    /// - Returns: The pin set (an entry that is not a dictionary is left out; flags are read with TrustKit's
    ///   `-boolValue`), the findings (`pins.trustkit.config-rejected` per refusal, `pins.pin.malformed` per bad
    ///   pin; key paths start at `TSKConfiguration`), and the refusals themselves.
    package static func trustKit(
        _ configuration: [String: Any], file: String? = nil, line: ([String]) -> Int? = { _ in nil }
    ) -> (
        pinSet: PinSet, findings: [Finding], refusals: [TrustKitLaunchCheck.Refusal]
    ) {
        typealias Key = TrustKitLaunchCheck.Key
        let refusals = TrustKitLaunchCheck.refusals(configuration)
        let domains = dictionary(configuration[Key.pinnedDomains]) ?? [:]
        var out: [String: DomainPins] = [:]
        for (name, value) in domains {
            guard let entry = dictionary(value) else { continue }
            func flag(_ key: String, _ defaultValue: Bool) -> Bool {
                entry[key].flatMap { TrustKitValue($0).boolValue } ?? defaultValue
            }
            if flag(Key.excludeSubdomainFromParentPolicy, false) {
                out[name] = DomainPins(pins: [], excludeSubdomainFromParentPolicy: true)
                continue
            }
            out[name] = DomainPins(
                pins: entry[Key.publicKeyHashes].flatMap { TrustKitValue($0).enumerated }?.compactMap { $0 as? String }
                    ?? [],
                includeSubdomains: flag(Key.includeSubdomains, false), enforce: flag(Key.enforcePinning, true),
                expirationDate: entry[Key.expirationDate] as? String)
        }
        let pinSet = PinSet(domains: out)
        let prefix = "TSKConfiguration"
        let malformed = PinSetValidation.malformedPins(pinSet, file: file) { domain, index in
            let path = [Key.pinnedDomains, domain, Key.publicKeyHashes, String(index)]
            return (([prefix] + path).joined(separator: "."), line(path))
        }
        let rejected = refusals.map {
            $0.finding(file: file, keyPath: ([prefix] + $0.keyPath).joined(separator: "."), line: line($0.keyPath))
        }
        return (pinSet, rejected + malformed, refusals)
    }

    /// Parses an `NSPinnedDomains` dictionary the way Apple's Security framework does (docs/apple-rules.md §3.3):
    /// entries that are not dictionaries are skipped, `NSIncludesSubdomains` counts only as a boolean YES,
    /// identities whose `SPKI-SHA256-BASE64` is not Base64 are dropped (an array left empty pins nothing and
    /// fails every connection). Structural problems are the plist linter's findings, not repeated here.
    /// - Parameter pinnedDomains: The value of `NSAppTransportSecurity.NSPinnedDomains`.
    /// - Returns: The configuration.
    package static func pinnedDomains(_ pinnedDomains: [String: Any]) -> PinnedDomainsConfiguration {
        var out: [String: PinnedDomainEntry] = [:]
        for (name, value) in pinnedDomains {
            guard let entry = dictionary(value) else { continue }
            func identities(_ key: String) -> [String]? {
                guard let list = entry[key] as? [Any] else { return nil }
                return list.compactMap { item -> String? in
                    guard let identity = dictionary(item), let pin = identity["SPKI-SHA256-BASE64"] as? String,
                        Data(base64Encoded: pin) != nil
                    else { return nil }
                    return pin
                }
            }
            let includes = entry["NSIncludesSubdomains"].map { isPlistTrue($0) } ?? false
            out[name] = PinnedDomainEntry(
                includesSubdomains: includes, leafIdentities: identities("NSPinnedLeafIdentities"),
                caIdentities: identities("NSPinnedCAIdentities"))
        }
        return PinnedDomainsConfiguration(domains: out)
    }

    /// A dictionary with string keys from `[String: Any]` or `[AnyHashable: Any]`.
    static func dictionary(_ value: Any?) -> [String: Any]? { PropertyListValues.stringKeyedDictionary(value) }

    /// Apple's `NSIncludesSubdomains` test: a plist boolean YES (a number or string does not count).
    static func isPlistTrue(_ value: Any) -> Bool {
        if let b = value as? Bool, type(of: value) == Bool.self { return b }
        #if canImport(Darwin)
            if let n = value as? NSNumber, CFGetTypeID(n) == CFBooleanGetTypeID() { return n.boolValue }
        #endif
        return false
    }
}
