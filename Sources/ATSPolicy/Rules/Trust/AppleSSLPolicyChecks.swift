import TLSModel

/// Which kind of anchor ended a path, as Apple's SSL server policy tells them apart (docs/pinning-rules.md §0).
package enum SSLPolicyAnchor: Sendable, Equatable {
    /// A root of the system store: serverAuth on the leaf, the 398-day cap.
    case system
    /// A user- or MDM-installed root (`--ca-file`): an EKU, when present, must allow server use; 825 days.
    case userInstalled
    /// Certificates the app set as anchors (`SecTrustSetAnchorCertificates`: the pins): serverAuth for leaves
    /// issued after 2019-07-01; 825 days.
    case app
}

/// One of Apple's SSL-policy checks that a path fails, named by the trust rule that makes it.
package struct SSLPolicyFailure: Sendable, Equatable {
    /// The trust rule whose check fails (`trust.hostname`, `trust.eku`, `trust.key-size`, …).
    package var rule: RuleID
    /// One line: what fails.
    package var message: String

    /// A failure.
    /// - Parameters:
    ///   - rule: The trust rule whose check fails.
    ///   - message: What fails.
    package init(_ rule: RuleID, _ message: String) {
        self.rule = rule
        self.message = message
    }
}

/// A trust rule that Apple's SSL policy also applies to one built path (the pin evaluators' path, judged apart from
/// an ATS evaluation): the same test as the rule's own, on the path alone.
protocol SSLPathCheck: Rule {
    /// The failures of `path` under this rule's check.
    /// - Parameters:
    ///   - path: The built path, leaf first, anchor last.
    ///   - host: The host bound to the policy; nil or empty for an SSL policy without a host.
    ///   - anchor: What ended the path.
    /// - Returns: Failures in path order; empty when the path passes.
    func sslPolicyFailures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure]
}

/// Apple's SSL server policy extras that OpenSSL's `sslserver` purpose does not make (`SecPolicyCreateSSL`,
/// support 103769): the host against the SAN only, serverAuth EKU, RSA ≥ 2048 / EC ≥ 256 on every
/// certificate, no SHA-1, leaf lifetime caps. The same tests as the trust rules of this folder (their primary,
/// Security-source readings), applied to one built path for the pin evaluators.
package enum AppleSSLPolicyChecks {
    /// The checks a path fails under the SSL policy.
    /// - Parameters:
    ///   - path: The built path, leaf first, anchor last.
    ///   - host: The host bound to the policy; nil for an SSL policy without a host (no hostname check).
    ///   - anchor: What ended the path.
    /// - Returns: Failures in check order; empty when the path passes.
    package static func failures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure]
    {
        guard !path.isEmpty else { return [SSLPolicyFailure(.Trust.untrusted, "no certificate")] }
        return checks.flatMap { $0.sslPolicyFailures(path: path, host: host, anchor: anchor) }
    }

    /// The trust rules the SSL policy applies to a path, in the order their failures are reported.
    static let checks: [any SSLPathCheck] = [
        HostnameRule(), ExtendedKeyUsageRule(), KeySizeRule(), SignatureHashRule(), LifetimeRule(),
    ]

    /// Keys trustd calls weak whatever their size (`SecCertificateIsWeakKey`: anything but RSA, EC, Ed25519 and
    /// Ed448), on every certificate of the path, anchor included: its basic X.509 checks refuse them under every
    /// policy.
    package static func unsupportedKeys(path: [CertificateFacts]) -> [SSLPolicyFailure] {
        path.enumerated().compactMap { i, cert in
            KeySizeRule.appleKeyAlgorithms.contains(cert.keyType)
                ? nil
                : SSLPolicyFailure(
                    .Trust.keyAlgorithm, "\(name(cert, i)) has a \(cert.keyType) key, which Apple does not accept")
        }
    }

    static func name(_ cert: CertificateFacts, _ index: Int) -> String {
        index == 0 ? "the leaf" : "'\(cert.commonName ?? cert.subject)' (position \(index))"
    }
}
