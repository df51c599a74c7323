import TLSModel

/// Holds back a TLS ≤ 1.2 server's ServerKeyExchange from OpenSSL when the server chose a DHE suite, so
/// that a probe stops with everything it reads (version, suite, certificate chain, OCSP staple) but without
/// OpenSSL's check of the server's DH public value.
///
/// That check (`EVP_PKEY_public_check`, a modular exponentiation by the group's full-size order for the
/// RFC 7919 groups) runs while the message is processed, before ``ServerFlight``'s callback can stop the
/// handshake, and it was about a quarter of atscheck's CPU time over the 14 demo servers (issue 10). A probe
/// never uses the value: it reads the group's parameters from the message itself (``parameters``).
///
/// The gate sits between the socket and OpenSSL's read BIO. It splits the server's plaintext handshake
/// records into messages; records pass through unchanged until the ServerKeyExchange of a DHE suite
/// begins, and the part of that record before the message is passed on as a record of its own. A
/// ServerHello that chose no DHE suite, or anything the gate does not expect (a message header split over
/// two records, a record that is not a handshake record, a length beyond a record's limit), turns the gate
/// off for the rest of the connection: every byte then reaches OpenSSL as sent, and the handshake runs as
/// it would without the gate.
struct DHEKeyExchangeGate {
    /// The ServerKeyExchange body (the DH parameters, then the signature), once whole.
    private(set) var serverKeyExchange: [UInt8]?

    private var pending: [UInt8] = []  // received bytes not yet a whole record
    private var passThrough = false
    private var bodyLeft = 0  // bytes of the current handshake message not yet seen (of a held-back one, header too)
    private var dhe = false  // the ServerHello chose a DHE suite
    private var collecting: [UInt8]?  // the ServerKeyExchange, header included, while it arrives

    private static let handshake: UInt8 = 22
    private static let serverHello: UInt8 = 2
    private static let serverKeyExchange: UInt8 = 12
    private static let maximumFragment = 16_384 + 2_048

    /// Whether the gate held a ServerKeyExchange back: the probe can stop once OpenSSL wants more bytes.
    var heldBack: Bool { serverKeyExchange != nil }

    /// Takes bytes from the socket and returns those to give OpenSSL.
    mutating func take(_ bytes: [UInt8]) -> [UInt8] {
        if passThrough { return bytes }
        pending += bytes
        var out: [UInt8] = []
        var offset = 0
        while pending.count - offset >= 5 {
            let type = pending[offset]
            let length = Int(pending[offset + 3]) << 8 | Int(pending[offset + 4])
            guard pending[offset + 1] == 3, length <= Self.maximumFragment else {
                return giveUp(out, rest: pending[offset...])
            }
            guard pending.count - offset >= 5 + length else { break }
            let record = Array(pending[offset..<(offset + 5 + length)])
            offset += 5 + length
            guard type == Self.handshake else { return giveUp(out, rest: record[...] + pending[offset...]) }
            guard let kept = handshakeRecord(record) else { return giveUp(out, rest: record[...] + pending[offset...]) }
            out += kept
            if serverKeyExchange != nil { pending = []; return out }
        }
        pending.removeFirst(offset)
        return out
    }

    /// The part of a handshake `record` to give OpenSSL (nil: give up), following its messages.
    private mutating func handshakeRecord(_ record: [UInt8]) -> [UInt8]? {
        let fragment = record[5...]
        // Where this record's held-back part begins: at its start when the message began in an earlier record.
        var cut = collecting == nil ? nil : fragment.startIndex
        var index = fragment.startIndex
        while index < fragment.endIndex && serverKeyExchange == nil {
            if bodyLeft > 0 {
                let take = min(bodyLeft, fragment.endIndex - index)
                collecting?.append(contentsOf: fragment[index..<(index + take)])
                bodyLeft -= take
                index += take
                if bodyLeft == 0, let message = collecting { serverKeyExchange = Array(message.dropFirst(4)) }
                continue
            }
            // A message header: whole in this record, or the gate gives up.
            guard fragment.endIndex - index >= 4 else { return nil }
            let type = fragment[index]
            let length = Int(fragment[index + 1]) << 16 | Int(fragment[index + 2]) << 8 | Int(fragment[index + 3])
            if type == Self.serverHello {
                // No DHE suite chosen: nothing to hold back, and the rest passes as sent.
                guard Self.choosesDHE(fragment[(index + 4)...].prefix(length)) else { return nil }
                dhe = true
            }
            if type == Self.serverKeyExchange && dhe {
                // Held back from here on, header included.
                cut = index
                collecting = []
                bodyLeft = length + 4
                continue
            }
            bodyLeft = length
            index += 4
        }
        guard let cut else { return record }
        let before = fragment[fragment.startIndex..<cut]
        return before.isEmpty ? [] : Self.record(of: before, like: record)
    }

    /// Whether a ServerHello body chose a suite with DHE key exchange.
    private static func choosesDHE(_ body: ArraySlice<UInt8>) -> Bool {
        let start = body.startIndex
        guard body.count >= 35 else { return false }
        let sessionLength = Int(body[start + 34])
        let suiteAt = start + 35 + sessionLength
        guard body.endIndex >= suiteAt + 2 else { return false }
        let code = UInt16(body[suiteAt]) << 8 | UInt16(body[suiteAt + 1])
        return CipherSuite(code).info?.keyExchange == .dhe
    }

    /// `fragment` as a record with `like`'s type and version.
    private static func record(of fragment: ArraySlice<UInt8>, like: [UInt8]) -> [UInt8] {
        [like[0], like[1], like[2], UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }

    private mutating func giveUp(_ out: [UInt8], rest: ArraySlice<UInt8>) -> [UInt8] {
        passThrough = true
        pending = []
        return out + rest
    }

    /// The DH prime and generator at the start of a ServerKeyExchange body (nil: malformed).
    static func parameters(_ body: [UInt8]) -> (prime: [UInt8], generator: [UInt8])? {
        var index = 0
        func vector() -> [UInt8]? {
            guard body.count - index >= 2 else { return nil }
            let length = Int(body[index]) << 8 | Int(body[index + 1])
            guard body.count - index - 2 >= length else { return nil }
            defer { index += 2 + length }
            return Array(body[(index + 2)..<(index + 2 + length)])
        }
        guard let prime = vector(), let generator = vector(), !prime.isEmpty, !generator.isEmpty else { return nil }
        return (prime, generator)
    }
}
