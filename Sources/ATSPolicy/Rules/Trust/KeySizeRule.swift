import TLSModel

/// RSA keys ≥ 2048 bits and EC keys ≥ 256 bits: for every certificate of the chain in system trust
/// (iOS 11 for RSA, whole chain from iOS 13; support 103769), and for the leaf as an ATS requirement that
/// `NSExceptionRequiresForwardSecrecy = NO` drops (reference §1.1, §1.3, §1.5). A key of any other algorithm than
/// RSA, EC, Ed25519 and Ed448 (DSA above all) fails on every certificate of the path, anchor included: trustd's
/// `SecCertificateIsWeakKey` calls it weak and the basic X.509 checks every policy carries refuse it.
struct KeySizeRule: ATSRule {
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
