import TLSModel

/// The leaf's extended key usage must allow TLS server use (docs/apple-rules.md §2.1). No Info.plist key relaxes it.
/// Two readings (CONFLICT added 2026-11-23), evaluated both ways where they differ:
/// - Security source (`SecPolicyServer.c`, the primary reading): a chain to a system root needs serverAuth
///   on the leaf whatever its date; a chain to a user or MDM root only needs an EKU, when present, to
///   allow server use (serverAuth or anyExtendedKeyUsage).
/// - Apple's documentation (support 103769, iOS 13): every leaf issued after 2019-07-01 must list
///   serverAuth; older leaves keep the long-standing check that an EKU, when present, allows server use.
/// Sub-CAs, as trustd checks them (`SecPolicyServer.c`): every certificate strictly between the leaf and the anchor
/// (the anchor itself is never checked, self-signed or not) that has an EKU must allow server use —
/// `SecPolicyCheckExtendedKeyUsage`, for every anchor: serverAuth, anyExtendedKeyUsage or a Server Gated Crypto
/// purpose; `SecPolicyCheckServerAuthEKU`, for system-anchored chains only: serverAuth or anyExtendedKeyUsage.
struct ExtendedKeyUsageRule: ATSRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.eku, .trust, .error,
                title: "The certificate's extended key usage does not allow TLS server use.",
                help: """
                    From iOS 13 / macOS 10.15 the leaf's extended key usage must contain serverAuth \
                    (1.3.6.1.5.5.7.3.1), and in chains to a preinstalled root any intermediate that has an EKU must \
                    list serverAuth or anyExtendedKeyUsage. Chains to user- or MDM-installed roots only need an EKU, \
                    when present, to allow server use. No Info.plist key relaxes it. Reissue the certificate with \
                    serverAuth.
                    """)
        ]
    }

    /// Whether the leaf passes the source reading.
    static func sourceAccepts(_ leaf: CertificateFacts, anchor: AnchorKind) -> Bool {
        switch anchor {
        case .system: return (leaf.extendedKeyUsage ?? []).contains(.serverAuth)
        case .custom: return leaf.allowsServerAuth
        case .none: return documentedAccepts(leaf)
        }
    }

    /// The purposes an EKU-bearing sub-CA must list one of: serverAuth or anyExtendedKeyUsage under a system anchor
    /// (`SecPolicyCheckServerAuthEKU`), also a Server Gated Crypto purpose under any other (`SecPolicyCheckExtendedKeyUsage`).
    static func subCAPurposes(systemAnchored: Bool) -> Set<ExtendedKeyUsage> {
        systemAnchored ? [.serverAuth, .anyExtendedKeyUsage] : [.serverAuth, .anyExtendedKeyUsage, .msSGC, .nsSGC]
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
        guard context.anchor != .none else { return }  // no path: trust already fails
        let path = context.chain
        guard path.count > 2 else { return }
        let allowed = Self.subCAPurposes(systemAnchored: context.anchor == .system)
        for cert in path[1..<(path.count - 1)] {
            guard let eku = cert.extendedKeyUsage, !eku.isEmpty, !eku.contains(where: allowed.contains) else {
                continue
            }
            context.fail(
                .Trust.eku,
                "CA certificate '\(cert.subject)' restricts extended key usage to \(eku.map(\.rawValue).listed()); "
                    + "Apple requires serverAuth or anyExtendedKeyUsage on every CA between the leaf and the anchor"
            )
        }
    }
}

extension ExtendedKeyUsageRule: SSLPathCheck {
    /// The SSL policy's EKU check on a built path: serverAuth on the leaf (by anchor), and sub-CAs whose EKU allows
    /// server use.
    func sslPolicyFailures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure] {
        guard let leaf = path.first else { return [] }
        var out: [SSLPolicyFailure] = []
        let ekuOK: Bool
        switch anchor {
        case .system: ekuOK = Self.sourceAccepts(leaf, anchor: .system)
        case .userInstalled: ekuOK = Self.sourceAccepts(leaf, anchor: .custom)
        case .app: ekuOK = Self.documentedAccepts(leaf)
        }
        if !ekuOK {
            let has =
                leaf.extendedKeyUsage.map { "extended key usage \($0.map(\.rawValue).listed())" }
                ?? "no extended key usage"
            out.append(SSLPolicyFailure(.Trust.eku, "the leaf has \(has); the SSL policy requires serverAuth"))
        }
        // Sub-CAs strictly between the leaf and the anchor: an EKU, when present, must allow server use (trustd's
        // SecPolicyCheckExtendedKeyUsage for every anchor; serverAuth or anyEKU for system anchors). The anchor's own
        // EKU is never checked, so a root whose (critical) EKU is anyExtendedKeyUsage passes.
        if path.count > 2 {
            let allowed = Self.subCAPurposes(systemAnchored: anchor == .system)
            for (i, cert) in path.enumerated() where i > 0 && i < path.count - 1 {
                guard let eku = cert.extendedKeyUsage, !eku.isEmpty, !eku.contains(where: allowed.contains) else {
                    continue
                }
                out.append(
                    SSLPolicyFailure(
                        .Trust.eku,
                        "\(AppleSSLPolicyChecks.name(cert, i)) restricts extended key usage to "
                            + "\(eku.map(\.rawValue).listed()) (a CA's EKU must allow serverAuth)"))
            }
        }
        return out
    }
}
