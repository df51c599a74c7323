import Foundation

/// Which Apple rules are in force on an OS release (reference §1.2, §1.4, §2.1, §2.2, §4.1, §4.5).
extension AppleOSVersion {
    /// iOS 10 / macOS 10.12: the fine-grained global keys exist and override `NSAllowsArbitraryLoads` (§4.1);
    /// local names are exempt by default (§4.5).
    public var hasFineGrainedGlobalKeys: Bool { self >= AppleOSVersion(10) }

    /// iOS 11 / macOS 10.13: RSA < 2048 and SHA-1 refused by system trust (§2.1).
    public var systemTrustRefusesWeakCertificates: Bool { self >= AppleOSVersion(11) }

    /// iOS 12.1 / macOS 10.14.x: Certificate Transparency enforced for publicly trusted leaves (§2.1, §2.2).
    public var enforcesCertificateTransparency: Bool { self >= AppleOSVersion(12, 1) }

    /// iOS 13 / macOS 10.15: the certificate rules of support article 103769 (whole-chain key sizes,
    /// SHA-2, SAN-only names, serverAuth EKU, 825-day cap).
    public var enforcesIOS13CertificateRules: Bool { self >= AppleOSVersion(13) }

    /// Whether TLS 1.3 is offered by default. nil for iOS 12.2–12.4, where the sources disagree (§1.4 CONFLICT).
    public var offersTLS13: Bool? {
        if self >= AppleOSVersion(13) { return true }
        if self >= AppleOSVersion(12, 2) { return nil }
        return false
    }

    /// iOS 17 / macOS 14: IP literals are under ATS by default and may be exception keys, CIDR keys exist (§4.5).
    public var ipLiteralsRequireATS: Bool { self >= AppleOSVersion(17) }

    /// iOS 26.4: `NSRequiresNIAPTLSPackageVersion` exists (§1.4, §3.1).
    public var supportsNIAPPackage: Bool { self >= AppleOSVersion(26, 4) }

    /// The TLS 1.2 ATS suite group of the open-source Security release matching this OS (§1.2).
    public var sourceSuiteEra: ATSSuiteGroups.Era {
        if self >= AppleOSVersion(15, 4) { return .source2022 }
        if self >= AppleOSVersion(13) { return .sourceUpTo2022 }
        return .documented
    }
}
