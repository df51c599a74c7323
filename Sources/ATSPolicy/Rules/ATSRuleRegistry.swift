import TLSModel

/// The ATS and trust rules, in the order the evaluator runs them and their violations are reported: HTTP, TLS,
/// then trust.
enum ATSRules {
    /// Cleartext HTTP (NSURLError −1022).
    static let http: [any ATSRule] = [CleartextRule()]
    /// TLS version and cipher-suite negotiation (NSURLError −1200).
    static let tls: [any ATSRule] = [NegotiationRule(), SimulatedHandshakeRule()]
    /// Apple's certificate trust rules (NSURLError −1202).
    static let trust: [any ATSRule] = [
        ChainTrustRule(), HostnameRule(), KeySizeRule(), SignatureHashRule(), ExtendedKeyUsageRule(), LifetimeRule(),
        CertificateTransparencyRule(), RevocationRule(),
    ]
}

extension RuleRegistry {
    /// ATS: cleartext HTTP (`ats.http.*`).
    package static let atsHTTP = RuleRegistry("atsHTTP", rules: ATSRules.http)
    /// ATS: TLS negotiation (`ats.tls.*`), and the ClientHello-size warning `Judging/Gate` emits.
    package static let atsTLS = RuleRegistry(
        "atsTLS", entries: ATSRules.tls.flatMap(\.entries) + [HelloSizeWarning.entry])
    /// Apple's certificate trust (`trust.*`): the rules' entries in documentation order, with the entries of the
    /// trust warnings `Judging/Gate` emits (``TrustWarnings``) in their places.
    package static let trust = RuleRegistry(
        "trust",
        entries: ChainTrustRule().entries + HostnameRule().entries + KeySizeRule().entries + [TrustWarnings.keyUsage]
            + SignatureHashRule().entries + ExtendedKeyUsageRule().entries + LifetimeRule().entries
            + CertificateTransparencyRule().entries + RevocationRule().entries + [TrustWarnings.expirySoon]
            + AnnouncedDistrustRule().entries
            + [TrustWarnings.lifetimeSchedule, TrustWarnings.dataStale, TrustWarnings.missingIntermediate])
}
