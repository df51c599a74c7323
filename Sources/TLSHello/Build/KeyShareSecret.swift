import Crypto
import Foundation

/// A key share the builder sent, with its private key: what it takes to finish the key exchange with the server's
/// share (``sharedSecret(serverShare:)``) and so prove the handshake.
package struct KeyShareSecret: Sendable {
    /// The group's codepoint.
    package let group: UInt16
    /// The key_exchange bytes sent in the hello.
    package let publicBytes: [UInt8]
    private let key: PrivateKey

    private enum PrivateKey: @unchecked Sendable {  // swift-crypto's keys are immutable values
        case x25519(Curve25519.KeyAgreement.PrivateKey)
        case p256(P256.KeyAgreement.PrivateKey)
        case p384(P384.KeyAgreement.PrivateKey)
        case p521(P521.KeyAgreement.PrivateKey)
        /// draft-ietf-tls-ecdhe-mlkem: the client share is the ML-KEM-768 encapsulation key (1184 bytes) followed by
        /// the X25519 public key (32).
        case x25519MLKEM768(MLKEM768.PrivateKey, Curve25519.KeyAgreement.PrivateKey)
    }

    /// The groups a share can be made for.
    package static let supportedGroups: Set<UInt16> = [0x001D, 0x0017, 0x0018, 0x0019, 0x11EC]

    /// A fresh key pair for `group`.
    /// - Throws: ``TLSHelloError`` `.unsupportedKeyShare` for a group without a share of ours (ffdhe, x448, …).
    package init(group: UInt16) throws(TLSHelloError) {
        self.group = group
        do {
            switch group {
            case 0x001D:
                let key = Curve25519.KeyAgreement.PrivateKey()
                self.key = .x25519(key)
                publicBytes = Array(key.publicKey.rawRepresentation)
            case 0x0017:
                let key = P256.KeyAgreement.PrivateKey()
                self.key = .p256(key)
                publicBytes = Array(key.publicKey.x963Representation)
            case 0x0018:
                let key = P384.KeyAgreement.PrivateKey()
                self.key = .p384(key)
                publicBytes = Array(key.publicKey.x963Representation)
            case 0x0019:
                let key = P521.KeyAgreement.PrivateKey()
                self.key = .p521(key)
                publicBytes = Array(key.publicKey.x963Representation)
            case 0x11EC:
                let kem = try MLKEM768.PrivateKey()
                let ecdh = Curve25519.KeyAgreement.PrivateKey()
                self.key = .x25519MLKEM768(kem, ecdh)
                publicBytes = Array(kem.publicKey.rawRepresentation) + Array(ecdh.publicKey.rawRepresentation)
            default:
                throw TLSHelloError(
                    .unsupportedKeyShare, "no key share of ours for group \(NamedGroupCatalogue.name(group))")
            }
        } catch let error as TLSHelloError {
            throw error
        } catch {
            throw TLSHelloError(.crypto, "key generation for \(NamedGroupCatalogue.name(group)) failed: \(error)")
        }
    }

    /// The shared secret with the server's key_exchange bytes (RFC 8446 §7.4; for X25519MLKEM768 the ML-KEM shared
    /// secret followed by the X25519 one, draft-ietf-tls-ecdhe-mlkem §3).
    /// - Throws: ``TLSHelloError`` `.badServerShare` when the server's share is not a valid key or ciphertext.
    package func sharedSecret(serverShare: [UInt8]) throws(TLSHelloError) -> [UInt8] {
        do {
            switch key {
            case .x25519(let key):
                let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: serverShare)
                return Self.bytes(try key.sharedSecretFromKeyAgreement(with: peer))
            case .p256(let key):
                let peer = try P256.KeyAgreement.PublicKey(x963Representation: serverShare)
                return Self.bytes(try key.sharedSecretFromKeyAgreement(with: peer))
            case .p384(let key):
                let peer = try P384.KeyAgreement.PublicKey(x963Representation: serverShare)
                return Self.bytes(try key.sharedSecretFromKeyAgreement(with: peer))
            case .p521(let key):
                let peer = try P521.KeyAgreement.PublicKey(x963Representation: serverShare)
                return Self.bytes(try key.sharedSecretFromKeyAgreement(with: peer))
            case .x25519MLKEM768(let kem, let ecdh):
                // The server's share: the ML-KEM-768 ciphertext (1088 bytes), then its X25519 public key (32).
                guard serverShare.count == 1088 + 32 else {
                    throw TLSHelloError(
                        .badServerShare, "X25519MLKEM768 server share is \(serverShare.count) bytes, not 1120")
                }
                let mlkemSecret = try kem.decapsulate(serverShare[0..<1088])
                let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: serverShare[1088...])
                let x25519Secret = try ecdh.sharedSecretFromKeyAgreement(with: peer)
                return mlkemSecret.withUnsafeBytes { Array($0) } + Self.bytes(x25519Secret)
            }
        } catch let error as TLSHelloError {
            throw error
        } catch {
            throw TLSHelloError(.badServerShare, "\(NamedGroupCatalogue.name(group)) server share rejected: \(error)")
        }
    }

    private static func bytes(_ secret: SharedSecret) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }
}
