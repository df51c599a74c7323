import TLSModel
import TLSTestSupport
import Testing

@testable import TLSHello

/// The server's signature scheme, read as a simulated Apple client reads it: TLS 1.3's CertificateVerify inside the
/// encrypted flight (``TLS13ServerFlight``), TLS 1.2's ServerKeyExchange (``ServerFlightReader``), against OpenSSL's
/// server on loopback.
@Suite("TLSHello: the server's encrypted flight and signature scheme")
struct TLS13ServerFlightTests {
    /// Sends `profile`'s hello to `server` and reads its whole first flight.
    static func flight(_ server: TestTLSServer, _ profile: HelloProfile) throws -> (
        BuiltClientHello, [ServerFlightEvent], LoopbackConnection
    ) {
        let hello = try ClientHelloBuilder(profile: profile, serverName: "localhost").build()
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(hello.bytes)
        return (hello, connection.readFlight(), connection)
    }

    @Test(
        "TLS 1.3: Certificate and CertificateVerify are read from the decrypted flight, with each suite",
        arguments: [
            ("TLS_AES_128_GCM_SHA256", UInt16(0x1301)), ("TLS_AES_256_GCM_SHA384", 0x1302),
            ("TLS_CHACHA20_POLY1305_SHA256", 0x1303),
        ])
    func tls13RSA(suiteName: String, suite: UInt16) throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3, tls13CipherSuites: suiteName))
        defer { server.stop() }
        let (hello, events, _) = try Self.flight(server, .ios18)
        let serverHello = try #require(events.compactMap { if case .serverHello(let f) = $0 { f } else { nil } }.first)
        #expect(serverHello.cipherSuite == suite)
        var flight = try TLS13ServerFlight(hello: hello, serverHello: serverHello)
        var messages: [TLS13ServerFlight.Message] = []
        for case .encryptedRecord(let record) in events { messages += try flight.open(record) }
        #expect(messages.first.map { if case .encryptedExtensions = $0 { true } else { false } } == true)
        let chain = messages.compactMap { if case .certificate(let list) = $0 { list } else { nil } }.first
        #expect(chain?.count == 2 && chain?.first?.first == 0x30)  // leaf and intermediate, DER
        // An RSA key signs TLS 1.3 with RSA-PSS (RFC 8446 §4.2.3): rsa_pss_rsae_sha256, which iOS 18 offers.
        #expect(messages.contains(.certificateVerify(scheme: 0x0804)), "\(messages)")
        #expect(messages.last == .finished)
        #expect(SignatureSchemeCatalogue.name(0x0804) == "rsa_pss_rsae_sha256")
    }

    @Test("TLS 1.3 with an ECDSA P-256 leaf: ecdsa_secp256r1_sha256")
    func tls13ECDSA() throws {
        let leaf = try TestPKI.shared.leaf(.leaf("localhost", key: .ec(curve: "P-256")))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_3, maxVersion: .tls1_3, chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let (hello, events, _) = try Self.flight(server, .ios26)
        let serverHello = try #require(events.compactMap { if case .serverHello(let f) = $0 { f } else { nil } }.first)
        var flight = try TLS13ServerFlight(hello: hello, serverHello: serverHello)
        var messages: [TLS13ServerFlight.Message] = []
        for case .encryptedRecord(let record) in events { messages += try flight.open(record) }
        #expect(messages.contains(.certificateVerify(scheme: 0x0403)), "\(messages)")
    }

    @Test("a flipped bit in an encrypted record, or a record out of order, does not authenticate")
    func tampered() throws {
        let server = try TestTLSServer(TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3))
        defer { server.stop() }
        let (hello, events, _) = try Self.flight(server, .ios18)
        let serverHello = try #require(events.compactMap { if case .serverHello(let f) = $0 { f } else { nil } }.first)
        let records = events.compactMap { if case .encryptedRecord(let r) = $0 { r } else { nil } }
        try #require(!records.isEmpty)
        var flipped = records[0]
        flipped[flipped.count / 2] ^= 0x01
        var first = try TLS13ServerFlight(hello: hello, serverHello: serverHello)
        #expect(throws: TLS13ServerFlight.Failure.self) { try first.open(flipped) }
        if records.count >= 2 {
            var skipped = try TLS13ServerFlight(hello: hello, serverHello: serverHello)
            #expect(throws: TLS13ServerFlight.Failure.self) { try skipped.open(records[1]) }  // sequence number 0 ≠ 1
        }
    }

    @Test("TLS 1.2 ECDHE-RSA: the ServerKeyExchange's signature scheme is one the client offered")
    func tls12Signature() throws {
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256"))
        defer { server.stop() }
        for profile in [HelloProfile.ios9URLSessionATS, .ios18] {
            let (_, events, connection) = try Self.flight(server, profile)
            #expect(events.last == .serverHelloDone, "\(profile.name): \(events)")
            let scheme = try #require(connection.serverKeyExchangeSignature, "\(profile.name)")
            #expect(profile.signatureAlgorithms.contains(scheme), "\(profile.name): \(scheme)")
        }
        // iOS 9 offers no RSA-PSS: OpenSSL signs with PKCS#1 (rsa_pkcs1_sha384 is first among iOS 9's RSA schemes).
        let (_, _, ios9) = try Self.flight(server, .ios9URLSessionATS)
        #expect(ios9.serverKeyExchangeSignature.map { $0 & 0xFF } == 0x01)
    }

    @Test("TLS 1.2 RSA key exchange and TLS 1.0: no signature scheme")
    func noSignature() throws {
        let rsa = try TestTLSServer(.only(.tls1_2, cipherList: "AES128-GCM-SHA256"))
        defer { rsa.stop() }
        let (_, events, connection) = try Self.flight(rsa, .ios18)
        #expect(events.last == .serverHelloDone)
        #expect(connection.serverKeyExchangeSignature == nil)
        let old = try TestTLSServer(.only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA"))
        defer { old.stop() }
        let (_, oldEvents, oldConnection) = try Self.flight(old, .ios18)
        #expect(oldEvents.contains { if case .serverKeyExchange = $0 { true } else { false } })
        #expect(oldConnection.serverKeyExchangeSignature == nil)  // TLS 1.0 has no algorithm field
    }
}
