/// The `NSAppTransportSecurity` keys atscheck knows, with where each may appear and its type
/// (`docs/apple-rules.md` §3.1, §3.2). The single catalogue that the plist parser, the
/// validator and the policy engine share.
package struct ATSKey: Hashable, Sendable, CustomStringConvertible {
    /// Where a key may appear.
    package enum Level: String, Sendable {
        /// Directly inside `NSAppTransportSecurity`.
        case global
        /// Inside an `NSExceptionDomains` entry.
        case exceptionDomain
        /// Inside an `NSPinnedDomains` entry.
        case pinnedDomain
        /// Inside an element of `NSPinnedCAIdentities` / `NSPinnedLeafIdentities`.
        case pinnedIdentity
    }

    /// The plist type a key must have.
    package enum ValueType: String, Sendable {
        case boolean, string, dictionary, array
    }

    /// Whether Apple still honours a key.
    package enum Status: String, Sendable {
        case current
        /// Obsolete but harmless (e.g. `NSRequiresCertificateTransparency`).
        case obsolete
        /// iOS 9-era spellings that Apple removed from its docs (probably ignored today).
        case deprecated
    }

    package var name: String
    package var levels: Set<Level>
    package var type: ValueType
    package var status: Status
    /// Whether App Review asks for a justification when the key relaxes ATS (§3.1).
    package var needsReviewJustification: Bool
    /// The first OS release (iOS numbering) that reads the key: the version of an era of ``AppleOSEra/all``.
    package var introduced: AppleOSVersion

    package var description: String { name }

    package init(
        _ name: String, _ levels: Set<Level>, _ type: ValueType, status: Status = .current,
        review: Bool = false, introduced: AppleOSEra.Change = .ats
    ) {
        self.name = name
        self.levels = levels
        self.type = type
        self.status = status
        self.needsReviewJustification = review
        self.introduced = AppleOSEra.introducing(introduced).version
    }
}

extension ATSKey {
    package static let appTransportSecurity = "NSAppTransportSecurity"

    // Global keys.
    package static let allowsArbitraryLoads = ATSKey("NSAllowsArbitraryLoads", [.global], .boolean, review: true)
    package static let allowsArbitraryLoadsForMedia = ATSKey(
        "NSAllowsArbitraryLoadsForMedia", [.global], .boolean, review: true, introduced: .fineGrainedGlobalKeys)
    package static let allowsArbitraryLoadsInWebContent = ATSKey(
        "NSAllowsArbitraryLoadsInWebContent", [.global], .boolean, review: true, introduced: .fineGrainedGlobalKeys)
    package static let allowsLocalNetworking = ATSKey(
        "NSAllowsLocalNetworking", [.global], .boolean, introduced: .fineGrainedGlobalKeys)
    package static let exceptionDomains = ATSKey("NSExceptionDomains", [.global], .dictionary)
    package static let pinnedDomains = ATSKey("NSPinnedDomains", [.global], .dictionary, introduced: .pinnedDomains)
    package static let requiresNIAPTLSPackageVersion = ATSKey(
        "NSRequiresNIAPTLSPackageVersion", [.global], .string, introduced: .niapPackage)

    // Exception-domain keys.
    package static let includesSubdomains = ATSKey("NSIncludesSubdomains", [.exceptionDomain, .pinnedDomain], .boolean)
    package static let exceptionAllowsInsecureHTTPLoads = ATSKey(
        "NSExceptionAllowsInsecureHTTPLoads", [.exceptionDomain], .boolean, review: true)
    package static let exceptionMinimumTLSVersion = ATSKey(
        "NSExceptionMinimumTLSVersion", [.exceptionDomain], .string, review: true)
    package static let exceptionRequiresForwardSecrecy = ATSKey(
        "NSExceptionRequiresForwardSecrecy", [.exceptionDomain], .boolean)
    package static let requiresCertificateTransparency = ATSKey(
        "NSRequiresCertificateTransparency", [.exceptionDomain], .boolean, status: .obsolete)
    package static let exceptionRequiresNIAPTLSPackageVersion = ATSKey(
        "NSExceptionRequiresNIAPTLSPackageVersion", [.exceptionDomain], .string, introduced: .niapPackage)

    // Pinned-domain keys.
    package static let pinnedCAIdentities = ATSKey(
        "NSPinnedCAIdentities", [.pinnedDomain], .array, introduced: .pinnedDomains)
    package static let pinnedLeafIdentities = ATSKey(
        "NSPinnedLeafIdentities", [.pinnedDomain], .array, introduced: .pinnedDomains)
    package static let spkiSHA256Base64 = ATSKey(
        "SPKI-SHA256-BASE64", [.pinnedIdentity], .string, introduced: .pinnedDomains)

    // iOS 9-era spellings (§3.2): not read by current Security sources.
    package static let deprecated: [ATSKey] = [
        "NSThirdPartyExceptionAllowsInsecureHTTPLoads", "NSThirdPartyExceptionMinimumTLSVersion",
        "NSThirdPartyExceptionRequiresForwardSecrecy", "NSTemporaryExceptionAllowsInsecureHTTPLoads",
        "NSTemporaryExceptionMinimumTLSVersion", "NSTemporaryExceptionRequiresForwardSecrecy",
        "NSTemporaryExceptionAllowsInsecureHTTPSLoads", "NSTemporaryThirdPartyExceptionAllowsInsecureHTTPLoads",
        "NSTemporaryThirdPartyExceptionMinimumTLSVersion", "NSTemporaryThirdPartyExceptionRequiresForwardSecrecy",
    ].map { name in
        ATSKey(
            name, [.exceptionDomain], name.contains("MinimumTLSVersion") ? .string : .boolean, status: .deprecated,
            review: name.contains("Insecure"))
    }

    /// Every key atscheck knows, current, obsolete and deprecated.
    package static let all: [ATSKey] =
        [
            allowsArbitraryLoads, allowsArbitraryLoadsForMedia, allowsArbitraryLoadsInWebContent, allowsLocalNetworking,
            exceptionDomains, pinnedDomains, requiresNIAPTLSPackageVersion, includesSubdomains,
            exceptionAllowsInsecureHTTPLoads, exceptionMinimumTLSVersion, exceptionRequiresForwardSecrecy,
            requiresCertificateTransparency, exceptionRequiresNIAPTLSPackageVersion, pinnedCAIdentities,
            pinnedLeafIdentities, spkiSHA256Base64,
        ] + deprecated

    /// Looks a key up by its exact name.
    package static func named(_ name: String) -> ATSKey? { all.first { $0.name == name } }

    /// Keys that never existed but are common mistakes (§3.2), with the key meant.
    package static let knownMistakes: [String: String] = [
        "NSAllowsArbitraryLoadsInMedia": "NSAllowsArbitraryLoadsForMedia",
        "NSExceptionAllowsLocalNetworking": "NSAllowsLocalNetworking",
        "NSIncludesSubdomain": "NSIncludesSubdomains",
        "NSAllowArbitraryLoads": "NSAllowsArbitraryLoads",
    ]

    /// Valid values of `NSExceptionMinimumTLSVersion` (exact, case-sensitive; §3.4).
    package static let validMinimumTLSVersions: [String] = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
    /// Values of the NIAP keys.
    package static let validNIAPValues: [String] = ["none", "FCP_v2.1", "recommended"]
}
