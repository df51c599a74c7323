import Testing

@testable import TLSHello

/// Hand-made server messages.
enum Wire {
    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u24(_ value: Int) -> [UInt8] { [UInt8(value >> 16 & 0xFF)] + u16(value) }
    static func record(_ type: UInt8, _ fragment: [UInt8], version: Int = 0x0303) -> [UInt8] {
        [type] + u16(version) + u16(fragment.count) + fragment
    }
    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] { [type] + u24(body.count) + body }
    static func ext(_ type: Int, _ body: [UInt8]) -> [UInt8] { u16(type) + u16(body.count) + body }

    static func serverHello(
        version: Int = 0x0303, random: [UInt8] = [UInt8](repeating: 0x42, count: 32), suite: Int,
        extensions: [[UInt8]]
    ) -> [UInt8] {
        let block = extensions.flatMap { $0 }
        return handshake(2, u16(version) + random + [0] + u16(suite) + [0] + u16(block.count) + block)
    }
}

@Suite("ServerFlightReader")
struct ServerFlightReaderTests {
    static let tls12Hello = Wire.serverHello(
        suite: 0xC02F,
        extensions: [Wire.ext(0xFF01, [0]), Wire.ext(0x0017, []), Wire.ext(0x0010, [0, 3, 2] + Array("h2".utf8))])

    @Test("a TLS 1.2 ServerHello split over two records and fed a byte at a time")
    func splitServerHello() throws {
        let message = Self.tls12Hello
        let bytes = Wire.record(22, Array(message[0..<10])) + Wire.record(22, Array(message[10...]))
        var reader = ServerFlightReader()
        var events: [ServerFlightEvent] = []
        for byte in bytes {
            reader.feed([byte])
            while let event = reader.next() { events.append(event) }
        }
        try #require(events.count == 1)
        guard case .serverHello(let facts) = events[0] else { Issue.record("got \(events[0])"); return }
        #expect(facts.version == 0x0303 && facts.cipherSuite == 0xC02F && facts.compressionMethod == 0)
        #expect(facts.extensionTypes == [0xFF01, 0x0017, 0x0010])
        #expect(facts.extendedMasterSecret && facts.renegotiationInfo && facts.alpn == "h2")
        #expect(facts.selectedGroup == nil && facts.message == message)
    }

    @Test("several messages in one record: ServerHello, Certificate, ServerKeyExchange, ServerHelloDone")
    func flightInOneRecord() {
        let certificates: [[UInt8]] = [[0x30, 0x03, 1, 2, 3], [0x30, 0x01, 9]]
        let list = certificates.flatMap { Wire.u24($0.count) + $0 }
        let certificate = Wire.handshake(11, Wire.u24(list.count) + list)
        let keyExchange = Wire.handshake(12, [3] + Wire.u16(0x001D) + [32] + [UInt8](repeating: 5, count: 32))
        let done = Wire.handshake(14, [])
        var reader = ServerFlightReader()
        reader.feed(Wire.record(22, Self.tls12Hello + certificate + keyExchange + done))
        var events: [ServerFlightEvent] = []
        while let event = reader.next() { events.append(event) }
        #expect(events.count == 4)
        #expect(events.dropFirst().first == .certificate(certificates))
        #expect(events.dropFirst(2).first == .serverKeyExchange(.ecdhe(group: 0x001D)))
        #expect(events.last == .serverHelloDone)
    }

    @Test("a DHE ServerKeyExchange gives the prime's size and no ffdhe name for a prime of our own")
    func dheKeyExchange() {
        let hello = Wire.serverHello(suite: 0x009E, extensions: [])
        let prime = [UInt8](repeating: 0xC5, count: 128)
        let keyExchange = Wire.handshake(12, Wire.u16(prime.count) + prime + Wire.u16(1) + [2] + Wire.u16(1) + [7])
        var reader = ServerFlightReader()
        reader.feed(Wire.record(22, hello) + Wire.record(22, keyExchange))
        _ = reader.next()
        #expect(reader.next() == .serverKeyExchange(.dhe(primeBits: 1024, ffdheGroup: nil)))
    }

    @Test("a TLS 1.3 ServerHello: version from supported_versions, the key share, then encrypted records")
    func tls13() throws {
        let share = [UInt8](repeating: 9, count: 32)
        let hello = Wire.serverHello(
            suite: 0x1301,
            extensions: [Wire.ext(0x002B, Wire.u16(0x0304)), Wire.ext(0x0033, Wire.u16(0x001D) + Wire.u16(32) + share)])
        let encrypted = Wire.record(23, [1, 2, 3, 4, 5])
        var reader = ServerFlightReader()
        reader.feed(Wire.record(22, hello) + Wire.record(20, [1]) + encrypted)
        guard case .serverHello(let facts) = reader.next() else { Issue.record("no ServerHello"); return }
        #expect(facts.version == 0x0304 && facts.legacyVersion == 0x0303)
        #expect(facts.selectedGroup == 0x001D && facts.keyShare == share)
        #expect(reader.next() == .encryptedRecord(encrypted))
        #expect(reader.next() == nil)
    }

