import Foundation
import TLSModel

/// Pure parsers for pin configurations already decoded from an Info.plist (`PropertyListSerialization`
/// output): TrustKit's `TSKConfiguration` and ATS's `NSPinnedDomains`.
public enum PinConfigurationParser {
    /// The plist string of TrustKit's exclusion key: `kSKExcludeSubdomainFromParentPolicy`, a typo that an
    /// Info.plist configuration must repeat (pinning.md §3.1).
    public static let trustKitExcludeKey = "kSKExcludeSubdomainFromParentPolicy"

    /// Parses a `TSKConfiguration` dictionary into a ``PinSet`` plus the findings TrustKit's own checks would
    /// raise (``PinSetValidation``) and type errors.
    /// - Parameters:
    ///   - configuration: The value of the `TSKConfiguration` key.
    ///   - file: The plist's path, for findings.
    /// - Returns: The pin set (entries that could not be read are left out) and findings.
    public static func trustKit(_ configuration: [String: Any], file: String? = nil) -> (
        pinSet: PinSet, findings: [Finding]
    ) {
        let prefix = "TSKConfiguration.TSKPinnedDomains"
        var findings: [Finding] = []
        func reject(_ message: String, _ keyPath: String) {
            findings.append(
                Finding(
                    rule: RuleID.Pins.trustKitConfigRejected, severity: .error, message: message, file: file,
                    keyPath: keyPath))
        }
        guard let domains = dictionary(configuration["TSKPinnedDomains"]), !domains.isEmpty else {
            reject(
                "TSKConfiguration has no TSKPinnedDomains dictionary with at least one entry",
                "TSKConfiguration.TSKPinnedDomains")
            return (PinSet(domains: [:]), findings)
        }
        var out: [String: DomainPins] = [:]
        for name in domains.keys.sorted() {
            let path = "\(prefix).\(name)"
            guard let entry = dictionary(domains[name]) else {
                reject("\(name): the entry is not a dictionary", path)
                continue
            }
            func flag(_ key: String, _ defaultValue: Bool) -> Bool {
                guard let raw = entry[key] else { return defaultValue }
                if let value = boolean(raw) { return value }
                reject("\(name): \(key) is not a boolean", "\(path).\(key)")
                return defaultValue
            }
            var pins: [String] = []
            if let raw = entry["TSKPublicKeyHashes"] {
                if let list = raw as? [Any], list.allSatisfy({ $0 is String }) {
                    pins = list.compactMap { $0 as? String }
                } else {
                    reject("\(name): TSKPublicKeyHashes is not an array of strings", "\(path).TSKPublicKeyHashes")
                }
            }
            let excluded = flag(trustKitExcludeKey, false)
            if !excluded && entry["TSKPublicKeyHashes"] == nil {
                reject("\(name): TSKPublicKeyHashes is missing", path)
            }
            out[name] = DomainPins(
                pins: pins, includeSubdomains: flag("TSKIncludeSubdomains", false),
                enforce: flag("TSKEnforcePinning", true),
                expirationDate: entry["TSKExpirationDate"] as? String, excludeSubdomainFromParentPolicy: excluded)
        }
        let pinSet = PinSet(domains: out)
        return (pinSet, findings + PinSetValidation.findings(pinSet, keyPathPrefix: prefix, file: file))
    }

    /// Parses an `NSPinnedDomains` dictionary the way Apple's Security framework does (ats-rules.md §3.3):
    /// entries that are not dictionaries are skipped, `NSIncludesSubdomains` counts only as a boolean YES,
    /// identities whose `SPKI-SHA256-BASE64` is not Base64 are dropped (an array left empty pins nothing and
    /// fails every connection). Structural problems are the plist linter's findings, not repeated here.
    /// - Parameter pinnedDomains: The value of `NSAppTransportSecurity.NSPinnedDomains`.
    /// - Returns: The configuration.
    public static func pinnedDomains(_ pinnedDomains: [String: Any]) -> PinnedDomainsConfiguration {
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
    static func dictionary(_ value: Any?) -> [String: Any]? {
        guard let value else { return nil }
        if let d = value as? [String: Any] { return d }
        if let d = value as? [AnyHashable: Any] {
            var out: [String: Any] = [:]
            for (k, v) in d { if let s = k.base as? String { out[s] = v } }
            return out
        }
        return nil
    }

    /// A `<true/>`/`<false/>` or a number (TrustKit reads flags with `boolValue`); nil for other types.
    static func boolean(_ value: Any) -> Bool? {
        if let b = value as? Bool, type(of: value) == Bool.self { return b }
        if let n = value as? NSNumber { return n.boolValue }
        return nil
    }

    /// Apple's `NSIncludesSubdomains` test: a plist boolean YES (a number or string does not count).
    static func isPlistTrue(_ value: Any) -> Bool {
        if let b = value as? Bool, type(of: value) == Bool.self { return b }
        #if canImport(Darwin)
            if let n = value as? NSNumber, CFGetTypeID(n) == CFBooleanGetTypeID() { return n.boolValue }
        #endif
        return false
    }
}
