import TLSModel

/// RSA keys ≥ 2048 bits and EC keys ≥ 256 bits: for every certificate of the chain in system trust
/// (iOS 11 for RSA, whole chain from iOS 13; support 103769), and for the leaf as an ATS requirement that
/// `NSExceptionRequiresForwardSecrecy = NO` drops (docs/apple-rules.md §1.1, §1.3, §1.5). A key of any other algorithm
/// than RSA, EC, Ed25519 and Ed448 (DSA above all) fails on every certificate of the path, anchor included: trustd's
/// `SecCertificateIsWeakKey` calls it weak and the basic X.509 checks every policy carries refuse it.
struct KeySizeRule: ATSRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.keySize, .trust, .error,
                title: "A certificate key is too small (RSA < 2048 or EC < 256 bits).",
                help: """
                    Apple's trust rules refuse RSA keys below 2048 bits (from iOS 11) and require RSA ≥ 2048 or \
                    EC ≥ 256 bits for every certificate of the chain (from iOS 13 / macOS 10.15). On older OSes ATS \
                    alone checks the leaf, and `NSExceptionRequiresForwardSecrecy = NO` drops that check. Reissue the \
                    certificate (and any weak CA) with a 2048-bit RSA or P-256 key or stronger.
                    """,
                appleKey: "NSExceptionRequiresForwardSecrecy"),
            RuleDescriptor(
                RuleID.Trust.keyAlgorithm, .trust, .error,
                title: "A certificate of the path has a key Apple does not accept (DSA or another algorithm).",
                help: """
                    trustd treats every key that is not RSA, EC (P-256 or larger), Ed25519 or Ed448 as weak and fails \
                    the path on it, anchor included, under every policy (SecCertificateIsWeakKey, applied by the basic \
                    X.509 checks). A DSA CA therefore breaks the chain however it is signed. Reissue the certificate \
                    with an RSA (2048+) or P-256/P-384 key.
                    """),
        ]
    }

    /// The key algorithms trustd does not call weak whatever their size (`SecCertificateIsWeakKey`).
    static let appleKeyAlgorithms: Set<KeyAlgorithm> = [.rsa, .ec, .ed25519, .ed448]

    static func isWeak(_ cert: CertificateFacts) -> Bool {
        switch cert.keyType {
        case .rsa: return cert.keyBits < 2048
        case .ec: return cert.keyBits < 256
        default: return false
        }
    }

    func apply(to context: inout RuleContext) {
        let os = context.os
        for (index, cert) in context.chain.enumerated() {
            if cert.keyType == .ed25519 || cert.keyType == .ed448 {
                context.notes.append(
                    "certificate '\(cert.subject)' has a \(cert.keyType) key: trustd accepts it as a key "
                        + "(SecCertificateIsWeakKey); whether iOS's TLS stack accepts an EdDSA server certificate is "
                        + "unconfirmed"
                )
                continue
            }
            if !Self.appleKeyAlgorithms.contains(cert.keyType) {
                let what = index == 0 ? "the server certificate" : "chain certificate '\(cert.subject)'"
                context.fail(
                    .Trust.keyAlgorithm,
                    "\(what) has a \(cert.keyType) key; Apple accepts only RSA, EC, Ed25519 and Ed448 keys in a "
                        + "certificate path")
                continue
            }
            guard Self.isWeak(cert) else { continue }
            let what = index == 0 ? "the server certificate" : "chain certificate '\(cert.subject)'"
            let fact = "\(what) has a \(cert.keyBits)-bit \(cert.keyType) key"
            let minimum = cert.keyType == .rsa ? "RSA ≥ 2048 bits" : "EC ≥ 256 bits"
            let systemRule =
                os.enforcesIOS13CertificateRules || (os.systemTrustRefusesWeakCertificates && cert.keyType == .rsa)
            if systemRule {
                context.fail(
                    .Trust.keySize, "\(fact); Apple trust requires \(minimum) for every certificate in the chain")
            } else if index == 0 && context.policy.atsKeySizeCheck {
                context.fail(
                    .Trust.keySize, "\(fact); ATS requires \(minimum)",
                    keyPath: context.keyPath(.exceptionRequiresForwardSecrecy))
            }
        }
    }
}

extension KeySizeRule: SSLPathCheck {
    /// The SSL policy's key checks on a built path: no key of an algorithm Apple does not accept, then the size
    /// minimums on every certificate.
    func sslPolicyFailures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure] {
        var out = AppleSSLPolicyChecks.unsupportedKeys(path: path)
        // The key-size minimums are skipped for a leaf the user anchored itself (docs/pinning-rules.md §0).
        let anchoredLeaf = path.count == 1 && anchor != .system
        for (i, cert) in path.enumerated() where Self.isWeak(cert) && !(i == 0 && anchoredLeaf) {
            out.append(
                SSLPolicyFailure(
                    .Trust.keySize,
                    "\(AppleSSLPolicyChecks.name(cert, i)) has a \(cert.keyBits)-bit \(cert.keyType) key (RSA ≥ 2048, "
                        + "EC ≥ 256 required)"))
        }
        return out
    }
}
