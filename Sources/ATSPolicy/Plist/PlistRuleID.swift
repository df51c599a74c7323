import TLSModel

/// The stable ids of the findings ``PlistLinter`` reports, with each one's usual severity and a
/// one-line description (used for SARIF `rules` and documentation).
///
/// Ids never change once published; a rule that is retired keeps its id unused.
public enum PlistRuleID {
    public static let atsAbsent = "plist.ats.absent"
    public static let keyMisspelled = "plist.key.misspelled"
    public static let keyUnknown = "plist.key.unknown"
    public static let keyWrongLevel = "plist.key.wrong-level"
    public static let keyCaseDuplicate = "plist.key.case-duplicate"
    public static let keyDuplicate = "plist.key.duplicate"
    public static let keyDeprecated = "plist.key.deprecated"
    public static let keyObsolete = "plist.key.obsolete"
    public static let valueWrongType = "plist.value.wrong-type"
    public static let valueNumericBoolean = "plist.value.numeric-boolean"
    public static let valueInvalidTLSVersion = "plist.value.invalid-tls-version"
    public static let valueInvalidNIAP = "plist.value.invalid-niap-version"
    public static let domainInvalid = "plist.domain.invalid"
    public static let domainScheme = "plist.domain.scheme"
    public static let domainPort = "plist.domain.port"
    public static let domainPath = "plist.domain.path"
    public static let domainWildcard = "plist.domain.wildcard"
    public static let domainLeadingDot = "plist.domain.leading-dot"
    public static let domainUppercase = "plist.domain.uppercase"
    public static let domainTrailingDot = "plist.domain.trailing-dot"
    public static let domainIPAddress = "plist.domain.ip-address"
    public static let domainCIDR = "plist.domain.cidr"
    public static let domainInvalidCIDR = "plist.domain.invalid-cidr"
    public static let domainSubdomainsOnIP = "plist.domain.subdomains-on-ip"
    public static let deadArbitraryLoadsIgnored = "plist.dead.arbitrary-loads-ignored"
    public static let deadGlobalKeysShadowed = "plist.dead.global-keys-shadowed"
    public static let reviewJustification = "plist.review.justification"
    public static let pinningNoIdentities = "plist.pinning.no-identities"
    public static let pinningEmptyIdentities = "plist.pinning.empty-identities"
    public static let pinningMissingSPKI = "plist.pinning.missing-spki"
    public static let pinningInvalidBase64 = "plist.pinning.invalid-base64"
    public static let pinningWrongDigestLength = "plist.pinning.wrong-digest-length"
    public static let pinningNoBackup = "plist.pinning.no-backup"

    /// Every rule: id, its usual severity, and a one-line description.
    public static let catalogue: [(id: String, severity: Finding.Severity, summary: String)] = [
        (atsAbsent, .note, "The Info.plist has no NSAppTransportSecurity dictionary: default ATS applies everywhere."),
        (keyMisspelled, .error, "A key that is not an ATS key but is close to one; Apple ignores it."),
        (keyUnknown, .warning, "A key atscheck does not know; Apple ignores unknown keys."),
        (keyWrongLevel, .error, "An ATS key placed in the wrong dictionary, where Apple does not read it."),
        (keyCaseDuplicate, .error, "Two keys that differ only in letter case; lookups are case-sensitive."),
        (keyDuplicate, .error, "A key written twice in one dictionary; only the last value takes effect."),
        (keyDeprecated, .warning, "An iOS 9-era NSThirdParty…/NSTemporary… key that current OSes probably ignore."),
        (keyObsolete, .warning, "NSRequiresCertificateTransparency: obsolete, and Apple advises against setting it."),
        (valueWrongType, .error, "A value of the wrong plist type; Apple ignores it and uses the default."),
        (valueNumericBoolean, .warning, "A boolean written as a number; only 1 reads as YES."),
        (valueInvalidTLSVersion, .error, "An NSExceptionMinimumTLSVersion Apple does not recognise; TLS 1.2 stays the minimum."),
        (valueInvalidNIAP, .error, "An NIAP TLS package value Apple does not recognise."),
        (domainInvalid, .error, "An exception or pinned domain key that is not a host name."),
        (domainScheme, .error, "A domain key with a URL scheme; keys are bare host names and this one never matches."),
        (domainPort, .error, "A domain key with a port; ports are not allowed and this one never matches."),
        (domainPath, .error, "A domain key with a path; keys are bare host names and this one never matches."),
        (domainWildcard, .error, "A domain key with a wildcard; use NSIncludesSubdomains instead."),
        (domainLeadingDot, .error, "A domain key with a leading dot; use NSIncludesSubdomains instead."),
        (domainUppercase, .error, "A domain key with upper-case letters; exception lookups are exact and lower-case."),
        (domainTrailingDot, .warning, "A domain key with a trailing dot; it matches only hosts written with the dot."),
        (domainIPAddress, .note, "An IP address domain key; honoured only from iOS 17 / macOS 14."),
        (domainCIDR, .note, "A CIDR range domain key; honoured only from iOS 17 / macOS 14."),
        (domainInvalidCIDR, .error, "A CIDR range Apple cannot parse; the entry never matches."),
        (domainSubdomainsOnIP, .error, "NSIncludesSubdomains on an IP or CIDR entry, where it has no effect."),
        (deadArbitraryLoadsIgnored, .error, "NSAllowsArbitraryLoads ignored on iOS 10+ because a web, media or local-networking key is present."),
        (deadGlobalKeysShadowed, .warning, "Global ATS keys do not reach a host that has its own NSExceptionDomains entry."),
        (reviewJustification, .note, "A key App Review asks the developer to justify."),
        (pinningNoIdentities, .error, "An NSPinnedDomains entry with neither NSPinnedCAIdentities nor NSPinnedLeafIdentities."),
        (pinningEmptyIdentities, .warning, "An empty pinned identity array."),
        (pinningMissingSPKI, .error, "A pinned identity without an SPKI-SHA256-BASE64 string."),
        (pinningInvalidBase64, .error, "An SPKI-SHA256-BASE64 value that is not Base64; Apple skips it."),
        (pinningWrongDigestLength, .error, "An SPKI-SHA256-BASE64 value that does not decode to a 32-byte SHA-256 digest."),
        (pinningNoBackup, .warning, "A pinned domain with a single pin and no backup pin."),
    ]

    /// Rule id → description, for renderers (SARIF `rules[].shortDescription`).
    public static var descriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: catalogue.map { ($0.id, $0.summary) })
    }
}