    @Test("a HelloRetryRequest is told by its random")
    func helloRetryRequest() {
        let hello = Wire.serverHello(
            random: ServerHelloParser.helloRetryRequestRandom, suite: 0x1302,
            extensions: [Wire.ext(0x002B, Wire.u16(0x0304)), Wire.ext(0x0033, Wire.u16(0x0017))])
        var reader = ServerFlightReader()
        reader.feed(Wire.record(22, hello))
        guard case .helloRetryRequest(let facts) = reader.next() else { Issue.record("no HRR"); return }
        #expect(facts.group == 0x0017 && facts.cipherSuite == 0x1302 && facts.version == 0x0304 && !facts.hasCookie)
    }

    @Test("an alert, with its level and description")
    func alert() {
        var reader = ServerFlightReader()
        reader.feed(Wire.record(21, [2, 40], version: 0x0301))
        #expect(reader.next() == .alert(level: 2, description: 40))
    }

    @Test("a reply that is not TLS", arguments: ["HTTP/1.1 400 Bad Request\r\n", "SSH-2.0-OpenSSH_9.2\r\n"])
    func notTLS(reply: String) {
        var reader = ServerFlightReader()
        reader.feed(Array(reply.utf8))
        #expect(reader.next() == .notTLS(firstBytes: Array(reply.utf8.prefix(16))))
        #expect(reader.next() == nil && reader.isFinished)
    }

    @Test("malformed flights are named and end the reading")
    func malformed() {
        // A ServerHello whose extension block is longer than the message.
        let truncated = Wire.handshake(
            2, Wire.u16(0x0303) + [UInt8](repeating: 0, count: 32) + [0, 0xC0, 0x2F, 0] + Wire.u16(9) + [0, 0])
        var reader = ServerFlightReader()
        reader.feed(Wire.record(22, truncated))
        guard case .malformed(let reason) = reader.next() else { Issue.record("not malformed"); return }
        #expect(reason.contains("ServerHello"))
        // A record of an unknown type after a good one.
        var second = ServerFlightReader()
        second.feed(Wire.record(22, Self.tls12Hello) + [0x30, 3, 3, 0, 0])
        _ = second.next()
        guard case .malformed = second.next() else { Issue.record("not malformed"); return }
        // Application data in the clear before TLS 1.3 was negotiated.
        var third = ServerFlightReader()
        third.feed(Wire.record(23, [0]))
        guard case .malformed = third.next() else { Issue.record("not malformed"); return }
    }

    @Test("incomplete input waits for more bytes")
    func needsMore() {
        var reader = ServerFlightReader()
        reader.feed([22, 3, 3, 0])
        #expect(reader.next() == nil && !reader.isFinished)
        reader.feed([4, 2, 0, 0, 1])
        #expect(reader.next() == nil && !reader.isFinished)
    }

    /// SplitMix64: a seeded generator, so a failure replays.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("mutated flights fed in random pieces end in events or a wait, never a trap or a loop")
    func mutatedFlights() {
        let list = [[UInt8](repeating: 0x30, count: 40)].flatMap { Wire.u24($0.count) + $0 }
        let flight = Wire.record(
            22,
            Self.tls12Hello + Wire.handshake(11, Wire.u24(list.count) + list)
                + Wire.handshake(12, [3] + Wire.u16(0x0017) + [65] + [UInt8](repeating: 4, count: 65))
                + Wire.handshake(14, []))
        var generator = Seeded(state: 35)
        var outcomes: [String: Int] = [:]
        for _ in 0..<1000 {
            var bytes = flight
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            bytes = Array(bytes.prefix(Int.random(in: 1...bytes.count, using: &generator)))
            var reader = ServerFlightReader()
            var events = 0
            var offset = 0
            var last: ServerFlightEvent?
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int.random(in: 1...64, using: &generator))
                reader.feed(Array(bytes[offset..<end]))
                offset = end
                while let event = reader.next() {
                    events += 1
                    last = event
                    #expect(events < 20)
                }
            }
            let kind: String
            switch last {
            case .malformed: kind = "malformed"
            case .notTLS: kind = "notTLS"
            case .serverHelloDone: kind = "done"
            case nil: kind = "waiting"
            default: kind = "partial"
            }
            outcomes[kind, default: 0] += 1
        }
        // The mutations reach every ending: a broken message, a broken first record, a complete flight, a wait.
        #expect(outcomes["malformed", default: 0] > 0 && outcomes["notTLS", default: 0] > 0)
        #expect(outcomes["done", default: 0] > 0 && outcomes["waiting", default: 0] > 0)
    }
}
