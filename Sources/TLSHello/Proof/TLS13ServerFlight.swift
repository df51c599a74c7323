import Crypto

/// Reads a TLS 1.3 server's encrypted flight past EncryptedExtensions (RFC 8446 §4.3–§4.4): the server handshake
/// traffic keys are derived as ``TLS13Proof`` derives them, each record is opened with its own sequence number, and
/// the handshake messages inside are handed out. What a simulated client needs from it: the certificate chain and
/// the signature scheme of CertificateVerify (the scheme the server signs with, which the client must have offered).
///
/// ```
/// var flight = try TLS13ServerFlight(hello: built, serverHello: facts)
/// for message in try flight.open(record) { … }   // records in the order received
/// ```
package struct TLS13ServerFlight: Sendable {
    /// One handshake message of the encrypted flight.
    package enum Message: Sendable, Hashable {
        /// EncryptedExtensions (8): its extension types, in order.
        case encryptedExtensions([UInt16])
        /// CertificateRequest (13): the server asks for a client certificate.
        case certificateRequest
        /// Certificate (11): the DER certificates, leaf first.
        case certificate([[UInt8]])
        /// CompressedCertificate (25, RFC 8879): the chain compressed with `algorithm` (not decompressed here).
        case compressedCertificate(algorithm: UInt16)
        /// CertificateVerify (15): the scheme the server signed the transcript with.
        case certificateVerify(scheme: UInt16)
        /// Finished (20): the server's flight is complete.
        case finished
        /// Any other message: its type.
        case other(UInt8)
    }

    /// Why the flight could not be read.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    private let key: SymmetricKey
    private let iv: [UInt8]
    private let chacha: Bool
    private var sequence: UInt64 = 0
    private var buffer: [UInt8] = []

    /// The keys of the handshake `hello` began and `serverHello` answered.
    /// - Throws: ``Failure`` when the server's group has no key share of ours, the shared secret cannot be computed,
    ///   or the suite is not one the engine decrypts (TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384,
    ///   TLS_CHACHA20_POLY1305_SHA256).
    package init(hello: BuiltClientHello, serverHello: ServerHelloFacts) throws(Failure) {
        guard serverHello.version == 0x0304 else { throw Failure("not TLS 1.3") }
        guard let group = serverHello.selectedGroup, let serverShare = serverHello.keyShare else {
            throw Failure("the ServerHello has no key share")
        }
        guard let secret = hello.keyShare(for: group) else {
            throw Failure("no key share of ours for \(NamedGroupCatalogue.name(group))")
        }
        let shared: [UInt8]
        do { shared = try secret.sharedSecret(serverShare: serverShare) } catch { throw Failure(error.reason) }
        let transcript = hello.handshakeMessage + serverHello.message
        let keys: (SymmetricKey, [UInt8])
        switch serverHello.cipherSuite {
        case 0x1301:
            keys = Self.keys(SHA256.self, 16, shared, TLS13Proof.transcriptHash(SHA256.self, hello.retryOf, transcript))
            chacha = false
        case 0x1302:
            keys = Self.keys(SHA384.self, 32, shared, TLS13Proof.transcriptHash(SHA384.self, hello.retryOf, transcript))
            chacha = false
        case 0x1303:
            keys = Self.keys(SHA256.self, 32, shared, TLS13Proof.transcriptHash(SHA256.self, hello.retryOf, transcript))
            chacha = true
        case let suite:
            throw Failure("no decryption of ours for \(CipherSuiteCatalogue.name(suite))")
        }
        key = keys.0
        iv = keys.1
    }

    /// The server handshake traffic key and IV (RFC 8446 §7.1, §7.3).
    private static func keys<H: HashFunction>(_: H.Type, _ keyLength: Int, _ shared: [UInt8], _ transcriptHash: [UInt8])
        -> (SymmetricKey, [UInt8])
    {
        let zeros = [UInt8](repeating: 0, count: H.Digest.byteCount)
        let early = TLS13Proof.extract(H.self, salt: zeros, ikm: zeros)
        let derived = TLS13Proof.expandLabel(
            H.self, early, "derived", Array(H.hash(data: [UInt8]())), H.Digest.byteCount)
        let handshake = TLS13Proof.extract(H.self, salt: derived, ikm: shared)
        let server = TLS13Proof.expandLabel(H.self, handshake, "s hs traffic", transcriptHash, H.Digest.byteCount)
        let key = TLS13Proof.expandLabel(H.self, server, "key", [], keyLength)
        return (SymmetricKey(data: key), TLS13Proof.expandLabel(H.self, server, "iv", [], 12))
    }

    /// Opens the next encrypted record (header included) and returns the handshake messages it completes (a message
    /// may span records; a record may hold several).
    /// - Throws: ``Failure`` when the record does not authenticate, holds an alert or something not a handshake
    ///   message, or a message does not parse.
    package mutating func open(_ record: [UInt8]) throws(Failure) -> [Message] {
        guard record.count > 5 + 16, record[0] == 23 else { throw Failure("not an encrypted record") }
        // The per-record nonce: the IV XORed with the 64-bit sequence number, right-aligned (RFC 8446 §5.3).
        var nonce = iv
        for index in 0..<8 { nonce[4 + index] ^= UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64(index))) }
        sequence += 1
        let header = Array(record[0..<5])
        let body = record[5...]
        let plaintext: [UInt8]
        do {
            if chacha {
                let box = try ChaChaPoly.SealedBox(
                    nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: body.dropLast(16), tag: body.suffix(16))
                plaintext = Array(try ChaChaPoly.open(box, using: key, authenticating: header))
            } else {
                let box = try AES.GCM.SealedBox(
                    nonce: AES.GCM.Nonce(data: nonce), ciphertext: body.dropLast(16), tag: body.suffix(16))
                plaintext = Array(try AES.GCM.open(box, using: key, authenticating: header))
            }
        } catch {
            throw Failure("encrypted record \(sequence) does not authenticate with the derived keys")
        }
        // TLSInnerPlaintext: content, the real type, zero padding (RFC 8446 §5.2).
        guard let typeIndex = plaintext.lastIndex(where: { $0 != 0 }) else { throw Failure("an empty inner record") }
        switch plaintext[typeIndex] {
        case 22: buffer += plaintext[..<typeIndex]
        case 21:
            let alert = plaintext[..<typeIndex]
            throw Failure("server sent an encrypted alert \(alert.count == 2 ? String(alert.last!) : "?")")
        case let type: throw Failure("inner content type \(type) in the handshake")
        }
        var messages: [Message] = []
        while buffer.count >= 4 {
            let length = Int(buffer[1]) << 16 | Int(buffer[2]) << 8 | Int(buffer[3])
            guard buffer.count >= 4 + length else { break }
            let message = Array(buffer[0..<4 + length])
            buffer.removeFirst(4 + length)
            do { messages.append(try Self.parse(message)) } catch { throw Failure(error.description) }
        }
        return messages
    }

    static func parse(_ message: [UInt8]) throws(WireError) -> Message {
        var reader = ByteReader(message, 4..<message.count)
        switch message[0] {
        case 8:
            var list = ByteReader(try reader.vector(2))
            var types: [UInt16] = []
            while !list.isEmpty {
                types.append(try list.u16())
                _ = try list.vector(2)
            }
            return .encryptedExtensions(types)
        case 11:
            _ = try reader.vector(1)  // certificate_request_context
            var list = ByteReader(try reader.vector(3))
            var certificates: [[UInt8]] = []
            while !list.isEmpty {
                certificates.append(try list.vector(3))
                _ = try list.vector(2)  // the entry's extensions (OCSP, SCT)
            }
            return .certificate(certificates)
        case 13: return .certificateRequest
        case 15: return .certificateVerify(scheme: try reader.u16())
        case 20: return .finished
        case 25: return .compressedCertificate(algorithm: try reader.u16())
        case let type: return .other(type)
        }
    }
}
