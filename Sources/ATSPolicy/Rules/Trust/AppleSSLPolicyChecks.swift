import TLSModel

/// Which kind of anchor ended a path, as Apple's SSL server policy tells them apart (pinning.md §0).
public enum SSLPolicyAnchor: Sendable, Equatable {
    /// A root of the system store: serverAuth on the leaf, the 398-day cap.
    case system
    /// A user- or MDM-installed root (`--ca-file`): an EKU, when present, must allow server use; 825 days.
    case userInstalled
    /// Certificates the app set as anchors (`SecTrustSetAnchorCertificates`: the pins): serverAuth for leaves
    /// issued after 2019-07-01; 825 days.
    case app
}

/// One of Apple's SSL-policy checks that a path fails.
public struct SSLPolicyFailure: Sendable, Equatable {
    /// The check.
    public var check: TrustCheckKind
    /// One line: what fails.
    public var message: String

    /// A failure.
    /// - Parameters:
    ///   - check: The check.
    ///   - message: What fails.
    public init(_ check: TrustCheckKind, _ message: String) {
        self.check = check
        self.message = message
    }
}

/// Apple's SSL server policy extras that OpenSSL's `sslserver` purpose does not make (`SecPolicyCreateSSL`,
/// support 103769): the host against the SAN only, serverAuth EKU, RSA ≥ 2048 / EC ≥ 256 on every
/// certificate, no SHA-1, leaf lifetime caps. The same tests as the trust rules of this folder (their primary,
/// Security-source readings), applied to one built path for the pin evaluators.
public enum AppleSSLPolicyChecks {
    /// The checks a path fails under the SSL policy.
    /// - Parameters:
    ///   - path: The built path, leaf first, anchor last.
    ///   - host: The host bound to the policy; nil for an SSL policy without a host (no hostname check).
    ///   - anchor: What ended the path.
    /// - Returns: Failures in check order; empty when the path passes.
    public static func failures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure]
    {
        guard let leaf = path.first else { return [SSLPolicyFailure(.chain, "no certificate")] }
        var out: [SSLPolicyFailure] = []
        if let host, !host.isEmpty,
            !HostnameMatching.matches(host: host, dnsNames: leaf.subjectAltNames, ipAddresses: leaf.ipAddresses)
        {
            let names = leaf.subjectAltNames + leaf.ipAddresses
            let has = names.isEmpty ? "no subjectAltName" : "subjectAltName \(names.listed())"
            out.append(
                SSLPolicyFailure(
                    .hostname, "hostname mismatch: the certificate has \(has), not \(host) (Apple matches the SAN only)"
                ))
        }
        let ekuOK: Bool
        switch anchor {
        case .system: ekuOK = ExtendedKeyUsageRule.sourceAccepts(leaf, anchor: .system)
        case .userInstalled: ekuOK = ExtendedKeyUsageRule.sourceAccepts(leaf, anchor: .custom)
        case .app: ekuOK = ExtendedKeyUsageRule.documentedAccepts(leaf)
        }
        if !ekuOK {
            let has =
                leaf.extendedKeyUsage.map { "extended key usage \($0.map(\.rawValue).listed())" }
                ?? "no extended key usage"
            out.append(SSLPolicyFailure(.serverAuthEKU, "the leaf has \(has); the SSL policy requires serverAuth"))
        }
        // Sub-CAs strictly between the leaf and the anchor: an EKU, when present, must allow server use (trustd's
        // SecPolicyCheckExtendedKeyUsage for every anchor; serverAuth or anyEKU for system anchors). The anchor's own
        // EKU is never checked, so a root whose (critical) EKU is anyExtendedKeyUsage passes.
        if path.count > 2 {
            let allowed = ExtendedKeyUsageRule.subCAPurposes(systemAnchored: anchor == .system)
            for (i, cert) in path.enumerated() where i > 0 && i < path.count - 1 {
                guard let eku = cert.extendedKeyUsage, !eku.isEmpty, !eku.contains(where: allowed.contains) else {
                    continue
                }
                out.append(
                    SSLPolicyFailure(
                        .serverAuthEKU,
                        "\(name(cert, i)) restricts extended key usage to \(eku.map(\.rawValue).listed()) (a CA's EKU "
                            + "must allow serverAuth)"))
            }
        }
        out += unsupportedKeys(path: path)
        // The key-size minimums are skipped for a leaf the user anchored itself (pinning.md §0).
        let anchoredLeaf = path.count == 1 && anchor != .system
        for (i, cert) in path.enumerated() where KeySizeRule.isWeak(cert) && !(i == 0 && anchoredLeaf) {
            out.append(
                SSLPolicyFailure(
                    .keySizes,
                    "\(name(cert, i)) has a \(cert.keyBits)-bit \(cert.keyType) key (RSA ≥ 2048, EC ≥ 256 required)"))
        }
        for (i, cert) in path.enumerated() where !cert.selfSigned {
            if let hash = cert.signatureHash, SignatureHashRule.weak.contains(hash) {
                out.append(
                    SSLPolicyFailure(
                        .sha1,
                        "\(name(cert, i)) is signed with \(cert.signatureAlgorithm) (SHA-256 or stronger required)"))
            }
        }
        if !(leaf.selfSigned && anchor != .system),
            let cap = LifetimeRule.sourceCap(leaf, anchor: anchor == .system ? .system : .custom), cap.exceeded
        {
            let limit = cap.rule == .Trust.lifetime398 ? "398 days" : "825 days"
            out.append(
                SSLPolicyFailure(
                    .lifetimeCaps, "the leaf is valid for \(leaf.lifetimeDays) days; Apple allows at most \(limit) here"
                ))
        }
        return out
    }

    /// Keys trustd calls weak whatever their size (`SecCertificateIsWeakKey`: anything but RSA, EC, Ed25519 and
    /// Ed448), on every certificate of the path, anchor included: its basic X.509 checks refuse them under every
    /// policy.
    public static func unsupportedKeys(path: [CertificateFacts]) -> [SSLPolicyFailure] {
        path.enumerated().compactMap { i, cert in
            KeySizeRule.appleKeyAlgorithms.contains(cert.keyType)
                ? nil
                : SSLPolicyFailure(.keySizes, "\(name(cert, i)) has a \(cert.keyType) key, which Apple does not accept")
        }
    }

    private static func name(_ cert: CertificateFacts, _ index: Int) -> String {
        index == 0 ? "the leaf" : "'\(cert.commonName ?? cert.subject)' (position \(index))"
    }
}
