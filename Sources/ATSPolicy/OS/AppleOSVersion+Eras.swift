/// Which Apple rules are in force on an OS release: each reads ``AppleOSEra/all`` (docs/apple-rules.md §1.2, §1.4,
/// §2.1, §2.2, §4.1, §4.5).
extension AppleOSVersion {
    /// Whether `change` applies on this release: it is at or after the era that introduces it.
    package func has(_ change: AppleOSEra.Change) -> Bool {
        self >= AppleOSEra.introducing(change).version
    }

    /// The fine-grained global keys exist and override `NSAllowsArbitraryLoads` (§4.1); local names are exempt by
    /// default (§4.5).
    package var hasFineGrainedGlobalKeys: Bool { has(.fineGrainedGlobalKeys) }

    /// RSA < 2048 and SHA-1 refused by system trust (§2.1).
    package var systemTrustRefusesWeakCertificates: Bool { has(.weakCertificatesRefused) }

    /// Certificate Transparency enforced for publicly trusted leaves (§2.1, §2.2).
    package var enforcesCertificateTransparency: Bool { has(.certificateTransparency) }

    /// The certificate rules of support article 103769 (whole-chain key sizes, SHA-2, SAN-only names, serverAuth
    /// EKU, 825-day cap).
    package var enforcesIOS13CertificateRules: Bool { has(.iOS13CertificateRules) }

    /// Whether TLS 1.3 is offered by default. nil where the sources disagree (iOS 12.2–12.4, §1.4 CONFLICT).
    package var offersTLS13: Bool? {
        if has(.tls13Offered) { return true }
        if has(.tls13Disputed) { return nil }
        return false
    }

    /// IP literals are under ATS by default and may be exception keys, CIDR keys exist (§4.5).
    package var ipLiteralsRequireATS: Bool { has(.ipLiteralsUnderATS) }

    /// `NSRequiresNIAPTLSPackageVersion` exists (§1.4, §3.1).
    package var supportsNIAPPackage: Bool { has(.niapPackage) }

    /// Per-domain booleans written as numbers are read by value (current SRC), not ambiguous (§3.4).
    package var readsPerDomainNumbers: Bool { has(.perDomainNumbersByValue) }

    /// The TLS 1.2 ATS suite group of the open-source Security release matching this OS (§1.2).
    package var sourceSuiteEra: ATSSuiteGroups.Era {
        if has(.sourceSuites2022) { return .source2022 }
        if has(.sourceSuitesUpTo2022) { return .sourceUpTo2022 }
        return .documented
    }
}
