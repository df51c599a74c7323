import Foundation
import TLSModel

extension ATSConfiguration {
    /// Parses the value of `NSAppTransportSecurity` as `PropertyListSerialization` gives it.
    ///
    /// Follows the current Security sources (§3.4): a global boolean that is not a boolean or a number
    /// (e.g. the string `"YES"`) is absent; a number other than 0 or 1 is present but not YES; a non-dictionary
    /// `NSExceptionDomains` is ignored; entries that are not dictionaries are skipped; per-domain booleans
    /// count by a number's truth value and take their defaults when of another wrong type; an invalid minimum TLS
    /// version leaves the minimum at TLS 1.2.
    /// - Parameter dictionary: the `NSAppTransportSecurity` dictionary.
    public init(dictionary: [String: Any]) {
        self.init(isPresent: true)
        allowsArbitraryLoads = Self.flag(dictionary[ATSKey.allowsArbitraryLoads.name])
        allowsArbitraryLoadsForMedia = Self.flag(dictionary[ATSKey.allowsArbitraryLoadsForMedia.name])
        allowsArbitraryLoadsInWebContent = Self.flag(dictionary[ATSKey.allowsArbitraryLoadsInWebContent.name])
        allowsLocalNetworking = Self.flag(dictionary[ATSKey.allowsLocalNetworking.name])
        niapPackage = (dictionary[ATSKey.requiresNIAPTLSPackageVersion.name] as? String).flatMap(NIAPPackage.init)
        if let domains = dictionary[ATSKey.exceptionDomains.name] as? [String: Any] {
            for (key, value) in domains {
                guard let entry = value as? [String: Any] else { continue }
                if BuildSettings.refersToSetting(key) {
                    unresolvedExceptionDomains[key] = ExceptionDomain(dictionary: entry)
                } else {
                    exceptionDomains[key] = ExceptionDomain(dictionary: entry)
                }
            }
        }
    }

    /// Reads a plist boolean the way Apple's parser does.
    static func flag(_ value: Any?) -> Flag {
        guard let value else { return .absent }
        if type(of: value) == Bool.self { return (value as! Bool) ? .yes : .no }
        let number: Double?
        switch value {
        case let i as Int: number = Double(i)
        case let d as Double: number = d
        case let n as NSNumber: number = n.doubleValue
        default: number = nil
        }
        guard let number else { return .absent }
        return number == 1 ? .yes : number == 0 ? .no : .presentNotYes
    }
}

extension ExceptionDomain {
    /// Parses one `NSExceptionDomains` entry (§3.4): wrong types take the defaults.
    ///
    /// A boolean written as a number counts by its truth value (0 = NO, any other number = YES), as
    /// current Security source reads it (§3.4, corrected 2026-11-23); such keys are recorded in
    /// ``numericBooleanKeys`` because older releases may have ignored them. Values written only under an
    /// iOS 9-era spelling (§3.2) are recorded in ``legacyValues`` and do not change the entry itself.
    /// - Parameter dictionary: the entry.
    public init(dictionary: [String: Any]) {
        var numeric: Set<String> = []
        var strings: [String: Bool] = [:]
        // PlistNode tells <true/> from <integer>1</integer>, which a plain `as? Bool` cannot on Linux.
        func bool(_ name: String, record: Bool = true) -> Bool? {
            guard let raw = dictionary[name] else { return nil }
            switch PlistNode(raw) {
            case .boolean(let b): return b
            case .integer(let i):
                if record { numeric.insert(name) }
                return i != 0
            case .real(let d):
                if record { numeric.insert(name) }
                return d != 0
            case .string(let text):
                if record { strings[name] = Self.stringBoolValue(text) }
                return nil  // current source: the default is used (older source read boolValue: a CONFLICT)
            default: return nil  // a date, data or collection: the default is used
            }
        }
        // Values Xcode fills in from build settings not given: the engine judges the entry under each value they
        // could take.
        var unresolved: [String: String] = [:]
        for key in [ATSKey.exceptionMinimumTLSVersion.name, ATSKey.exceptionRequiresNIAPTLSPackageVersion.name] {
            if let text = dictionary[key] as? String, BuildSettings.refersToSetting(text) { unresolved[key] = text }
        }
        func version(_ name: String) -> TLSVersion? {
            (dictionary[name] as? String).flatMap {
                ATSKey.validMinimumTLSVersions.contains($0) ? TLSVersion(name: $0) : nil
            }
        }
        var legacy = LegacyExceptionValues()
        for key in ATSKey.deprecated.map(\.name).sorted() where dictionary[key] != nil {
            let current = LegacyKeyRules.currentSpelling(of: key)
            guard dictionary[current] == nil else { continue }  // the NSException… key wins
            switch current {
            case ATSKey.exceptionAllowsInsecureHTTPLoads.name:
                legacy.allowsInsecureHTTPLoads = legacy.allowsInsecureHTTPLoads ?? bool(key, record: false)
            case ATSKey.exceptionRequiresForwardSecrecy.name:
                legacy.requiresForwardSecrecy = legacy.requiresForwardSecrecy ?? bool(key, record: false)
            case ATSKey.exceptionMinimumTLSVersion.name:
                legacy.minimumTLSVersion = legacy.minimumTLSVersion ?? version(key)
            default: break
            }
        }
        self.init(
            includesSubdomains: bool(ATSKey.includesSubdomains.name) ?? false,
            allowsInsecureHTTPLoads: bool(ATSKey.exceptionAllowsInsecureHTTPLoads.name) ?? false,
            minimumTLSVersion: version(ATSKey.exceptionMinimumTLSVersion.name),
            requiresForwardSecrecy: bool(ATSKey.exceptionRequiresForwardSecrecy.name) ?? true,
            requiresCertificateTransparency: bool(ATSKey.requiresCertificateTransparency.name) ?? false,
            niapPackage: (dictionary[ATSKey.exceptionRequiresNIAPTLSPackageVersion.name] as? String)
                .flatMap(NIAPPackage.init),
            numericBooleanKeys: numeric, legacyValues: legacy.isEmpty ? nil : legacy, stringBooleanValues: strings)
        unresolvedValues = unresolved
    }

    /// `-[NSString boolValue]`: YES for a string whose first non-space character is `Y`, `y`, `T`, `t` or a
    /// digit 1–9 (after an optional sign and leading zeros); NO otherwise (`"NO"`, `"false"`, `"0"`, `""`).
    static func stringBoolValue(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if let first = rest.first, first == "+" || first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }
}
