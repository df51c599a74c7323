import Foundation
import TLSModel

extension ATSConfiguration {
    /// Parses the value of `NSAppTransportSecurity` as `PropertyListSerialization` gives it.
    ///
    /// Follows the current Security sources (§3.4): a global boolean that is not a boolean or a number
    /// (e.g. the string `"YES"`) is absent; a number other than 0 or 1 is present but not YES; a non-dictionary
    /// `NSExceptionDomains` is ignored; entries that are not dictionaries are skipped; per-domain booleans of
    /// the wrong type take their defaults; an invalid minimum TLS version leaves the minimum at TLS 1.2.
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
                exceptionDomains[key] = ExceptionDomain(dictionary: entry)
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
    /// - Parameter dictionary: the entry.
    public init(dictionary: [String: Any]) {
        // Per-domain booleans must be plist booleans: a number or a string there is ignored and the
        // default used (§3.4), unlike global keys, where a number counts. PlistNode tells <true/> from
        // <integer>1</integer>, which a plain `as? Bool` cannot on Linux.
        func bool(_ key: ATSKey, default value: Bool) -> Bool {
            guard let raw = dictionary[key.name], case .boolean(let b) = PlistNode(raw) else { return value }
            return b
        }
        self.init(
            includesSubdomains: bool(.includesSubdomains, default: false),
            allowsInsecureHTTPLoads: bool(.exceptionAllowsInsecureHTTPLoads, default: false),
            minimumTLSVersion: (dictionary[ATSKey.exceptionMinimumTLSVersion.name] as? String).flatMap {
                ATSKey.validMinimumTLSVersions.contains($0) ? TLSVersion(name: $0) : nil
            },
            requiresForwardSecrecy: bool(.exceptionRequiresForwardSecrecy, default: true),
            requiresCertificateTransparency: bool(.requiresCertificateTransparency, default: false),
            niapPackage: (dictionary[ATSKey.exceptionRequiresNIAPTLSPackageVersion.name] as? String)
                .flatMap(NIAPPackage.init))
    }
}
