import TLSModel

/// Certificates must be signed with SHA-2 (SHA-256 or stronger); MD2/MD4/MD5/SHA-1 are refused on every
/// certificate except a self-signed root (system trust from iOS 11/13, support 103769; an ATS requirement
/// before that; docs/apple-rules.md §1.1, §1.5, §2.1).
struct SignatureHashRule: ATSRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.sha1, .trust, .error, title: "A certificate is signed with SHA-1 or MD5.",
                help: """
                    Certificates must be signed with SHA-2 (SHA-256 or stronger). MD2, MD4, MD5 and SHA-1 signatures \
                    are refused on every certificate except a self-signed root (system trust from iOS 11 / 13; before \
                    that an ATS check that `NSExceptionAllowsInsecureHTTPLoads` lifts). Reissue the certificate, or \
                    the intermediate, with a SHA-256 signature.
                    """,
                appleKey: "NSExceptionAllowsInsecureHTTPLoads")
        ]
    }

    /// Digests below SHA-2 (spelling variants such as `SHA-1` are normalised by ``SignatureDigest``).
    static let weak: Set<SignatureDigest> = [.sha1, .md5, .md4, .md2]

    func apply(to context: inout RuleContext) {
        for (index, cert) in context.chain.enumerated() {
            guard let hash = cert.signatureHash, Self.weak.contains(hash) else { continue }
            if cert.selfSigned { continue }  // a self-signed root's own signature is not checked
            let what = index == 0 ? "the server certificate" : "chain certificate '\(cert.subject)'"
            let fact = "\(what) is signed with \(cert.signatureAlgorithm)"
            if context.os.systemTrustRefusesWeakCertificates {
                context.fail(.Trust.sha1, "\(fact); Apple trust requires SHA-256 or stronger")
            } else if context.policy.atsHashCheck {
                context.fail(
                    .Trust.sha1, "\(fact); ATS requires SHA-256 or stronger",
                    keyPath: context.keyPath(.exceptionAllowsInsecureHTTPLoads))
            }
        }
    }
}

extension SignatureHashRule: SSLPathCheck {
    /// The SSL policy's digest check on a built path: no weak signature but a self-signed root's.
    func sslPolicyFailures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure] {
        path.enumerated().compactMap { i, cert in
            guard !cert.selfSigned, let hash = cert.signatureHash, Self.weak.contains(hash) else { return nil }
            return SSLPolicyFailure(
                .Trust.sha1,
                "\(AppleSSLPolicyChecks.name(cert, i)) is signed with \(cert.signatureAlgorithm) (SHA-256 or stronger "
                    + "required)")
        }
    }
}
