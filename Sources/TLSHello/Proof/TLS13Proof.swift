import Crypto
import Foundation

/// Proves a TLS 1.3 handshake from our side: finishes the key exchange with the server's share, runs the RFC 8446
/// §7.1 key schedule over the transcript, and decrypts the server's first encrypted record. Only a server that holds
/// the other half of the same shared secret can have made a record that decrypts and authenticates, so a success
/// proves the group was really negotiated (a hybrid's ML-KEM half included), not just named in the ServerHello.
package enum TLS13Proof {
    /// What the proof found.
    package enum Outcome: Sendable, Hashable {
        /// The first encrypted record decrypted with the negotiated keys and held EncryptedExtensions.
        case proven(group: UInt16, cipherSuite: UInt16)
        /// It could not be shown; `reason` says why (no share of ours for the group, a record that does not
        /// authenticate, a suite we cannot decrypt, …).
        case notProven(reason: String)

        /// Whether the handshake was proven.
        package var isProven: Bool { if case .proven = self { true } else { false } }
    }

    /// Decrypts `firstEncryptedRecord` (the whole record, header included) with the server's handshake traffic keys.
    /// - Parameters:
    ///   - hello: the hello sent, with its private keys.
    ///   - serverHello: the ServerHello read (its message bytes, group, key share and suite).
    ///   - firstEncryptedRecord: the first application_data record after the ServerHello.
    /// - Returns: `.proven` or `.notProven(reason:)`; nothing throws.
    package static func verify(
        hello: BuiltClientHello, serverHello: ServerHelloFacts, firstEncryptedRecord: [UInt8]
    ) -> Outcome {
        guard serverHello.version == 0x0304 else { return .notProven(reason: "not TLS 1.3") }
        guard let group = serverHello.selectedGroup, let serverShare = serverHello.keyShare else {
            return .notProven(reason: "the ServerHello has no key share")
        }
        guard let secret = hello.keyShare(for: group) else {
            return .notProven(reason: "no key share of ours for \(NamedGroupCatalogue.name(group))")
        }
        let shared: [UInt8]
        do {
            shared = try secret.sharedSecret(serverShare: serverShare)
        } catch {
            return .notProven(reason: error.reason)
        }
        let transcript = hello.handshakeMessage + serverHello.message
        let suite = serverHello.cipherSuite
        let plaintext: [UInt8]?
        switch suite {
        case 0x1301:
            let hash = transcriptHash(SHA256.self, hello.retryOf, transcript)
            plaintext = decrypt(SHA256.self, aead: .aes(16), shared, hash, firstEncryptedRecord)
        case 0x1302:
            let hash = transcriptHash(SHA384.self, hello.retryOf, transcript)
            plaintext = decrypt(SHA384.self, aead: .aes(32), shared, hash, firstEncryptedRecord)
        case 0x1303:
            let hash = transcriptHash(SHA256.self, hello.retryOf, transcript)
            plaintext = decrypt(SHA256.self, aead: .chacha, shared, hash, firstEncryptedRecord)
        default: return .notProven(reason: "no decryption of ours for \(CipherSuiteCatalogue.name(suite))")
        }
        guard let plaintext else {
            return .notProven(reason: "the first encrypted record does not authenticate with the derived keys")
        }
        // TLSInnerPlaintext: content, then the real type, then zero padding (RFC 8446 §5.2).
        guard let typeIndex = plaintext.lastIndex(where: { $0 != 0 }), plaintext[typeIndex] == 22,
            plaintext.first == 8
        else {
            return .notProven(reason: "the decrypted record is not EncryptedExtensions")
        }
        return .proven(group: group, cipherSuite: suite)
    }

    enum AEAD {
        case aes(Int)
        case chacha
        var keyLength: Int {
            switch self {
            case .aes(let length): length
            case .chacha: 32
            }
        }
    }

    /// Hash(ClientHello…ServerHello); after a HelloRetryRequest the first hello is replaced by a message_hash
    /// message holding its hash (RFC 8446 §4.4.1).
    static func transcriptHash<H: HashFunction>(
        _: H.Type, _ retry: BuiltClientHello.Retry?, _ transcript: [UInt8]
    ) -> [UInt8] {
        guard let retry else { return Array(H.hash(data: transcript)) }
        let firstHash = Array(H.hash(data: retry.firstHello))
        let messageHash: [UInt8] = [254, 0, 0, UInt8(firstHash.count)] + firstHash
        return Array(H.hash(data: messageHash + retry.helloRetryRequest + transcript))
    }

    /// The server handshake traffic keys (RFC 8446 §7.1, §7.3) and one AEAD open with sequence number 0.
    static func decrypt<H: HashFunction>(
        _ hash: H.Type, aead: AEAD, _ shared: [UInt8], _ transcriptHash: [UInt8], _ record: [UInt8]
    ) -> [UInt8]? {
        guard record.count > 5 + 16, record[0] == 23 else { return nil }
        let zeros = [UInt8](repeating: 0, count: H.Digest.byteCount)
        let early = extract(H.self, salt: zeros, ikm: zeros)
        let derived = expandLabel(H.self, early, "derived", Array(H.hash(data: [UInt8]())), H.Digest.byteCount)
        let handshake = extract(H.self, salt: derived, ikm: shared)
        let serverSecret = expandLabel(H.self, handshake, "s hs traffic", transcriptHash, H.Digest.byteCount)
        let key = expandLabel(H.self, serverSecret, "key", [], aead.keyLength)
        let iv = expandLabel(H.self, serverSecret, "iv", [], 12)  // sequence 0: the nonce is the IV itself
        let header = Array(record[0..<5])
        let body = record[5...]
        let ciphertext = body.dropLast(16)
        let tag = body.suffix(16)
        do {
            switch aead {
            case .aes:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
                return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: header))
            case .chacha:
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
                return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: key), authenticating: header))
            }
        } catch {
            return nil
        }
    }

    static func extract<H: HashFunction>(_: H.Type, salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        Array(HKDF<H>.extract(inputKeyMaterial: SymmetricKey(data: ikm), salt: salt))
    }

    /// HKDF-Expand-Label (RFC 8446 §7.1): the label is prefixed with "tls13 ".
    static func expandLabel<H: HashFunction>(
        _: H.Type, _ secret: [UInt8], _ label: String, _ context: [UInt8], _ length: Int
    ) -> [UInt8] {
        var info = ByteWriter()
        info.u16(UInt16(length))
        info.vector(1) { $0.append(Array(("tls13 " + label).utf8)) }
        info.vector(1) { $0.append(context) }
        let key = HKDF<H>.expand(pseudoRandomKey: secret, info: info.bytes, outputByteCount: length)
        return key.withUnsafeBytes { Array($0) }
    }
}
