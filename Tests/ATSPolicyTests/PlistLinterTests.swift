import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// One rule expectation: linting `body` (inside NSAppTransportSecurity) yields `rule` at `keyPath`.
struct LintCase: CustomTestStringConvertible, Sendable {
    var label: String
    var body: String
    var rule: RuleID
    var severity: Finding.Severity
    /// Relative to `NSAppTransportSecurity.`
    var keyPath: String
    var messageContains: String = ""
    var deploymentTarget: String? = nil
    var testDescription: String { label }
}

/// One negative expectation: linting `body` does not yield `rule`.
struct CleanCase: CustomTestStringConvertible, Sendable {
    var label: String
    var body: String
    var absent: RuleID
    var osVersion: String = AppleOSVersion.newest.description
    var testDescription: String { label }
}

private func domain(_ name: String, _ entry: String = "") -> String {
    "<key>NSExceptionDomains</key><dict><key>\(name)</key><dict>\(entry)</dict></dict>"
}
private func pinned(_ name: String, _ entry: String) -> String {
    "<key>NSPinnedDomains</key><dict><key>\(name)</key><dict>\(entry)</dict></dict>"
}
private func pins(_ key: String, _ values: [String]) -> String {
    "<key>\(key)</key><array>"
        + values.map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }.joined() + "</array>"
}
private let twoPins = pins("NSPinnedLeafIdentities", [PlistFixtures.pin(1), PlistFixtures.pin(2)])

