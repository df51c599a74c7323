import Testing

@testable import TLSProbe

/// ``DHEKeyExchangeGate`` on hand-made server flights: it must hold back exactly a DHE suite's
/// ServerKeyExchange, however the server frames its records, and pass every other byte on unchanged.
@Suite("The DHE ServerKeyExchange gate")
struct DHEKeyExchangeGateTests {
    static let dhe: UInt16 = 0x009E  // DHE-RSA-AES128-GCM-SHA256
    static let ecdhe: UInt16 = 0xC02F  // ECDHE-RSA-AES128-GCM-SHA256

    static func message(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type, UInt8(body.count >> 16), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF)] + body
    }
    static func record(_ fragment: [UInt8], type: UInt8 = 22) -> [UInt8] {
        [type, 3, 3, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }
    static func serverHello(_ suite: UInt16) -> [UInt8] {
        message(2, [3, 3] + Array(repeating: 7, count: 32) + [1, 9] + [UInt8(suite >> 8), UInt8(suite & 0xFF), 0])
    }
    static let certificate = message(11, Array(repeating: 0x30, count: 300))
    /// p = 0xABCD, g = 2, Ys = 5, then a "signature".
    static let keyExchangeBody: [UInt8] = [0, 2, 0xAB, 0xCD, 0, 1, 2, 0, 1, 5] + Array(repeating: 0x55, count: 40)
    static let keyExchange = message(12, keyExchangeBody)
    static let done = message(14, [])

    @Test("one record per message: the records before the key exchange pass, the key exchange is held")
    func recordPerMessage() {
        var gate = DHEKeyExchangeGate()
        let head = Self.record(Self.serverHello(Self.dhe)) + Self.record(Self.certificate)
        let passed = gate.take(head + Self.record(Self.keyExchange) + Self.record(Self.done))
        #expect(passed == head)
        #expect(gate.serverKeyExchange == Self.keyExchangeBody)
        let parameters = DHEKeyExchangeGate.parameters(Self.keyExchangeBody)
        #expect(parameters?.prime == [0xAB, 0xCD])
        #expect(parameters?.generator == [2])
    }

    @Test("the whole flight in one record: the messages before the key exchange pass as a record of their own")
    func oneRecord() {
        var gate = DHEKeyExchangeGate()
        let before = Self.serverHello(Self.dhe) + Self.certificate
        let passed = gate.take(Self.record(before + Self.keyExchange + Self.done))
        #expect(passed == Self.record(before))
        #expect(gate.serverKeyExchange == Self.keyExchangeBody)
    }

    @Test("a key exchange split over records and bytes arriving one at a time")
    func byteByByte() {
        var gate = DHEKeyExchangeGate()
        let split = Self.keyExchange.count / 2
        let head = Self.record(Self.serverHello(Self.dhe) + Self.certificate)
        let flight =
            head + Self.record(Array(Self.keyExchange[..<split])) + Self.record(Array(Self.keyExchange[split...]))
        var passed: [UInt8] = []
        for (index, byte) in flight.enumerated() {
            #expect(!gate.heldBack, "held back before byte \(index)")
            passed += gate.take([byte])
        }
        #expect(gate.heldBack)
        #expect(passed == head)
        #expect(gate.serverKeyExchange == Self.keyExchangeBody)
    }

    @Test("an ECDHE suite's flight passes unchanged")
    func ecdhePasses() {
        var gate = DHEKeyExchangeGate()
        let flight =
            Self.record(Self.serverHello(Self.ecdhe)) + Self.record(Self.certificate)
            + Self.record(Self.keyExchange) + Self.record(Self.done)
        #expect(gate.take(flight) == flight)
        #expect(!gate.heldBack)
    }

    @Test(
        "an alert, bytes that are not TLS, and a header split over records all pass unchanged",
        arguments: [
            record([2, 40], type: 21),
            Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8),
            record(serverHello(dhe) + Array(certificate.prefix(2)))
                + record(Array(certificate.dropFirst(2)) + keyExchange),
        ])
    func unexpectedPasses(_ bytes: [UInt8]) {
        var gate = DHEKeyExchangeGate()
        var passed = gate.take(bytes)
        passed += gate.take(Self.record(Self.keyExchange))  // after giving up, even a key exchange passes
        #expect(passed == bytes + Self.record(Self.keyExchange))
        #expect(!gate.heldBack)
    }

    @Test("a malformed key exchange has no parameters")
    func malformed() {
        #expect(DHEKeyExchangeGate.parameters([0, 9, 1]) == nil)
        #expect(DHEKeyExchangeGate.parameters([0, 0, 0, 1, 2]) == nil)
    }
}
extension DHEKeyExchangeGateTests {
    @Test(
        "a held-back group is named by its prime's size, as OpenSSL names an unnamed group",
        arguments: [1024, 2048, 3072])
    func groupSize(_ bits: Int) {
        var prime = [UInt8](repeating: 0xFF, count: bits / 8)
        prime[prime.count - 1] = 0x61  // odd; named groups are not matched by a made-up prime
        let (name, size) = KeyNames.describeDH(prime: prime, generator: [2])
        #expect(name == "DH-\(bits)")
        #expect(size == bits)
    }
}
