import TLSModel

/// The leaf's extended key usage must allow TLS server use (reference §2.1). No Info.plist key relaxes it.
/// Two readings (CONFLICT added 2026-11-23), evaluated both ways where they differ:
/// - Security source (`SecPolicyServer.c`, the primary reading): a chain to a system root needs serverAuth
///   on the leaf whatever its date; a chain to a user or MDM root only needs an EKU, when present, to
///   allow server use (serverAuth or anyExtendedKeyUsage).
/// - Apple's documentation (support 103769, iOS 13): every leaf issued after 2019-07-01 must list
///   serverAuth; older leaves keep the long-standing check that an EKU, when present, allows server use.
/// In both, any sub-CA of a system-anchored chain that has an EKU must list serverAuth or anyExtendedKeyUsage.
struct ExtendedKeyUsageRule: ATSRule {
    /// Whether the leaf passes the source reading.
    static func sourceAccepts(_ leaf: CertificateFacts, anchor: AnchorKind) -> Bool {
        switch anchor {
        case .system: return (leaf.extendedKeyUsage ?? []).contains(.serverAuth)
        case .custom: return leaf.allowsServerAuth
        case .none: return documentedAccepts(leaf)
        }
    }

    /// Whether the leaf passes the documented reading.
    static func documentedAccepts(_ leaf: CertificateFacts) -> Bool {
        leaf.notBefore > AppleDates.ios13Rules
            ? (leaf.extendedKeyUsage ?? []).contains(.serverAuth) : leaf.allowsServerAuth
    }

    func apply(to context: inout RuleContext) {
        guard context.os.enforcesIOS13CertificateRules, let leaf = context.leaf else { return }
        let source = Self.sourceAccepts(leaf, anchor: context.anchor)
        let documented = Self.documentedAccepts(leaf)
        // An unverified chain (anchor unknown) already fails trust; it gets the documented rule only.
        if context.anchor != .none && source != documented { context.consulted.insert(.ekuScope) }
        let accepted = context.readings.documentedEKU || context.anchor == .none ? documented : source
        if !accepted {
            let has =
                leaf.extendedKeyUsage.map { "extended key usage \($0.map(\.rawValue).listed())" }
                ?? "no extended key usage"
            context.fail(
                .Trust.eku, "the server certificate has \(has); Apple requires serverAuth for TLS server certificates")
        }
        guard context.anchor == .system else { return }
        for cert in context.chain.dropFirst() where !cert.selfSigned && !cert.allowsServerAuth {
            context.fail(
                .Trust.eku,
                "CA certificate '\(cert.subject)' restricts extended key usage to "
                    + "\((cert.extendedKeyUsage ?? []).map(\.rawValue).listed()); Apple requires serverAuth or "
                    + "anyExtendedKeyUsage"
            )
        }
    }
}
