/// Reads a server's first flight from bytes fed as they arrive: records (a message split over several records,
/// or several messages in one record), then handshake messages, alerts, and TLS 1.3's encrypted records.
///
/// ```
/// var reader = ServerFlightReader()
/// reader.feed(bytesFromSocket)
/// while let event = reader.next() { … }   // nil: needs more bytes
/// ```
/// After `.notTLS` or `.malformed` it yields nothing more.
package struct ServerFlightReader: Sendable {
    private var buffer: [UInt8] = []
    private var handshake: [UInt8] = []
    private var sawRecord = false
    private var finished = false
    /// The version the ServerHello negotiated: decides whether later handshake messages are in the clear.
    private var negotiated: UInt16?
    private var suite: UInt16?
    private var pending: [ServerFlightEvent] = []

    /// The signature scheme of the TLS 1.2 ServerKeyExchange read (``ServerKeyExchangeParser/signatureScheme``), once
    /// one was: what the server signed its key exchange with. Nil before, below TLS 1.2, or without a signature.
    package private(set) var serverKeyExchangeSignature: UInt16?

    /// An empty reader.
    package init() {}

    /// Adds bytes received from the server.
    package mutating func feed(_ bytes: [UInt8]) { buffer += bytes }

    /// Whether the reader stopped (after `.notTLS` or `.malformed`).
    package var isFinished: Bool { finished }

    /// Bytes fed but not yet read as a complete record.
    package var bufferedByteCount: Int { buffer.count + handshake.count }

    /// The next event, or nil when more bytes are needed (or the reader has finished).
    package mutating func next() -> ServerFlightEvent? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            if finished { return nil }
            if let message = takeHandshakeMessage() {
                switch message {
                case .success(let bytes): return handshakeEvent(bytes)
                case .failure(let error): return stop(.malformed(reason: error.description))
                }
            }
            guard let record = takeRecord() else { return nil }
            switch record {
            case .failure(let failure): return stop(failure.event)
            case .success(let (type, fragment, raw)):
                switch type {
                case 20:  // change_cipher_spec: TLS 1.3 middlebox compatibility, or TLS ≤ 1.2 past the flight
                    continue
                case 21:
                    guard fragment.count == 2 else {
                        return stop(.malformed(reason: "alert record of \(fragment.count) bytes"))
                    }
                    return .alert(level: fragment[0], description: fragment[1])
                case 22:
                    handshake += fragment
                case 23:
                    guard negotiated == 0x0304 else {
                        return stop(.malformed(reason: "application data before the handshake finished"))
                    }
                    return .encryptedRecord(raw)
                default:
                    return stop(.malformed(reason: "record type \(type)"))
                }
            }
        }
    }

    private mutating func stop(_ event: ServerFlightEvent) -> ServerFlightEvent {
        finished = true
        return event
    }

    /// One whole record: (type, fragment, the record's bytes), or the event that ends the reading.
    private mutating func takeRecord() -> Result<(UInt8, [UInt8], [UInt8]), RecordFailure>? {
        guard let first = buffer.first else { return nil }
        let known: ClosedRange<UInt8> = 20...23
        if !known.contains(first) || (buffer.count >= 2 && buffer[1] != 3) {
            if !sawRecord { return .failure(RecordFailure(event: .notTLS(firstBytes: Array(buffer.prefix(16))))) }
            return .failure(
                RecordFailure(event: .malformed(reason: "not a TLS record: \(Array(buffer.prefix(5)).hexString)")))
        }
        guard buffer.count >= 5 else { return nil }
        let length = Int(buffer[3]) << 8 | Int(buffer[4])
        guard length <= 16384 + 2048 else {
            return .failure(RecordFailure(event: .malformed(reason: "record length \(length) over 2^14 + 2048")))
        }
        guard buffer.count >= 5 + length else { return nil }
        sawRecord = true
        let raw = Array(buffer[0..<5 + length])
        buffer.removeFirst(5 + length)
        return .success((first, Array(raw[5...]), raw))
    }

    private struct RecordFailure: Error { var event: ServerFlightEvent }

    /// One whole handshake message from the reassembly buffer.
    private mutating func takeHandshakeMessage() -> Result<[UInt8], WireError>? {
        guard handshake.count >= 4 else { return nil }
        let length = Int(handshake[1]) << 16 | Int(handshake[2]) << 8 | Int(handshake[3])
        guard length <= 1 << 17 else { return .failure(WireError("handshake message of \(length) bytes")) }
        guard handshake.count >= 4 + length else { return nil }
        let message = Array(handshake[0..<4 + length])
        handshake.removeFirst(4 + length)
        return .success(message)
    }

    private mutating func handshakeEvent(_ message: [UInt8]) -> ServerFlightEvent {
        do {
            switch message[0] {
            case 2:
                let event = try ServerHelloParser.parse(message)
                if case .serverHello(let facts) = event {
                    negotiated = facts.version
                    suite = facts.cipherSuite
                }
                return event
            case 11 where negotiated != 0x0304:
                return .certificate(try Self.certificates(message))
            case 12 where negotiated != 0x0304:
                serverKeyExchangeSignature = ServerKeyExchangeParser.signatureScheme(
                    message, suite: suite, version: negotiated ?? 0)
                return .serverKeyExchange(try ServerKeyExchangeParser.parse(message, suite: suite))
            case 14:
                return .serverHelloDone
            default:
                return .otherHandshake(type: message[0])
            }
        } catch {
            return stop(.malformed(reason: "\(Self.messageName(message[0])): \(error.description)"))
        }
    }

    /// A TLS ≤ 1.2 Certificate message's DER certificates (RFC 5246 §7.4.2).
    static func certificates(_ message: [UInt8]) throws(WireError) -> [[UInt8]] {
        var reader = ByteReader(message, 4..<message.count)
        var list = ByteReader(try reader.vector(3))
        var certificates: [[UInt8]] = []
        while !list.isEmpty { certificates.append(try list.vector(3)) }
        return certificates
    }

    private static func messageName(_ type: UInt8) -> String {
        switch type {
        case 2: "ServerHello"
        case 11: "Certificate"
        case 12: "ServerKeyExchange"
        default: "handshake message \(type)"
        }
    }
}
