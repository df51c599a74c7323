import Crypto
import Foundation
import Synchronization

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
        /// The NIST hybrids put the ECDH share first: P-256 (65 bytes) then the ML-KEM-768 key (1184).
        case secp256r1MLKEM768(P256.KeyAgreement.PrivateKey, MLKEM768.PrivateKey)
        /// P-384 (97 bytes) then the ML-KEM-1024 encapsulation key (1568).
        case secp384r1MLKEM1024(P384.KeyAgreement.PrivateKey, MLKEM1024.PrivateKey)
    }

    /// The groups a share can be made for.
    package static let supportedGroups: Set<UInt16> = [0x001D, 0x0017, 0x0018, 0x0019, 0x11EC, 0x11EB, 0x11ED]

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
            case 0x11EB:
                let ecdh = P256.KeyAgreement.PrivateKey()
                let kem = try MLKEM768.PrivateKey()
                self.key = .secp256r1MLKEM768(ecdh, kem)
                publicBytes = Array(ecdh.publicKey.x963Representation) + Array(kem.publicKey.rawRepresentation)
            case 0x11ED:
                let ecdh = P384.KeyAgreement.PrivateKey()
                let kem = try MLKEM1024.PrivateKey()
                self.key = .secp384r1MLKEM1024(ecdh, kem)
                publicBytes = Array(ecdh.publicKey.x963Representation) + Array(kem.publicKey.rawRepresentation)
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

    /// The process's key pair for `group`, made on first use and shared by every hello that asks for it
    /// (``ClientHelloBuilder/reuseKeyShares``).
    /// - Throws: as ``init(group:)``.
    package static func reused(group: UInt16) throws(TLSHelloError) -> KeyShareSecret {
        if let known = reusable.withLock({ $0[group] }) { return known }
        let made = try KeyShareSecret(group: group)
        return reusable.withLock { cache in
            if let known = cache[group] { return known }
            cache[group] = made
            return made
        }
    }

    private static let reusable = Mutex<[UInt16: KeyShareSecret]>([:])

    /// The shared secret with the server's key_exchange bytes (RFC 8446 §7.4). For the hybrids
    /// (draft-ietf-tls-ecdhe-mlkem §3) the two secrets are concatenated in the order of the shares: ML-KEM first for
    /// X25519MLKEM768, ECDH first for SecP256r1MLKEM768 and SecP384r1MLKEM1024.
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
            case .secp256r1MLKEM768(let ecdh, let kem):
                // The server's share: its P-256 point (65 bytes), then the ML-KEM-768 ciphertext (1088).
                guard serverShare.count == 65 + 1088 else {
                    throw TLSHelloError(
                        .badServerShare, "SecP256r1MLKEM768 server share is \(serverShare.count) bytes, not 1153")
                }
                let peer = try P256.KeyAgreement.PublicKey(x963Representation: serverShare[0..<65])
                let ecdhSecret = try ecdh.sharedSecretFromKeyAgreement(with: peer)
                let mlkemSecret = try kem.decapsulate(serverShare[65...])
                return Self.bytes(ecdhSecret) + mlkemSecret.withUnsafeBytes { Array($0) }
            case .secp384r1MLKEM1024(let ecdh, let kem):
                // The server's share: its P-384 point (97 bytes), then the ML-KEM-1024 ciphertext (1568).
                guard serverShare.count == 97 + 1568 else {
                    throw TLSHelloError(
                        .badServerShare, "SecP384r1MLKEM1024 server share is \(serverShare.count) bytes, not 1665")
                }
                let peer = try P384.KeyAgreement.PublicKey(x963Representation: serverShare[0..<97])
                let ecdhSecret = try ecdh.sharedSecretFromKeyAgreement(with: peer)
                let mlkemSecret = try kem.decapsulate(serverShare[97...])
                return Self.bytes(ecdhSecret) + mlkemSecret.withUnsafeBytes { Array($0) }
            }
        } catch let error as TLSHelloError {
            throw error
        } catch {
            throw TLSHelloError(.badServerShare, "\(NamedGroupCatalogue.name(group)) server share rejected: \(error)")
        }
    }

    private static func bytes(_ secret: SharedSecret) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }
}