let positiveCases: [LintCase] = [
    // Key names.
    .init(
        label: "NSAllowArbitraryLoads is misspelled", body: "<key>NSAllowArbitraryLoads</key><true/>",
        rule: PlistRuleID.keyMisspelled, severity: .error, keyPath: "NSAllowArbitraryLoads",
        messageContains: "did you mean NSAllowsArbitraryLoads?"),
    .init(
        label: "NSIncludesSubdomain is misspelled", body: domain("a.com", "<key>NSIncludesSubdomain</key><true/>"),
        rule: PlistRuleID.keyMisspelled, severity: .error, keyPath: "NSExceptionDomains.a.com.NSIncludesSubdomain",
        messageContains: "did you mean NSIncludesSubdomains?"),
    .init(
        label: "NSExceptionAllowsLocalNetworking is not a key",
        body: domain("a.com", "<key>NSExceptionAllowsLocalNetworking</key><true/>"),
        rule: PlistRuleID.keyMisspelled, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSExceptionAllowsLocalNetworking",
        messageContains: "did you mean NSAllowsLocalNetworking?"),
    .init(
        label: "NSAllowsArbitraryLoadsInMedia is not a key", body: "<key>NSAllowsArbitraryLoadsInMedia</key><true/>",
        rule: PlistRuleID.keyMisspelled, severity: .error, keyPath: "NSAllowsArbitraryLoadsInMedia",
        messageContains: "NSAllowsArbitraryLoadsForMedia"),
    .init(
        label: "wrong case of a key", body: "<key>NSAllowsArbitraryloads</key><true/>",
        rule: PlistRuleID.keyMisspelled, severity: .error, keyPath: "NSAllowsArbitraryloads",
        messageContains: "did you mean NSAllowsArbitraryLoads?"),
    .init(
        label: "an edit-distance typo", body: domain("a.com", "<key>NSExceptionRequiresForwardSecrecey</key><false/>"),
        rule: PlistRuleID.keyMisspelled, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSExceptionRequiresForwardSecrecey",
        messageContains: "NSExceptionRequiresForwardSecrecy"),
    .init(
        label: "an unknown key", body: "<key>NSFrobnicate</key><true/>",
        rule: PlistRuleID.keyUnknown, severity: .warning, keyPath: "NSFrobnicate"),
    .init(
        label: "NSIncludesSubdomains at the global level", body: "<key>NSIncludesSubdomains</key><true/>",
        rule: PlistRuleID.keyWrongLevel, severity: .error, keyPath: "NSIncludesSubdomains"),
    .init(
        label: "NSAllowsArbitraryLoads inside a domain entry",
        body: domain("a.com", "<key>NSAllowsArbitraryLoads</key><true/>"),
        rule: PlistRuleID.keyWrongLevel, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSAllowsArbitraryLoads"),
    .init(
        label: "a domain key directly inside NSExceptionDomains",
        body: "<key>NSExceptionDomains</key><dict><key>NSIncludesSubdomains</key><true/></dict>",
        rule: PlistRuleID.keyWrongLevel, severity: .error, keyPath: "NSExceptionDomains.NSIncludesSubdomains"),
    .init(
        label: "an exception key inside a pinned domain",
        body: pinned("a.com", twoPins + "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        rule: PlistRuleID.keyWrongLevel, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSExceptionAllowsInsecureHTTPLoads"),
    .init(
        label: "domain keys differing only in case",
        body: "<key>NSExceptionDomains</key><dict><key>example.com</key><dict/><key>Example.com</key><dict/></dict>",
        rule: PlistRuleID.keyCaseDuplicate, severity: .error, keyPath: "NSExceptionDomains.Example.com",
        messageContains: "differ only in case"),
    .init(
        label: "ATS keys differing only in case",
        body: "<key>NSAllowsArbitraryLoads</key><false/><key>NSAllowsARBITRARYLoads</key><true/>",
        rule: PlistRuleID.keyCaseDuplicate, severity: .error, keyPath: "NSAllowsARBITRARYLoads"),
    .init(
        label: "a key written twice: only the last value takes effect",
        body: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoads</key><false/>",
        rule: PlistRuleID.keyDuplicate, severity: .error, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "only the last value takes effect"),
    // Value types (§3.4).
    .init(
        label: "the string YES is ignored", body: "<key>NSAllowsArbitraryLoads</key><string>YES</string>",
        rule: PlistRuleID.valueWrongType, severity: .error, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "treats the key as absent"),
    .init(
        label: "the number 2 is present but not YES", body: "<key>NSAllowsArbitraryLoads</key><integer>2</integer>",
        rule: PlistRuleID.valueWrongType, severity: .error, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "present but not YES"),
    .init(
        label: "the number 1 reads as YES", body: "<key>NSAllowsArbitraryLoads</key><integer>1</integer>",
        rule: PlistRuleID.valueNumericBoolean, severity: .warning, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "reads it as YES"),
    .init(
        label: "a per-domain string boolean uses the default",
        body: domain("a.com", "<key>NSExceptionRequiresForwardSecrecy</key><string>NO</string>"),
        rule: PlistRuleID.valueWrongType, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSExceptionRequiresForwardSecrecy", messageContains: "default (YES)"),
    .init(
        label: "minimum TLS 1.0 without prefix",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><string>1.0</string>"),
        rule: PlistRuleID.valueInvalidTLSVersion, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSExceptionMinimumTLSVersion",
        messageContains: "minimum stays TLSv1.2; did you mean TLSv1.0?"),
    .init(
        label: "minimum TLS in the wrong case",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSV1.2</string>"),
        rule: PlistRuleID.valueInvalidTLSVersion, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSExceptionMinimumTLSVersion", messageContains: "did you mean TLSv1.2?"),
    .init(
        label: "minimum TLS that is not a string",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><real>1.2</real>"),
        rule: PlistRuleID.valueWrongType, severity: .error,
        keyPath: "NSExceptionDomains.a.com.NSExceptionMinimumTLSVersion", messageContains: "stays TLSv1.2"),
    .init(
        label: "NSExceptionDomains that is an array", body: "<key>NSExceptionDomains</key><array/>",
        rule: PlistRuleID.valueWrongType, severity: .error, keyPath: "NSExceptionDomains",
        messageContains: "ignores every exception"),
    .init(
        label: "a domain entry that is a string",
        body: "<key>NSExceptionDomains</key><dict><key>a.com</key><string>yes</string></dict>",
        rule: PlistRuleID.valueWrongType, severity: .error, keyPath: "NSExceptionDomains.a.com"),
    .init(
        label: "an unknown NIAP value", body: "<key>NSRequiresNIAPTLSPackageVersion</key><string>FCP_v2.0</string>",
        rule: PlistRuleID.valueInvalidNIAP, severity: .error, keyPath: "NSRequiresNIAPTLSPackageVersion"),
    // Domain keys (§4.4).
    .init(
        label: "a scheme", body: domain("https://example.com"), rule: PlistRuleID.domainScheme, severity: .error,
        keyPath: "NSExceptionDomains.https://example.com", messageContains: "use example.com"),
    .init(
        label: "a port", body: domain("example.com:8443"), rule: PlistRuleID.domainPort, severity: .error,
        keyPath: "NSExceptionDomains.example.com:8443"),
    .init(
        label: "a path", body: domain("example.com/api"), rule: PlistRuleID.domainPath, severity: .error,
        keyPath: "NSExceptionDomains.example.com/api"),
    .init(
        label: "a wildcard", body: domain("*.example.com"), rule: PlistRuleID.domainWildcard, severity: .error,
        keyPath: "NSExceptionDomains.*.example.com", messageContains: "NSIncludesSubdomains"),
    .init(
        label: "a leading dot", body: domain(".example.com"), rule: PlistRuleID.domainLeadingDot, severity: .error,
        keyPath: "NSExceptionDomains..example.com"),
    .init(
        label: "upper case", body: domain("API.Example.com"), rule: PlistRuleID.domainUppercase, severity: .error,
        keyPath: "NSExceptionDomains.API.Example.com", messageContains: "use api.example.com"),
    .init(
        label: "a trailing dot", body: domain("example.com."), rule: PlistRuleID.domainTrailingDot, severity: .warning,
        keyPath: "NSExceptionDomains.example.com."),
    .init(
        label: "white space", body: domain("exa mple.com"), rule: PlistRuleID.domainInvalid, severity: .error,
        keyPath: "NSExceptionDomains.exa mple.com"),
    .init(
        label: "an IP address on iOS 17+", body: domain("192.0.2.10"), rule: PlistRuleID.domainIPAddress,
        severity: .note,
        keyPath: "NSExceptionDomains.192.0.2.10", messageContains: "iOS 17"),
    .init(
        label: "an IP address for an app that supports iOS 15", body: domain("192.0.2.10"),
        rule: PlistRuleID.domainIPAddress, severity: .warning, keyPath: "NSExceptionDomains.192.0.2.10",
        messageContains: "supports 15.0", deploymentTarget: "15.0"),
    .init(
        label: "an IPv6 address", body: domain("2001:db8::1"), rule: PlistRuleID.domainIPAddress, severity: .note,
        keyPath: "NSExceptionDomains.2001:db8::1"),
    .init(
        label: "a CIDR range", body: domain("10.0.0.0/8"), rule: PlistRuleID.domainCIDR, severity: .note,
        keyPath: "NSExceptionDomains.10.0.0.0/8"),
    .init(
        label: "an invalid CIDR range", body: domain("10.0.0.0/40"), rule: PlistRuleID.domainInvalidCIDR,
        severity: .error, keyPath: "NSExceptionDomains.10.0.0.0/40"),
    .init(
        label: "NSIncludesSubdomains on an IP", body: domain("192.0.2.10", "<key>NSIncludesSubdomains</key><true/>"),
        rule: PlistRuleID.domainSubdomainsOnIP, severity: .error,
        keyPath: "NSExceptionDomains.192.0.2.10.NSIncludesSubdomains"),
    .init(
        label: "a scheme on a pinned domain", body: pinned("https://a.com", twoPins), rule: PlistRuleID.domainScheme,
        severity: .error, keyPath: "NSPinnedDomains.https://a.com"),
    // Legacy keys (§3.2).
    .init(
        label: "NSTemporary… key",
        body: domain("a.com", "<key>NSTemporaryExceptionAllowsInsecureHTTPLoads</key><true/>"),
        rule: PlistRuleID.keyDeprecated, severity: .warning,
        keyPath: "NSExceptionDomains.a.com.NSTemporaryExceptionAllowsInsecureHTTPLoads",
        messageContains: "use NSExceptionAllowsInsecureHTTPLoads"),
    .init(
        label: "NSThirdParty… key",
        body: domain("a.com", "<key>NSThirdPartyExceptionMinimumTLSVersion</key><string>TLSv1.0</string>"),
        rule: PlistRuleID.keyDeprecated, severity: .warning,
        keyPath: "NSExceptionDomains.a.com.NSThirdPartyExceptionMinimumTLSVersion",
        messageContains: "use NSExceptionMinimumTLSVersion"),
    .init(
        label: "NSRequiresCertificateTransparency",
        body: domain("a.com", "<key>NSRequiresCertificateTransparency</key><true/>"),
        rule: PlistRuleID.keyObsolete, severity: .warning,
        keyPath: "NSExceptionDomains.a.com.NSRequiresCertificateTransparency"),
    // Dead keys (§4.1, §4.3).
    .init(
        label: "AAL ignored because InWebContent is present even as false",
        body: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><false/>",
        rule: PlistRuleID.deadArbitraryLoadsIgnored, severity: .error, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "NSAllowsArbitraryLoadsInWebContent = NO"),
    .init(
        label: "AAL ignored because of NSAllowsLocalNetworking",
        body: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsLocalNetworking</key><true/>",
        rule: PlistRuleID.deadArbitraryLoadsIgnored, severity: .error, keyPath: "NSAllowsArbitraryLoads"),
    .init(
        label: "AAL kept for iOS 9 is a note",
        body: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsForMedia</key><true/>",
        rule: PlistRuleID.deadArbitraryLoadsIgnored, severity: .note, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "only on iOS 9", deploymentTarget: "9.0"),
    .init(
        label: "AAL does not reach a host whose entry relaxes PFS",
        body: "<key>NSAllowsArbitraryLoads</key><true/>"
            + domain("legacy.example.com", "<key>NSExceptionRequiresForwardSecrecy</key><false/>"),
        rule: PlistRuleID.deadGlobalKeysShadowed, severity: .warning, keyPath: "NSExceptionDomains.legacy.example.com",
        messageContains: "NSAllowsArbitraryLoads does not reach legacy.example.com"),
    .init(
        label: "the inverted pattern is a note",
        body: "<key>NSAllowsArbitraryLoads</key><true/>" + domain("secure.example.com"),
        rule: PlistRuleID.deadGlobalKeysShadowed, severity: .note, keyPath: "NSExceptionDomains.secure.example.com"),
    .init(
        label: "local networking does not reach a .local entry",
        body: "<key>NSAllowsLocalNetworking</key><true/>" + domain("printer.local"),
        rule: PlistRuleID.deadGlobalKeysShadowed, severity: .note, keyPath: "NSExceptionDomains.printer.local",
        messageContains: "NSAllowsLocalNetworking"),
    // App Review (§3.1).
    .init(
        label: "review: NSAllowsArbitraryLoads", body: "<key>NSAllowsArbitraryLoads</key><true/>",
        rule: PlistRuleID.reviewJustification, severity: .note, keyPath: "NSAllowsArbitraryLoads",
        messageContains: "NSAllowsArbitraryLoads = YES"),
    .init(
        label: "review: InWebContent", body: "<key>NSAllowsArbitraryLoadsInWebContent</key><true/>",
        rule: PlistRuleID.reviewJustification, severity: .note, keyPath: "NSAllowsArbitraryLoadsInWebContent"),
    .init(
        label: "review: ForMedia", body: "<key>NSAllowsArbitraryLoadsForMedia</key><true/>",
        rule: PlistRuleID.reviewJustification, severity: .note, keyPath: "NSAllowsArbitraryLoadsForMedia"),
    .init(
        label: "review: insecure HTTP loads",
        body: domain("a.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        rule: PlistRuleID.reviewJustification, severity: .note,
        keyPath: "NSExceptionDomains.a.com.NSExceptionAllowsInsecureHTTPLoads"),
    .init(
        label: "review: TLS 1.1 minimum",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string>"),
        rule: PlistRuleID.reviewJustification, severity: .note,
        keyPath: "NSExceptionDomains.a.com.NSExceptionMinimumTLSVersion", messageContains: "TLSv1.1"),
    // Pinning (§3.3).
    .init(
        label: "a pinned domain without identities", body: pinned("a.com", "<key>NSIncludesSubdomains</key><true/>"),
        rule: PlistRuleID.pinningNoIdentities, severity: .error, keyPath: "NSPinnedDomains.a.com"),
    .init(
        label: "an empty identity array", body: pinned("a.com", twoPins + "<key>NSPinnedCAIdentities</key><array/>"),
        rule: PlistRuleID.pinningEmptyIdentities, severity: .warning,
        keyPath: "NSPinnedDomains.a.com.NSPinnedCAIdentities"),
    .init(
        label: "an identity without SPKI-SHA256-BASE64",
        body: pinned("a.com", "<key>NSPinnedLeafIdentities</key><array><dict/></array>"),
        rule: PlistRuleID.pinningMissingSPKI, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.0"),
    .init(
        label: "a misspelled identity key",
        body: pinned(
            "a.com",
            "<key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE46</key><string>x</string></dict></array>"
        ),
        rule: PlistRuleID.keyMisspelled, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.0.SPKI-SHA256-BASE46",
        messageContains: "SPKI-SHA256-BASE64"),
    .init(
        label: "a pin that is not Base64",
        body: pinned("a.com", pins("NSPinnedLeafIdentities", ["not base64!", PlistFixtures.pin(1)])),
        rule: PlistRuleID.pinningInvalidBase64, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.0.SPKI-SHA256-BASE64"),
    .init(
        label: "a pin in hex",
        body: pinned(
            "a.com", pins("NSPinnedCAIdentities", [String(repeating: "ab", count: 32), PlistFixtures.pin(1)])),
        rule: PlistRuleID.pinningWrongDigestLength, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSPinnedCAIdentities.0.SPKI-SHA256-BASE64",
        messageContains: "looks like a hex digest"),
    .init(
        label: "a SHA-1 sized pin",
        body: pinned(
            "a.com", pins("NSPinnedLeafIdentities", [Data(count: 20).base64EncodedString(), PlistFixtures.pin(1)])),
        rule: PlistRuleID.pinningWrongDigestLength, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.0.SPKI-SHA256-BASE64", messageContains: "20 bytes"),
    .init(
        label: "an identity that is a string",
        body: pinned("a.com", "<key>NSPinnedLeafIdentities</key><array><string>abc</string></array>"),
        rule: PlistRuleID.valueWrongType, severity: .error, keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.0"),
    .init(
        label: "identities that are a dictionary",
        body: pinned("a.com", twoPins + "<key>NSPinnedCAIdentities</key><dict/>"),
        rule: PlistRuleID.valueWrongType, severity: .error, keyPath: "NSPinnedDomains.a.com.NSPinnedCAIdentities"),
    .init(
        label: "a single pin", body: pinned("a.com", pins("NSPinnedLeafIdentities", [PlistFixtures.pin(7)])),
        rule: PlistRuleID.pinningNoBackup, severity: .warning, keyPath: "NSPinnedDomains.a.com"),
    // Issue 32: what an entry reaches and relaxes, placeholders, build settings.
    .init(
        label: "insecure HTTP with subdomains on onion covers every .onion name",
        body: domain(
            "onion",
            "<key>NSIncludesSubdomains</key><true/><key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        rule: PlistRuleID.domainSubdomainsOnTLD, severity: .note,
        keyPath: "NSExceptionDomains.onion.NSIncludesSubdomains",
        messageContains: "every host name ending in .onion"),
    .init(
        label: "forward secrecy off adds RSA key exchange and drops the key-size check",
        body: domain("a.com", "<key>NSExceptionRequiresForwardSecrecy</key><false/>"),
        rule: PlistRuleID.valueForwardSecrecyOff, severity: .note,
        keyPath: "NSExceptionDomains.a.com.NSExceptionRequiresForwardSecrecy", messageContains: "RSA key exchange"),
    .init(
        label: "a placeholder backup pin beside two real ones is a note",
        body: pinned(
            "a.com",
            pins(
                "NSPinnedLeafIdentities",
                [PlistFixtures.pin(1), PlistFixtures.pin(2), String(repeating: "A", count: 43) + "="])),
        rule: PlistRuleID.pinningPlaceholder, severity: .note,
        keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.2.SPKI-SHA256-BASE64", messageContains: "no backup"),
    .init(
        label: "placeholder pins only: an error, nothing can connect",
        body: pinned(
            "a.com",
            pins(
                "NSPinnedLeafIdentities",
                [String(repeating: "A", count: 43) + "=", String(repeating: "B", count: 43) + "="])),
        rule: PlistRuleID.pinningPlaceholder, severity: .error,
        keyPath: "NSPinnedDomains.a.com.NSPinnedLeafIdentities.0.SPKI-SHA256-BASE64",
        messageContains: "every connection to it fails"),
    .init(
        label: "an exception domain from a build setting that is not given",
        body: domain("$(API_HOST)", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        rule: PlistRuleID.sourceUnresolvedSetting, severity: .warning, keyPath: "NSExceptionDomains.$(API_HOST)",
        messageContains: "--build-setting API_HOST=VALUE"),
]

let negativeCases: [CleanCase] = [
    .init(
        label: "TLSv1.2 minimum is not a weakness nor a review item",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string>"),
        absent: PlistRuleID.reviewJustification),
    .init(
        label: "TLSv1.2 minimum is valid",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string>"),
        absent: PlistRuleID.valueInvalidTLSVersion),
    .init(
        label: "TLSv1.3 minimum is valid",
        body: domain("a.com", "<key>NSExceptionMinimumTLSVersion</key><string>TLSv1.3</string>"),
        absent: PlistRuleID.valueInvalidTLSVersion),
    .init(
        label: "AAL = false needs no justification", body: "<key>NSAllowsArbitraryLoads</key><false/>",
        absent: PlistRuleID.reviewJustification),
    .init(
        label: "boolean false is a valid value", body: "<key>NSAllowsArbitraryLoads</key><false/>",
        absent: PlistRuleID.valueWrongType),
    .init(
        label: "InWebContent = false needs no justification",
        body: "<key>NSAllowsArbitraryLoadsInWebContent</key><false/>",
        absent: PlistRuleID.reviewJustification),
    .init(
        label: "AAL alone is not overridden", body: "<key>NSAllowsArbitraryLoads</key><true/>",
        absent: PlistRuleID.deadArbitraryLoadsIgnored),
    .init(
        label: "AAL = NO with InWebContent is not a dead-key error",
        body: "<key>NSAllowsArbitraryLoads</key><false/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>",
        absent: PlistRuleID.deadArbitraryLoadsIgnored),
    .init(
        label: "a string InWebContent is absent, so AAL stays in force",
        body:
            "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><string>YES</string>",
        absent: PlistRuleID.deadArbitraryLoadsIgnored),
    .init(
        label: "iOS 9 rules read only AAL",
        body: "<key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><true/>",
        absent: PlistRuleID.deadArbitraryLoadsIgnored, osVersion: "9.3"),
    .init(
        label: "an entry allowing insecure loads is not shadowed",
        body: "<key>NSAllowsArbitraryLoads</key><true/>"
            + domain("a.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        absent: PlistRuleID.deadGlobalKeysShadowed),
    .init(
        label: "no global relaxation, nothing shadowed",
        body: domain("a.com", "<key>NSExceptionRequiresForwardSecrecy</key><false/>"),
        absent: PlistRuleID.deadGlobalKeysShadowed),
    .init(
        label: "local networking does not concern public names",
        body: "<key>NSAllowsLocalNetworking</key><true/>" + domain("api.example.com"),
        absent: PlistRuleID.deadGlobalKeysShadowed),
    .init(
        label: "NSIncludesSubdomains = false on an IP is harmless",
        body: domain("192.0.2.10", "<key>NSIncludesSubdomains</key><false/>"), absent: PlistRuleID.domainSubdomainsOnIP),
    .init(
        label: "NSIncludesSubdomains on a name is fine",
        body: domain("a.com", "<key>NSIncludesSubdomains</key><true/>"),
        absent: PlistRuleID.domainSubdomainsOnIP),
    .init(
        label: "pinned domains compare case-insensitively", body: pinned("API.example.com", twoPins),
        absent: PlistRuleID.domainUppercase),
    .init(label: "a lower-case name is not an IP", body: domain("a.com"), absent: PlistRuleID.domainIPAddress),
    .init(label: "two pins are a backup", body: pinned("a.com", twoPins), absent: PlistRuleID.pinningNoBackup),
    .init(
        label: "real pins are no placeholders", body: pinned("a.com", twoPins), absent: PlistRuleID.pinningPlaceholder),
    .init(
        label: "subdomains of a registrable name are not a top-level name",
        body: domain("example.com", "<key>NSIncludesSubdomains</key><true/>"), absent: PlistRuleID.domainSubdomainsOnTLD
    ),
    .init(
        label: "an unresolved exception key is not reported as an invalid host name",
        body: domain("$(API_HOST)"), absent: PlistRuleID.domainInvalid),
    .init(
        label: "correct keys are not misspelled",
        body: "<key>NSAllowsLocalNetworking</key><true/>" + domain("a.com", "<key>NSIncludesSubdomains</key><true/>"),
        absent: PlistRuleID.keyMisspelled),
    .init(
        label: "current keys are not deprecated",
        body: domain("a.com", "<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>"),
        absent: PlistRuleID.keyDeprecated),
]

@Suite("PlistLinter")
struct PlistLinterTests {
    @Test("each rule fires", arguments: positiveCases)
    func ruleFires(_ c: LintCase) throws {
        let findings = try PlistFixtures.lint(c.body, options: .init(deploymentTarget: c.deploymentTarget))
        let keyPath = "NSAppTransportSecurity." + c.keyPath
        let match = findings.first { $0.rule == c.rule && $0.keyPath == keyPath }
        let found = try #require(
            match, "expected \(c.rule) at \(keyPath); got \(findings.map { "\($0.rule)@\($0.keyPath ?? "-")" })")
        #expect(found.severity == c.severity)
        #expect(found.file == "Info.plist")
        #expect(found.line != nil, "XML findings carry a line")
        if !c.messageContains.isEmpty {
            #expect(found.message.contains(c.messageContains), "message: \(found.message)")
        }
    }

    @Test("each rule stays quiet when it should", arguments: negativeCases)
    func ruleQuiet(_ c: CleanCase) throws {
        let findings = try PlistFixtures.lint(c.body, options: .init(osVersion: c.osVersion))
        #expect(!findings.contains { $0.rule == c.absent }, "unexpected: \(findings.filter { $0.rule == c.absent })")
    }

    @Test("a correct dictionary has no findings at all")
    func cleanDictionary() throws {
        let body =
            domain(
                "api.example.com",
                "<key>NSIncludesSubdomains</key><true/><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.2</string>"
                    + "<key>NSExceptionRequiresForwardSecrecy</key><false/>")
            + pinned("api.example.com", twoPins + pins("NSPinnedCAIdentities", [PlistFixtures.pin(3)]))
            + "<key>NSAllowsLocalNetworking</key><true/>"
        // NSExceptionRequiresForwardSecrecy = NO is correct but relaxes something: its note is the only finding.
        #expect(try PlistFixtures.lint(body).map(\.rule) == [PlistRuleID.valueForwardSecrecyOff])
    }

    @Test("every emitted rule is in the catalogue, with its usual severity or a documented variant")
    func catalogueCoversRules() throws {
        let ids = Set(RuleRegistry.plist.entries.map(\.id))
        #expect(ids.count == RuleRegistry.plist.entries.count, "duplicate ids")
        for c in positiveCases { #expect(ids.contains(c.rule), "\(c.rule) missing from the catalogue") }
        #expect(RuleRegistry.plist.descriptor(for: PlistRuleID.keyMisspelled)?.title.isEmpty == false)
    }

    @Test("line numbers point at the <key> element")
    func lineNumbers() throws {
        let data = PlistFixtures.xml(
            """
            <dict>
              <key>NSAppTransportSecurity</key>
              <dict>
                <key>NSAllowArbitraryLoads</key>
                <true/>
                <key>NSExceptionDomains</key>
                <dict>
                  <key>Example.com</key>
                  <dict>
                    <key>NSExceptionMinimumTLSVersion</key>
                    <string>1.0</string>
                  </dict>
                </dict>
              </dict>
            </dict>
            """)
        let findings = PlistLinter.lint(try PlistDocument.parse(data: data, file: "Info.plist"))
        func line(_ rule: RuleID) -> Int? { findings.first { $0.rule == rule }?.line }
        #expect(line(PlistRuleID.keyMisspelled) == 7)
        #expect(line(PlistRuleID.domainUppercase) == 11)
        #expect(line(PlistRuleID.valueInvalidTLSVersion) == 13)
        #expect(findings.map { $0.line ?? 0 } == findings.map { $0.line ?? 0 }.sorted(), "ordered by line")
    }

    @Test("a binary plist gives the same findings, without lines")
    func binaryPlist() throws {
        let ats: [String: Any] = [
            "NSAllowsArbitraryLoads": "YES",
            "NSExceptionDomains": [
                "*.example.com": ["NSIncludesSubdomain": true],
                "api.example.com": [
                    "NSExceptionMinimumTLSVersion": "TLSv1.0", "NSExceptionRequiresForwardSecrecy": false,
                ],
            ],
        ]
        let doc = try PlistDocument.parse(
            data: PlistFixtures.binary(["NSAppTransportSecurity": ats]), file: "Info.plist")
        #expect(doc.format == .binary)
        let findings = PlistLinter.lint(doc)
        let rules = Set(findings.map(\.rule))
        #expect(
            rules == [
                PlistRuleID.valueWrongType, PlistRuleID.domainWildcard, PlistRuleID.keyMisspelled,
                PlistRuleID.reviewJustification, PlistRuleID.valueForwardSecrecyOff,
            ], "\(findings)")
        #expect(findings.allSatisfy { $0.line == nil })
        #expect(
            findings.contains {
                $0.rule == PlistRuleID.reviewJustification
                    && $0.keyPath
                        == "NSAppTransportSecurity.NSExceptionDomains.api.example.com.NSExceptionMinimumTLSVersion"
            })
    }

    @Test("a bare ATS dictionary reports key paths under NSAppTransportSecurity, with lines")
    func bareDictionary() throws {
        let data = PlistFixtures.xml("<dict>\n<key>NSIncludesSubdomains</key>\n<true/>\n</dict>")
        let findings = PlistLinter.lint(try PlistDocument.parse(data: data, file: "ats.plist"))
        #expect(findings.count == 1)
        #expect(findings.first?.rule == PlistRuleID.keyWrongLevel)
        #expect(findings.first?.keyPath == "NSAppTransportSecurity.NSIncludesSubdomains")
        #expect(findings.first?.line == 5)
    }

    @Test("Info.plist level: ATS keys beside NSAppTransportSecurity are at the wrong level")
    func atsKeyAtRoot() throws {
        let data = PlistFixtures.xml(
            "<dict>\n<key>CFBundleName</key><string>A</string>\n<key>NSAllowsArbitraryLoads</key><true/>\n<key>NSAppTransportSecurity</key><dict/>\n</dict>"
        )
        let findings = PlistLinter.lint(try PlistDocument.parse(data: data, file: "Info.plist"))
        let f = try #require(findings.first { $0.rule == PlistRuleID.keyWrongLevel })
        #expect(f.keyPath == "NSAllowsArbitraryLoads")
        #expect(f.line == 6)
        #expect(f.message.contains("move it inside NSAppTransportSecurity"))
    }

    @Test("Info.plist level: a misspelled NSAppTransportSecurity")
    func misspelledContainer() throws {
        let data = PlistFixtures.xml(
            "<dict><key>CFBundleName</key><string>A</string><key>NSAppTransportSecurty</key><dict/></dict>")
        let findings = PlistLinter.lint(try PlistDocument.parse(data: data, file: "Info.plist"))
        #expect(findings.map(\.rule) == [PlistRuleID.keyMisspelled])
        #expect(findings.first?.message.contains("did you mean NSAppTransportSecurity?") == true)
    }

    @Test("Info.plist level: no ATS dictionary is a note; a non-dictionary one is an error")
    func absentOrWrongContainer() throws {
        let absent = PlistLinter.lint(
            try PlistDocument.parse(
                data: PlistFixtures.xml("<dict><key>CFBundleName</key><string>A</string></dict>"), file: "I"))
        #expect(absent.map(\.rule) == [PlistRuleID.atsAbsent])
        #expect(absent.first?.severity == .note)
        let wrong = PlistLinter.lint(
            try PlistDocument.parse(
                data: PlistFixtures.xml("<dict><key>NSAppTransportSecurity</key><string>off</string></dict>"), file: "I"
            ))
        #expect(wrong.map(\.rule) == [PlistRuleID.valueWrongType])
        #expect(wrong.first?.severity == .error)
    }

    @Test("the Info.plist's MinimumOSVersion is the deployment target when none is given")
    func minimumOSVersionFromPlist() throws {
        let data = PlistFixtures.xml(
            "<dict><key>MinimumOSVersion</key><string>16.0</string><key>NSAppTransportSecurity</key><dict>"
                + domain("192.0.2.1") + "</dict></dict>")
        let doc = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(PlistLinter.lint(doc).first { $0.rule == PlistRuleID.domainIPAddress }?.severity == .warning)
        #expect(
            PlistLinter.lint(doc, options: .init(deploymentTarget: "17.0")).first {
                $0.rule == PlistRuleID.domainIPAddress
            }?
            .severity == .note)
    }

    @Test(
        "a macOS app's LSMinimumSystemVersion is its deployment target, named as macOS, when MinimumOSVersion is absent"
    )
    func lsMinimumSystemVersionFromPlist() throws {
        func ipFinding(_ minimum: String) throws -> Finding? {
            let data = PlistFixtures.xml(
                "<dict><key>LSMinimumSystemVersion</key><string>\(minimum)</string><key>NSAppTransportSecurity</key><dict>"
                    + domain("192.0.2.1") + "</dict></dict>")
            return PlistLinter.lint(try PlistDocument.parse(data: data, file: "Info.plist"))
                .first { $0.rule == PlistRuleID.domainIPAddress }
        }
        // macOS 13 has iOS 16's rules: an IP-address key is not honoured yet.
        let ventura = try #require(try ipFinding("13.0"))
        #expect(ventura.severity == .warning)
        #expect(ventura.message.contains("this app supports macOS 13.0"), "\(ventura.message)")
        // macOS 14 = iOS 17: honoured, only a note.
        #expect(try ipFinding("14.0")?.severity == .note)
    }

    @Test(
        "did-you-mean suggestions",
        arguments: [
            ("NSIncludesSubdomain", "NSIncludesSubdomains"), ("NSAllowArbitraryLoads", "NSAllowsArbitraryLoads"),
            ("NSExceptionAllowsInsecureHttpLoads", "NSExceptionAllowsInsecureHTTPLoads"),
            ("NSPinnedLeafIdentity", "NSPinnedLeafIdentities"),
        ])
    func suggestions(_ pair: (String, String)) {
        #expect(KeySuggestion.suggest(for: pair.0) == pair.1)
    }

    @Test("nothing is suggested for unrelated keys")
    func noSuggestion() {
        #expect(KeySuggestion.suggest(for: "CFBundleIdentifier") == nil)
        #expect(KeySuggestion.suggest(for: "NSFrobnicate") == nil)
    }
}
