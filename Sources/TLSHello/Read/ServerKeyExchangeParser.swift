import Crypto

/// Reads the group out of a TLS ≤ 1.2 ServerKeyExchange: ECDHE's named curve (RFC 8422 §5.4) or DHE's prime
/// (RFC 5246 §7.4.3), which is matched against the RFC 7919 primes so that a TLS 1.2 ffdhe group can be named.
enum ServerKeyExchangeParser {
    static func parse(_ message: [UInt8], suite: UInt16?) throws(WireError) -> ServerKeyExchangeFacts {
        var reader = ByteReader(message, 4..<message.count)
        let kx = suite.flatMap(CipherSuiteCatalogue.entry)?.keyExchange
        switch kx {
        case .ecdhe, .ecdhAnon:
            let curveType = try reader.u8()
            guard curveType == 3 else { return .ecdheExplicit }  // 1 explicit_prime, 2 explicit_char2
            return .ecdhe(group: try reader.u16())
        case .dhe, .dhAnon:
            return try dhe(&reader)
        case .dhePSK:
            _ = try reader.vector(2)  // psk_identity_hint
            return try dhe(&reader)
        case .ecdhePSK:
            _ = try reader.vector(2)
            guard try reader.u8() == 3 else { return .ecdheExplicit }
            return .ecdhe(group: try reader.u16())
        default:
            return .other
        }
    }

    /// The SignatureAndHashAlgorithm of a TLS 1.2 ServerKeyExchange (RFC 5246 §7.4.3, RFC 8422 §5.4): the scheme the
    /// server signed its ephemeral key with. Nil below TLS 1.2 (no algorithm field), for anonymous and PSK key
    /// exchanges (no signature) and for a message that does not parse.
    static func signatureScheme(_ message: [UInt8], suite: UInt16?, version: UInt16) -> UInt16? {
        guard version == 0x0303 else { return nil }
        var reader = ByteReader(message, 4..<message.count)
        do {
            switch suite.flatMap(CipherSuiteCatalogue.entry)?.keyExchange {
            case .ecdhe:
                guard try reader.u8() == 3 else { return nil }
                _ = try reader.u16()
                _ = try reader.vector(1)  // the server's point
            case .dhe:
                for _ in 0..<3 { _ = try reader.vector(2) }  // p, g, Ys
            default:
                return nil
            }
            return try reader.u16()
        } catch {
            return nil
        }
    }

    private static func dhe(_ reader: inout ByteReader) throws(WireError) -> ServerKeyExchangeFacts {
        var prime = try reader.vector(2)
        while prime.first == 0 { prime.removeFirst() }
        guard let top = prime.first else { throw WireError("empty DH prime") }
        let bits = prime.count * 8 - top.leadingZeroBitCount
        let digest = Array(SHA256.hash(data: prime))
        return .dhe(primeBits: bits, ffdheGroup: ffdhePrimeDigests[digest])
    }

    /// SHA-256 of each RFC 7919 prime (big-endian, no leading zero) → its group. Computed from the primes as
    /// OpenSSL 3.0 ships them (`openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdheN`), which equal RFC
    /// 7919 appendix A; the test `ffdhe primes match OpenSSL's` checks them again.
    static let ffdhePrimeDigests: [[UInt8]: UInt16] = [
        [UInt8](hex: "9cd3b7f336872f46c09428d1bbc19877a4d440512cda8d1c1cf0cd6e33698966")!: 0x0100,
        [UInt8](hex: "0eaf67db3a839156d5013494a5318a772b5697d270d721f37f092efc69ea5a17")!: 0x0101,
        [UInt8](hex: "4648414224ac881b3d0dc59b466f96d06a558278776807797ecf1f66ff397b3e")!: 0x0102,
        [UInt8](hex: "227ac9066b3ddd9e193670cda2388fa884f65ba0cf98b742d1fe77a6687c79c7")!: 0x0103,
        [UInt8](hex: "770b14efaf6f049929c523113b3fa99a8d11dab1b18af3609590122075d19833")!: 0x0104,
    ]
}
