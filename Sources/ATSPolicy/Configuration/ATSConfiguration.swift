import Foundation
import TLSModel

/// The parsed `NSAppTransportSecurity` dictionary of an app (docs/apple-rules.md §3.1, parsed by the rules of §3.4).
///
/// Parsing never fails: like Apple's parser, a key with the wrong type counts as absent, an invalid
/// `NSExceptionMinimumTLSVersion` leaves the minimum at TLS 1.2, and an exception entry that is not a
/// dictionary is skipped. The plist linter reports those mistakes; this type only models their effect.
public struct ATSConfiguration: Sendable, Equatable {
    /// A global boolean key as Apple reads it (§3.4).
    public enum Flag: Sendable, Equatable {
        case absent
        case yes
        case no
        /// Present with a value that is not YES (a number such as 2): counts as present (§4.1) but not YES.
        case presentNotYes

        /// Whether the key is in the dictionary with a boolean or number value.
        public var isPresent: Bool { self != .absent }
        public var isYes: Bool { self == .yes }
    }

    /// Whether the app has an `NSAppTransportSecurity` dictionary at all.
    public var isPresent: Bool
    public var allowsArbitraryLoads: Flag
    public var allowsArbitraryLoadsForMedia: Flag
    public var allowsArbitraryLoadsInWebContent: Flag
    public var allowsLocalNetworking: Flag
    /// `NSExceptionDomains` entries by key as written (host names, IP literals, CIDR ranges).
    public var exceptionDomains: [String: ExceptionDomain]
    /// `NSRequiresNIAPTLSPackageVersion`; nil when absent or not a known value.
    public var niapPackage: NIAPPackage?
    /// `NSExceptionDomains` entries whose key refers to a build setting not given (`$(API_HOST)`): Xcode fills the
    /// key in when it builds the app, so the host it names is not known. They govern no host here; a host they could
    /// name is judged both ways, and ambiguous where the verdicts differ.
    public var unresolvedExceptionDomains: [String: ExceptionDomain] = [:]

    public init(
        isPresent: Bool = true, allowsArbitraryLoads: Flag = .absent, allowsArbitraryLoadsForMedia: Flag = .absent,
        allowsArbitraryLoadsInWebContent: Flag = .absent, allowsLocalNetworking: Flag = .absent,
        exceptionDomains: [String: ExceptionDomain] = [:], niapPackage: NIAPPackage? = nil
    ) {
        self.isPresent = isPresent
        self.allowsArbitraryLoads = allowsArbitraryLoads
        self.allowsArbitraryLoadsForMedia = allowsArbitraryLoadsForMedia
        self.allowsArbitraryLoadsInWebContent = allowsArbitraryLoadsInWebContent
        self.allowsLocalNetworking = allowsLocalNetworking
        self.exceptionDomains = exceptionDomains
        self.niapPackage = niapPackage
    }

    /// No `NSAppTransportSecurity` dictionary: full ATS for every host.
    public static let `default` = ATSConfiguration(isPresent: false)
}

/// Values of `NSRequiresNIAPTLSPackageVersion` / `NSExceptionRequiresNIAPTLSPackageVersion` (iOS 26.4+).
public enum NIAPPackage: String, Sendable, Equatable {
    case none
    case fcp21 = "FCP_v2.1"
    /// Currently means `FCP_v2.1`.
    case recommended

    /// Whether the stricter FCP_v2.1 TLS profile applies.
    public var isStrict: Bool { self != .none }
}

/// One `NSExceptionDomains` entry, with Apple's defaults for keys that are absent or mistyped (§3.4).
public struct ExceptionDomain: Sendable, Equatable {
    public var includesSubdomains: Bool
    public var allowsInsecureHTTPLoads: Bool
    /// The valid `NSExceptionMinimumTLSVersion`; nil when absent or invalid (then TLS 1.2 applies).
    public var minimumTLSVersion: TLSVersion?
    public var requiresForwardSecrecy: Bool
    /// Obsolete (§2.2); kept so reports can mention it.
    public var requiresCertificateTransparency: Bool
    public var niapPackage: NIAPPackage?
    /// Names of the boolean keys written as numbers (§3.4): read by their truth value, as current Security
    /// source does; releases before iOS 18.4 / macOS 15.4 may have ignored them (a CONFLICT).
    public var numericBooleanKeys: Set<String>
    /// Values given only under an iOS 9-era spelling (§3.2), which iOS 9 may have honoured.
    public var legacyValues: LegacyExceptionValues?
    /// Boolean keys written as strings (`<string>NO</string>`), with the value `-[NSString boolValue]` gives
    /// them (§3.4): current Security source uses the default instead; older source read them with
    /// `boolValue` (a CONFLICT before iOS 18.4 / macOS 15.4).
    public var stringBooleanValues: [String: Bool]
    /// Keys whose value refers to a build setting not given (`NSExceptionMinimumTLSVersion = $(MIN_TLS)`), with the
    /// value as written: read as absent here, and judged under every value they could take.
    public var unresolvedValues: [String: String] = [:]

    /// The build settings ``unresolvedValues`` refer to.
    public var unresolvedSettingNames: [String] {
        unresolvedValues.values.flatMap { BuildSettings().expand($0).unresolved }
    }

    public init(
        includesSubdomains: Bool = false, allowsInsecureHTTPLoads: Bool = false, minimumTLSVersion: TLSVersion? = nil,
        requiresForwardSecrecy: Bool = true, requiresCertificateTransparency: Bool = false,
        niapPackage: NIAPPackage? = nil, numericBooleanKeys: Set<String> = [],
        legacyValues: LegacyExceptionValues? = nil,
        stringBooleanValues: [String: Bool] = [:]
    ) {
        self.includesSubdomains = includesSubdomains
        self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.requiresCertificateTransparency = requiresCertificateTransparency
        self.niapPackage = niapPackage
        self.numericBooleanKeys = numericBooleanKeys
        self.legacyValues = legacyValues
        self.stringBooleanValues = stringBooleanValues
    }

    /// The minimum TLS version in force (the entry's, or TLS 1.2).
    public var effectiveMinimumTLSVersion: TLSVersion { minimumTLSVersion ?? .tls1_2 }
}

extension ATSConfiguration {
    /// Whether any of the iOS 10 keys (`NSAllowsLocalNetworking`, `…InWebContent`, `…ForMedia`) is
    /// present, whatever its value: on iOS 10+ that alone makes `NSAllowsArbitraryLoads` ignored (§4.1).
    public var hasFineGrainedGlobalKey: Bool {
        [allowsLocalNetworking, allowsArbitraryLoadsInWebContent, allowsArbitraryLoadsForMedia].contains(
            where: \.isPresent)
    }

    /// Whether `NSAllowsArbitraryLoads = YES` is ignored on `os` because an iOS 10 key is present (§4.1).
    public func arbitraryLoadsOverridden(on os: AppleOSVersion) -> Bool {
        allowsArbitraryLoads.isYes && os.hasFineGrainedGlobalKeys && hasFineGrainedGlobalKey
    }

    /// Whether `NSAllowsArbitraryLoads = YES` turns ATS off for public hosts without an entry on `os` (§4.1).
    public func arbitraryLoadsInForce(on os: AppleOSVersion) -> Bool {
        allowsArbitraryLoads.isYes && !arbitraryLoadsOverridden(on: os)
    }
}
