/// One Apple OS era: a release (iOS-family numbering) from which some ATS or trust rule changes, or a new major
/// release whose rules atscheck knows. ``all`` is the one table that every list, label, predicate and macOS mapping
/// reads (issue 21): `--os-version`'s values, the eras `app` and `plist --explain` judge under, the rules' `os >= …`
/// checks, ``ATSKey/introduced`` and the macOS → iOS numbering of `LSMinimumSystemVersion`.
///
/// To add an era: add its row (version, the macOS release that shipped with it, what changes, the source), then
/// give the rules that change a predicate on ``AppleOSVersion`` reading ``Change``.
package struct AppleOSEra: Sendable, Hashable, CustomStringConvertible {
    /// A rule that starts to apply with an era (reference sections in brackets).
    package enum Change: String, Sendable, CaseIterable {
        /// ATS exists (§0): only `NSAllowsArbitraryLoads` and the exception keys.
        case ats
        /// `NSAllowsLocalNetworking`, `…InWebContent`, `…ForMedia` exist and override `NSAllowsArbitraryLoads`;
        /// local names exempt (§4.1, §4.5).
        case fineGrainedGlobalKeys
        /// System trust refuses RSA < 2048 and SHA-1 (§2.1).
        case weakCertificatesRefused
        /// Certificate Transparency enforced for publicly trusted leaves (§2.1, §2.2).
        case certificateTransparency
        /// Whether TLS 1.3 is offered is disputed (§1.4 CONFLICT).
        case tls13Disputed
        /// TLS 1.3 offered by default (§1.4).
        case tls13Offered
        /// Support article 103769: whole-chain key sizes, SHA-2, SAN-only names, serverAuth EKU, 825 days (§2.1).
        case iOS13CertificateRules
        /// The TLS 1.2 ATS group is SRC's `CiphersuitesPFS` of Security-59306 … 60157 (§1.2).
        case sourceSuitesUpTo2022
        /// The TLS 1.2 ATS group loses the CBC-SHA256/384 suites (Security-60158.100.133, §1.2).
        case sourceSuites2022
        /// `NSPinnedDomains` exists (§3.1).
        case pinnedDomains
        /// Per-domain booleans written as numbers are read by value, as current SRC does: Security-61439.101.1, the
        /// release that added CIDR keys to the source; before it, how a number reads is a CONFLICT (§3.4).
        case perDomainNumbersByValue
        /// IP literals are under ATS, may be exception keys; CIDR keys exist (§4.5).
        case ipLiteralsUnderATS
        /// `NSRequiresNIAPTLSPackageVersion` exists (§1.4, §3.1).
        case niapPackage
    }

    /// The first release of the era, iOS-family numbering.
    package let version: AppleOSVersion
    /// The macOS release that shipped with it and shares its rules; nil when no macOS release starts it.
    package let macOS: AppleOSVersion?
    /// The rules that start to apply here.
    package let changes: Set<Change>
    /// Whether atscheck judges under it as an era of its own (`--os-version` lists it; `app` and the explainer
    /// cut there): every major release, and every minor one whose changes a verdict can see. A pairing-only row
    /// (macOS 15.4 = iOS 18.4) keeps the macOS mapping exact without adding an era.
    package let judged: Bool
    /// Where the row comes from.
    package let source: String

    init(
        _ version: AppleOSVersion, macOS: AppleOSVersion?, _ changes: Set<Change> = [], judged: Bool = true,
        source: String
    ) {
        self.version = version
        self.macOS = macOS
        self.changes = changes
        self.judged = judged
        self.source = source
    }

    /// `15`, `15.4`, `26.4`: the version with a `.0` dropped.
    package var label: String { Self.label(version) }

    package var description: String { "iOS \(label)" }

    /// `15`, `15.4`, `26.4.1` (`.0` minor dropped).
    package static func label(_ version: AppleOSVersion) -> String {
        version.minor == 0 && version.patch == 0 ? "\(version.major)" : version.description
    }

    private static let pairs = "the releases Apple shipped together share ATS and trust rules (docs/apple-rules.md §0)"

    /// The table, oldest first. Sources: docs/apple-rules.md (the section of each change); macOS pairs: Apple's release
    /// pairs (iOS 15.4 came with macOS 12.3, 18.4 with 15.4; macOS skipped 16–25 as iOS skipped 19–25).
    package static let all: [AppleOSEra] = [
        AppleOSEra(AppleOSVersion(9), macOS: AppleOSVersion(10, 11), [.ats], source: "docs/apple-rules.md §0"),
        AppleOSEra(
            AppleOSVersion(10), macOS: AppleOSVersion(10, 12), [.fineGrainedGlobalKeys],
            source: "docs/apple-rules.md §4.1, §4.5"),
        AppleOSEra(
            AppleOSVersion(11), macOS: AppleOSVersion(10, 13), [.weakCertificatesRefused],
            source: "docs/apple-rules.md §2.1"),
        AppleOSEra(AppleOSVersion(12), macOS: AppleOSVersion(10, 14), source: pairs),
        AppleOSEra(
            AppleOSVersion(12, 1), macOS: nil, [.certificateTransparency], source: "docs/apple-rules.md §2.1, §2.2"),
        AppleOSEra(AppleOSVersion(12, 2), macOS: nil, [.tls13Disputed], source: "docs/apple-rules.md §1.4 CONFLICT"),
        AppleOSEra(
            AppleOSVersion(13), macOS: AppleOSVersion(10, 15),
            [.tls13Offered, .iOS13CertificateRules, .sourceSuitesUpTo2022],
            source: "docs/apple-rules.md §1.2, §1.4, §2.1 (support article 103769)"),
        AppleOSEra(AppleOSVersion(14), macOS: AppleOSVersion(11), [.pinnedDomains], source: "docs/apple-rules.md §3.1"),
        AppleOSEra(AppleOSVersion(15), macOS: AppleOSVersion(12), source: pairs),
        AppleOSEra(
            AppleOSVersion(15, 4), macOS: AppleOSVersion(12, 3), [.sourceSuites2022],
            source: "docs/apple-rules.md §1.2 (Security-60158.100.133)"),
        AppleOSEra(AppleOSVersion(16), macOS: AppleOSVersion(13), source: pairs),
        AppleOSEra(
            AppleOSVersion(17), macOS: AppleOSVersion(14), [.ipLiteralsUnderATS], source: "docs/apple-rules.md §4.5"),
        AppleOSEra(AppleOSVersion(18), macOS: AppleOSVersion(15), source: pairs),
        AppleOSEra(
            AppleOSVersion(18, 4), macOS: AppleOSVersion(15, 4), [.perDomainNumbersByValue], judged: false,
            source: "docs/apple-rules.md §3.4 (Security-61439.101.1, about macOS 15.4)"),
        AppleOSEra(AppleOSVersion(26), macOS: AppleOSVersion(26), source: pairs),
        AppleOSEra(
            AppleOSVersion(26, 4), macOS: AppleOSVersion(26, 4), [.niapPackage],
            source: "docs/apple-rules.md §1.4, §3.1"),
    ]

    /// The eras atscheck judges under (``judged``), oldest first.
    package static let judgedEras: [AppleOSEra] = all.filter(\.judged)

    /// The newest era.
    package static var newest: AppleOSEra { all[all.count - 1] }

    /// The first era in which `change` applies.
    package static func introducing(_ change: Change) -> AppleOSEra {
        guard let era = introductions[change] else { preconditionFailure("no era introduces \(change)") }
        return era
    }

    /// Change → the first era that has it, read once (the rules ask on every evaluation).
    private static let introductions: [Change: AppleOSEra] = Dictionary(
        all.flatMap { era in era.changes.map { ($0, era) } }, uniquingKeysWith: { first, _ in first })

    /// The judged era `version` falls in (the last one starting at or before it); nil before iOS 9.
    package static func judgedEra(containing version: AppleOSVersion) -> AppleOSEra? {
        judgedEras.last(where: { $0.version <= version })
    }

    /// The release just before `version` in Apple's numbering: 16 before 17, 26.3 before 26.4, 18 before 26 (the
    /// majors iOS skipped do not exist).
    package static func release(before version: AppleOSVersion) -> AppleOSVersion {
        if version.minor > 0 { return AppleOSVersion(version.major, version.minor - 1) }
        let earlierMajor = all.map(\.version.major).filter { $0 < version.major }.max() ?? version.major - 1
        return AppleOSVersion(earlierMajor)
    }
}
