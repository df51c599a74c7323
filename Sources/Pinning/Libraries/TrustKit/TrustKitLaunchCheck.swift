import Foundation
import TLSModel

/// The configurations TrustKit refuses when it loads them: `parseTrustKitConfiguration`
/// (`TrustKit/parse_configuration.m`) and `-[TrustKit initWithConfiguration:…]` (`TrustKit/TrustKit.m`), as of
/// TrustKit 3.0.7. Each refusal is an exception nothing catches: TrustKit reads `TSKConfiguration` from the
/// Info.plist in a library constructor, before `main`, so the app crashes at launch.
///
/// Every refusal is listed, not only the first one TrustKit would raise: fixing one would expose the next.
/// What TrustKit accepts is not a refusal even when it is a mistake: unknown keys (outside an exclusion entry),
/// `TSKPublicKeyAlgorithms` (ignored since 1.6.0), an unparsable `TSKExpirationDate` string (no expiry), a flag
/// written as a string (read with `-boolValue`, so `"NO"` is NO).
package enum TrustKitLaunchCheck {
    /// How the app hands TrustKit the configuration.
    package enum Initializer: Sendable, Hashable {
        /// `+initSharedInstanceWithConfiguration:`, which is also how an Info.plist `TSKConfiguration` is loaded.
        case sharedInstance
        /// `-initWithConfiguration:`, a non-shared instance: it refuses `TSKSwizzleNetworkDelegates` = YES.
        case instance
    }

    /// What TrustKit refuses (an open set: a later TrustKit may refuse more).
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// `TSKPinnedDomains` missing or empty in a non-empty configuration (parse_configuration.m:62).
        package static let noPinnedDomains = Code(rawValue: "no-pinned-domains")
        /// A domain with no registry in TrustKit's domain registry: an unknown top-level label, a single label, an
        /// IP address, a non-ASCII name (parse_configuration.m:72).
        package static let invalidDomain = Code(rawValue: "invalid-domain")
        /// An exclusion entry with any other key (parse_configuration.m:89).
        package static let exclusionWithOtherKeys = Code(rawValue: "exclusion-with-other-keys")
        /// `TSKIncludeSubdomains` on a public suffix (`com`, `co.uk`, `appspot.com`) (parse_configuration.m:120).
        package static let includeSubdomainsOnPublicSuffix = Code(rawValue: "include-subdomains-on-public-suffix")
        /// A `TSKReportUris` string `NSURL` cannot parse (parse_configuration.m:177).
        package static let invalidReportURI = Code(rawValue: "invalid-report-uri")
        /// A pin that does not Base64-decode to 32 bytes (parse_configuration.m:196).
        package static let invalidPin = Code(rawValue: "invalid-pin")
        /// Fewer than 2 distinct pins while enforcing, or none when not (parse_configuration.m:207).
        package static let missingBackupPin = Code(rawValue: "missing-backup-pin")
        /// An exclusion with no parent entry that includes subdomains (parse_configuration.m:228).
        package static let exclusionWithoutParent = Code(rawValue: "exclusion-without-parent")
        /// `TSKSwizzleNetworkDelegates` = YES outside the shared instance (TrustKit.m:168).
        package static let swizzleOutsideSharedInstance = Code(rawValue: "swizzle-outside-shared-instance")
        /// A value of a type TrustKit sends a message it does not implement (`-count`, `-boolValue`, a string
        /// method): Objective-C raises NSInvalidArgumentException ("unrecognized selector").
        package static let wrongType = Code(rawValue: "wrong-type")
    }

    /// One refusal: what, where, and the exception TrustKit raises.
    package struct Refusal: Sendable, Hashable, CustomStringConvertible {
        /// What TrustKit refuses.
        package var code: Code
        /// The `TSKPinnedDomains` key it concerns; nil for the configuration as a whole.
        package var domain: String?
        /// Where, from the `TSKConfiguration` dictionary: `["TSKPinnedDomains", "api.example.com",
        /// "TSKPublicKeyHashes", "1"]` (array elements by index).
        package var keyPath: [String]
        /// What is wrong, naming the domain and key: the start of ``message``.
        package var problem: String
        /// The exception TrustKit raises, as its source words it.
        package var exception: String

        /// A refusal.
        package init(code: Code, domain: String?, keyPath: [String], problem: String, exception: String) {
            self.code = code
            self.domain = domain
            self.keyPath = keyPath
            self.problem = problem
            self.exception = exception
        }

        /// What TrustKit does with such a configuration; every ``message`` ends with it.
        package static let consequence = "TrustKit raises at launch: the app would crash"

        /// ``problem`` followed by ``consequence``.
        package var message: String { "\(problem): \(Self.consequence)" }

        package var description: String { message }

        /// ``problem`` with TrustKit's key names replaced by a file's own (a pin-set file's `pins` for
        /// `TSKPublicKeyHashes`, ``PinSetValidation/pinSetKeyNames``).
        /// - Parameter names: TrustKit key → the file's name for it.
        /// - Returns: The problem as that file spells it.
        package func problem(spelledAs names: [String: String]) -> String {
            names.reduce(problem) { text, name in text.replacingOccurrences(of: name.key, with: name.value) }
        }

        /// The refusal as a `pins.trustkit.config-rejected` error finding.
        /// - Parameters:
        ///   - file: The file the configuration came from.
        ///   - keyPath: The finding's key path, in the file's own spelling.
        ///   - line: The line, when known.
        ///   - names: TrustKit key → the file's name for it, for the message.
        /// - Returns: The finding.
        package func finding(file: String?, keyPath: String, line: Int? = nil, names: [String: String] = [:])
            -> Finding
        {
            Finding(
                rule: RuleID.Pins.trustKitConfigRejected, severity: .error,
                message: "\(problem(spelledAs: names)): \(Self.consequence)", file: file, line: line, keyPath: keyPath)
        }
    }

    /// TrustKit's configuration keys (`TSKTrustKitConfig.m`).
    package enum Key {
        package static let pinnedDomains = "TSKPinnedDomains"
        package static let swizzleNetworkDelegates = "TSKSwizzleNetworkDelegates"
        package static let publicKeyHashes = "TSKPublicKeyHashes"
        package static let includeSubdomains = "TSKIncludeSubdomains"
        package static let enforcePinning = "TSKEnforcePinning"
        package static let expirationDate = "TSKExpirationDate"
        package static let reportURIs = "TSKReportUris"
        /// `kTSKExcludeSubdomainFromParentPolicy`'s string, with TrustKit's typo.
        package static let excludeSubdomainFromParentPolicy = "kSKExcludeSubdomainFromParentPolicy"
    }

    /// Every refusal TrustKit would raise loading `configuration`, in the order it checks (domains sorted).
    /// - Parameters:
    ///   - configuration: The `TSKConfiguration` value as decoded from a plist, JSON or YAML (a dictionary when
    ///     well formed; anything else is checked as TrustKit would receive it).
    ///   - initializer: How the app loads it; an Info.plist configuration is always `.sharedInstance`.
    ///   - registry: The domain registry (TrustKit's bundled snapshot of the Public Suffix List).
    /// - Returns: The refusals; empty when TrustKit loads the configuration.
    package static func refusals(
        _ configuration: Any, initializer: Initializer = .sharedInstance,
        registry: TrustKitDomainRegistry = .bundled
    ) -> [Refusal] {
        var out: [Refusal] = []
        // initWithConfiguration: parses only when `[trustKitConfig count] > 0`.
        let value = TrustKitValue(configuration)
        if value.isEmptyCollection { return [] }
        guard case .dictionary(let root) = value else {
            return [
                wrongType(
                    nil, [], "TSKConfiguration is \(value.name), not a dictionary",
                    selector: value.respondsToCount ? "objectForKeyedSubscript:" : "count", value)
            ]
        }
        var includes: [String: Bool] = [:]
        var exclusions: [String] = []
        let noDomains = Refusal(
            code: .noPinnedDomains, domain: nil, keyPath: [Key.pinnedDomains],
            problem: "TSKConfiguration has no TSKPinnedDomains dictionary with at least one domain",
            exception: raised(
                "TrustKit was initialized with no pinned domains. The configuration format has changed: ensure your "
                    + "domain pinning policies are under the TSKPinnedDomains key within TSKConfiguration."))
        var domains: [String: Any] = [:]
        if let raw = root[Key.pinnedDomains] {
            let value = TrustKitValue(raw)
            switch value {
            case .dictionary(let dictionary) where !dictionary.isEmpty: domains = dictionary
            case _ where value.isEmptyCollection: out.append(noDomains)
            default:
                out.append(
                    wrongType(
                        nil, [Key.pinnedDomains], "TSKPinnedDomains is \(value.name), not a dictionary",
                        selector: value.respondsToCount ? "objectForKeyedSubscript:" : "count", value))
            }
        } else {
            out.append(noDomains)
        }
        for name in domains.keys.sorted() {
            let (refusals, include, excluded) = domainRefusals(name, domains[name]!, registry: registry)
            out += refusals
            if excluded { exclusions.append(name) } else { includes[name] = include }
        }
        for name in exclusions.sorted()
        where parentPolicy(
            of: "a" + name, among: includes, excluded: exclusions,
            registry: registry) == nil
        {
            out.append(
                Refusal(
                    code: .exclusionWithoutParent, domain: name, keyPath: [Key.pinnedDomains, name],
                    problem:
                        "\(name): \(Key.excludeSubdomainFromParentPolicy) is set, but no parent domain is pinned "
                        + "with TSKIncludeSubdomains",
                    exception: raised(
                        "TrustKit was initialized with TSKExcludeSubdomainFromParentPolicy for domain \(name) but "
                            + "could not find a policy for a parent domain")))
        }
        if let swizzle = root[Key.swizzleNetworkDelegates] {
            let value = TrustKitValue(swizzle)
            if let on = value.boolValue {
                if on && initializer == .instance {
                    out.append(
                        Refusal(
                            code: .swizzleOutsideSharedInstance, domain: nil, keyPath: [Key.swizzleNetworkDelegates],
                            problem:
                                "TSKSwizzleNetworkDelegates is YES in a configuration given to initWithConfiguration: "
                                + "(only the shared instance may swizzle)",
                            exception: raised(
                                "Cannot use TSKSwizzleNetworkDelegates outside the TrustKit sharedInstance"
                            )))
                }
            } else {
                out.append(
                    wrongType(
                        nil, [Key.swizzleNetworkDelegates], "TSKSwizzleNetworkDelegates is \(value.name)",
                        selector: "boolValue", value))
            }
        }
        return out
    }

    /// The refusals of one `TSKPinnedDomains` entry, whether it includes subdomains, and whether it is an exclusion.
    private static func domainRefusals(_ name: String, _ value: Any, registry: TrustKitDomainRegistry) -> (
        [Refusal], include: Bool, excluded: Bool
    ) {
        var out: [Refusal] = []
        let path = [Key.pinnedDomains, name]
        func refuse(_ code: Code, _ keyPath: [String], _ problem: String, _ exception: String) {
            out.append(
                Refusal(
                    code: code, domain: name, keyPath: keyPath, problem: "\(name): \(problem)",
                    exception: raised(exception)))
        }
        func mistyped(_ key: String, _ keyPath: [String], _ value: TrustKitValue, _ selector: String, _ what: String) {
            out.append(wrongType(name, keyPath, "\(name): \(key) is \(value.name)\(what)", selector: selector, value))
        }
        if registry.registryLength(name) == 0 {
            refuse(
                .invalidDomain, path, invalidDomainReason(name, registry: registry),
                "TrustKit was initialized with an invalid domain \(name)")
        }
        guard case .dictionary(let entry) = TrustKitValue(value) else {
            let value = TrustKitValue(value)
            out.append(
                wrongType(
                    name, path, "\(name): the entry is \(value.name), not a dictionary",
                    selector: "objectForKeyedSubscript:", value))
            return (out, false, false)
        }
        if let raw = entry[Key.excludeSubdomainFromParentPolicy] {
            let value = TrustKitValue(raw)
            if let excluded = value.boolValue {
                if excluded {
                    let others = entry.keys.filter { $0 != Key.excludeSubdomainFromParentPolicy }.sorted()
                    if !others.isEmpty {
                        refuse(
                            .exclusionWithOtherKeys, path,
                            "\(Key.excludeSubdomainFromParentPolicy) is set, so the entry may hold no other key, yet "
                                + "it has \(others.joined(separator: ", "))",
                            "TrustKit was initialized with TSKExcludeSubdomainFromParentPolicy for domain \(name) but "
                                + "detected additional configuration keys")
                    }
                    return (out, false, true)
                }
            } else {
                mistyped(
                    Key.excludeSubdomainFromParentPolicy, path + [Key.excludeSubdomainFromParentPolicy], value,
                    "boolValue", "")
            }
        }
        var include = false
        if let raw = entry[Key.includeSubdomains] {
            let value = TrustKitValue(raw)
            if let on = value.boolValue {
                include = on
                if on && registry.registryLength(name) == name.utf16.count {
                    refuse(
                        .includeSubdomainsOnPublicSuffix, path + [Key.includeSubdomains],
                        "TSKIncludeSubdomains is YES on a public suffix (in TrustKit's bundled list, a 2018-07-10 "
                            + "snapshot): it would pin every domain under it",
                        "TrustKit was initialized with includeSubdomains for a domain suffix \(name)")
                }
            } else {
                mistyped(Key.includeSubdomains, path + [Key.includeSubdomains], value, "boolValue", "")
            }
        }
        if let raw = entry[Key.expirationDate], !(raw is String) {
            let value = TrustKitValue(raw)
            mistyped(
                Key.expirationDate, path + [Key.expirationDate], value, "length",
                ", not a yyyy-MM-dd string (NSDateFormatter -dateFromString: takes a string)")
        }
        var enforce = true
        if let raw = entry[Key.enforcePinning] {
            let value = TrustKitValue(raw)
            if let on = value.boolValue {
                enforce = on
            } else {
                mistyped(Key.enforcePinning, path + [Key.enforcePinning], value, "boolValue", "")
            }
        }
        if let raw = entry[Key.reportURIs] {
            let value = TrustKitValue(raw)
            if let items = value.enumerated {
                for (i, item) in items.enumerated() {
                    let itemPath = path + [Key.reportURIs, String(i)]
                    guard let uri = item as? String else {
                        mistyped("\(Key.reportURIs)[\(i)]", itemPath, TrustKitValue(item), "length", ", not a string")
                        continue
                    }
                    // `+[NSURL URLWithString:]`; Foundation's parser, as an app built with the iOS 17 SDK or later
                    // uses it (earlier SDKs also refuse characters that need percent-encoding, such as spaces).
                    if URL(string: uri) == nil {
                        refuse(
                            .invalidReportURI, itemPath,
                            "\(Key.reportURIs)[\(i)] '\(uri.prefix(80))' is not a URL NSURL can parse",
                            "TrustKit was initialized with an invalid value for TSKReportUris for domain \(name)")
                    }
                }
            } else {
                mistyped(
                    Key.reportURIs, path + [Key.reportURIs], value, "countByEnumeratingWithState:objects:count:",
                    ", not an array of URL strings")
            }
        }
        var pins = Set<Data>()
        var invalid = Set<String>()
        if let raw = entry[Key.publicKeyHashes] {
            let value = TrustKitValue(raw)
            if let items = value.enumerated {
                for (i, item) in items.enumerated() {
                    let itemPath = path + [Key.publicKeyHashes, String(i)]
                    guard let pin = item as? String else {
                        mistyped(
                            "\(Key.publicKeyHashes)[\(i)]", itemPath, TrustKitValue(item), "length", ", not a string")
                        continue
                    }
                    // `-[NSData initWithBase64EncodedString:options:0]`, then a 32-byte check.
                    if let bytes = Data(base64Encoded: pin), bytes.count == 32 {
                        pins.insert(bytes)
                    } else {
                        invalid.insert(pin)
                        let why = SPKIPinText.problem(pin) ?? "not the Base64 of 32 bytes"
                        refuse(
                            .invalidPin, itemPath,
                            "\(Key.publicKeyHashes)[\(i)] '\(pin.prefix(50))' is \(why)",
                            "TrustKit was initialized with an invalid Pin \(pin) for domain \(name)")
                    }
                }
            } else {
                mistyped(
                    Key.publicKeyHashes, path + [Key.publicKeyHashes], value,
                    "countByEnumeratingWithState:objects:count:", ", not an array of Base64 strings")
            }
        }
        // Pins that are refused above count as if fixed, so that this reports only what is missing besides them.
        let required = enforce ? 2 : 1
        if pins.count + invalid.count < required {
            let count = pins.count + invalid.count
            let have =
                entry[Key.publicKeyHashes] == nil
                ? "\(Key.publicKeyHashes) is missing"
                : "\(Key.publicKeyHashes) has \(count == 0 ? "no" : String(count)) distinct pin\(count == 1 ? "" : "s")"
            let need =
                enforce
                ? "TrustKit requires 2 while \(Key.enforcePinning) is YES (a backup pin)"
                : "TrustKit requires 1 even with \(Key.enforcePinning) NO"
            refuse(
                .missingBackupPin, entry[Key.publicKeyHashes] == nil ? path : path + [Key.publicKeyHashes],
                "\(have); \(need)",
                "TrustKit was initialized with less than \(required) pins (ie. no backup pins) for domain \(name). "
                    + "This might brick your App; please review the Getting Started guide in "
                    + "./docs/getting-started.md")
        }
        return (out, include, false)
    }

    /// Why the registry has no public suffix for a name, in words a person can act on.
    static func invalidDomainReason(_ name: String, registry: TrustKitDomainRegistry) -> String {
        let snapshot = "TrustKit's bundled public suffix list (a 2018-07-10 snapshot)"
        if name.isEmpty { return "the domain is empty" }
        if IPAddress(name) != nil { return "TrustKit pins domain names, not IP addresses (TrustKit #279)" }
        if name.utf8.contains(where: { $0 > 0x7F }) {
            return "not ASCII: TrustKit's registry needs an internationalised name in punycode (xn--…)"
        }
        if name.utf8.count > 255 { return "longer than 255 bytes" }
        if name.hasSuffix("..") { return "ends in two dots" }
        let labels = name.split(separator: ".")
        if labels.count < 2 {
            return "a single label: it has no public suffix in \(snapshot), so TrustKit cannot tell its registry"
        }
        let top = labels.last!.lowercased()
        if !registry.knowsTopLevelLabel(top) {
            return "'.\(top)' is not a top-level domain in \(snapshot)"
        }
        return "\(snapshot) finds no public suffix for it"
    }

    /// `getPinningConfigurationKeyForDomain` (configuration_utils.m), as the exclusion check calls it: the
    /// exact key, else the longest parent with `TSKIncludeSubdomains` by TrustKit's `isSubdomain`.
    static func parentPolicy(
        of host: String, among includes: [String: Bool], excluded: [String], registry: TrustKitDomainRegistry
    ) -> String? {
        if includes[host] != nil || excluded.contains(host) { return host }
        var best = 0
        var found: String?
        for (domain, include) in includes where include {
            let match = subdomainMatch(domain, host, registry: registry)
            if match > best {
                best = match
                found = domain
            }
        }
        return found
    }

    /// `isSubdomain` (configuration_utils.m): case-sensitive, and only for names with the same registry.
    static func subdomainMatch(_ domain: String, _ subdomain: String, registry: TrustKitDomainRegistry) -> Int {
        let parent = Array(domain.utf16)
        let child = Array(subdomain.utf16)
        guard child.count > parent.count else { return 0 }
        let length = registry.registryLength(domain)
        guard registry.registryLength(subdomain) == length, parent.suffix(length) == child.suffix(length),
            parent.count - length - 1 >= 0
        else { return 0 }
        let label = Array(".".utf16) + parent[0..<(parent.count - length - 1)]
        let childLabel = child[0..<(child.count - length - 1)]
        guard childLabel.count >= label.count, Array(childLabel.suffix(label.count)) == label else { return 0 }
        return label.count
    }

    private static func raised(_ reason: String) -> String { "NSException 'TrustKit configuration invalid': \(reason)" }

    private static func wrongType(
        _ domain: String?, _ keyPath: [String], _ problem: String, selector: String, _ value: TrustKitValue
    ) -> Refusal {
        Refusal(
            code: .wrongType, domain: domain, keyPath: keyPath,
            problem: "\(problem) (TrustKit sends it -\(selector), which \(value.name) does not implement)",
            exception: "NSInvalidArgumentException: -[\(value.className) \(selector)]: unrecognized selector")
    }
}
