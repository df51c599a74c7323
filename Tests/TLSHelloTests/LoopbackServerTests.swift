import TLSModel
import TLSTestSupport
import Testing

@testable import TLSHello

/// The engine against OpenSSL's server (in process, on loopback): suites and versions chosen as configured,
/// refusals as alerts, and TLS 1.3 handshakes proven by decrypting EncryptedExtensions.
@Suite("TLSHello against OpenSSL on loopback")
struct LoopbackServerTests {
    static let tls12Suites: [UInt16] = [0xC030, 0xC02F, 0x009C, 0x002F, 0x000A]

    @Test("TLS 1.2: the suite the server was configured with, its certificates and its ECDHE group")
    func tls12() throws {
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256"))
        let hello = try ClientHelloBuilder(
            profile: .probe(version: 0x0303, suites: Self.tls12Suites, groups: [0x0017, 0x001D]),
            serverName: "localhost"
        ).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        #expect(facts.version == 0x0303 && facts.cipherSuite == 0xC02F)
        #expect(facts.extendedMasterSecret && facts.renegotiationInfo)
        let certificates = exchange.events.compactMap { if case .certificate(let list) = $0 { list } else { nil } }
        #expect(certificates.first?.count == 2)  // leaf and intermediate
        #expect(certificates.first?.first?.first == 0x30)  // DER SEQUENCE
        let groups = exchange.events.compactMap {
            if case .serverKeyExchange(.ecdhe(let group)) = $0 { group } else { nil }
        }
        #expect(groups.count == 1 && [0x0017, 0x001D].contains(groups[0]))
        #expect(exchange.events.last == .serverHelloDone)
    }

    @Test("TLS 1.0 only: the probe for TLS 1.0 gets a TLS 1.0 ServerHello")
    func tls10() throws {
        let server = try TestTLSServer(.only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA"))
        let hello = try ClientHelloBuilder(
            profile: .probe(version: 0x0301, suites: [0xC013, 0x002F], groups: [0x001D])
        )
        .build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        #expect(facts.version == 0x0301 && facts.cipherSuite == 0xC013)
    }

    @Test("a 3DES-only offer to a server without 3DES is refused with handshake_failure")
    func tripleDESRefused() throws {
        let server = try TestTLSServer(.modern())
        let hello = try ClientHelloBuilder(
            profile: .probe(version: 0x0303, suites: [0x000A, 0xC012, 0xC008], groups: [0x001D, 0x0017])
        ).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        #expect(exchange.events == [.alert(level: 2, description: 40)])
    }

    @Test("a TLS 1.3 offer to a TLS 1.2-only server gets a TLS 1.2 answer or protocol_version, never TLS 1.3")
    func tls13ToTLS12Server() throws {
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256"))
        let hello = try ClientHelloBuilder(profile: .probe(version: 0x0304, suites: [0x1301], groups: [0x001D])).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        #expect(exchange.events.first == .alert(level: 2, description: 70))
    }

    @Test(
        "TLS 1.3 over X25519 is proven by decrypting EncryptedExtensions, with each suite",
        arguments: [
            (UInt16(0x1301), "TLS_AES_128_GCM_SHA256"), (0x1302, "TLS_AES_256_GCM_SHA384"),
            (0x1303, "TLS_CHACHA20_POLY1305_SHA256"),
        ])
    func tls13Proof(suite: UInt16, name: String) throws {
        var configuration = TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3, tls13CipherSuites: name)
        configuration.groups = "X25519"
        let server = try TestTLSServer(configuration)
        let hello = try ClientHelloBuilder(
            profile: .probe(version: 0x0304, suites: [0x1301, 0x1302, 0x1303], groups: [0x001D]),
            serverName: "localhost"
        ).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        #expect(facts.version == 0x0304 && facts.cipherSuite == suite && facts.selectedGroup == 0x001D)
        let record = try #require(exchange.firstEncryptedRecord)
        #expect(
            TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record)
                == .proven(group: 0x001D, cipherSuite: suite))
    }

    @Test("TLS 1.3 over P-256, P-384 and P-521 is proven")
    func tls13NIST() throws {
        for (group, name) in [(UInt16(0x0017), "P-256"), (0x0018, "P-384"), (0x0019, "P-521")] {
            var configuration = TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3)
            configuration.groups = name
            let server = try TestTLSServer(configuration)
            let hello = try ClientHelloBuilder(profile: .probe(version: 0x0304, suites: [0x1301], groups: [group]))
                .build()
            let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
            let facts = try #require(exchange.serverHello, "\(name): events: \(exchange.events)")
            let record = try #require(exchange.firstEncryptedRecord)
            #expect(
                TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record).isProven, "\(name)")
        }
    }

    @Test("a tampered record or a wrong key is not proven")
    func tamperedNotProven() throws {
        var configuration = TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3)
        configuration.groups = "X25519"
        let server = try TestTLSServer(configuration)
        let hello = try ClientHelloBuilder(profile: .probe(version: 0x0304, suites: [0x1301], groups: [0x001D])).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        let facts = try #require(exchange.serverHello)
        var record = try #require(exchange.firstEncryptedRecord)
        record[record.count - 1] ^= 1
        #expect(!TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record).isProven)
        // Another hello's keys (same profile, fresh key pair) cannot open the genuine record.
        let other = try ClientHelloBuilder(profile: .probe(version: 0x0304, suites: [0x1301], groups: [0x001D])).build()
        record[record.count - 1] ^= 1
        #expect(!TLS13Proof.verify(hello: other, serverHello: facts, firstEncryptedRecord: record).isProven)
    }

    @Test("a server that wants another group answers with a HelloRetryRequest naming it")
    func helloRetryRequest() throws {
        var configuration = TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3)
        configuration.groups = "P-384"
        let server = try TestTLSServer(configuration)
        let hello = try ClientHelloBuilder(
            profile: .probe(version: 0x0304, suites: [0x1301], groups: [0x001D, 0x0018], keyShares: 1)
        ).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        guard case .helloRetryRequest(let facts) = exchange.events.first else {
            Issue.record("events: \(exchange.events)")
            return
        }
        #expect(facts.group == 0x0018 && facts.cipherSuite == 0x1301)
    }

    @Test("the second hello after a HelloRetryRequest gets a ServerHello, proven over the retried transcript")
    func helloRetryRequestThenProof() throws {
        var configuration = TLSServerConfiguration(
            minVersion: .tls1_3, maxVersion: .tls1_3, tls13CipherSuites: "TLS_AES_256_GCM_SHA384")
        configuration.groups = "P-384"
        let server = try TestTLSServer(configuration)
        // iOS 18's hello: a GREASE and an x25519 share, P-384 only in supported_groups.
        let first = try ClientHelloBuilder(profile: .ios18, serverName: "localhost").build()
        let connection = try LoopbackConnection(port: server.port)
        try connection.send(first.bytes)
        let retryExchange = connection.readUntilDecided(timeout: 5)
        guard case .helloRetryRequest(let retry) = retryExchange.events.last else {
            Issue.record("events: \(retryExchange.events)")
            return
        }
        #expect(retry.group == 0x0018)
        let second = try first.retry(after: retry)
        #expect(second.random == first.random && second.sessionID == first.sessionID)
        #expect(second.keyShares.map(\.group) == [0x0018])
        try connection.send(second.bytes)
        let exchange = connection.readUntilDecided(timeout: 5)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        #expect(facts.selectedGroup == 0x0018 && facts.cipherSuite == 0x1302)
        let record = try #require(exchange.firstEncryptedRecord)
        #expect(
            TLS13Proof.verify(hello: second, serverHello: facts, firstEncryptedRecord: record)
                == .proven(group: 0x0018, cipherSuite: 0x1302))
        // Without the retry's transcript (a hello with the same keys, no HelloRetryRequest before it) it fails.
        let unrelated = BuiltClientHello(
            bytes: second.bytes, handshakeMessage: second.handshakeMessage, random: second.random,
            sessionID: second.sessionID, keyShares: second.keyShares, grease: second.grease, builder: second.builder,
            retryOf: nil)
        #expect(!TLS13Proof.verify(hello: unrelated, serverHello: facts, firstEncryptedRecord: record).isProven)
    }

    @Test("TLS 1.2 DHE: the prime's size, and no ffdhe name for OpenSSL's automatic (RFC 3526) prime")
    func dheGroup() throws {
        // OpenSSL 3.0's automatic DH parameters for a 2048-bit RSA key are RFC 3526's 2048-bit MODP group, not
        // RFC 7919's ffdhe2048: same size, another prime, which must not be named ffdhe.
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "DHE-RSA-AES128-GCM-SHA256"))
        let hello = try ClientHelloBuilder(profile: .probe(version: 0x0303, suites: [0x009E], groups: [0x0100])).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
        let facts = exchange.events.compactMap { if case .serverKeyExchange(let facts) = $0 { facts } else { nil } }
        #expect(facts == [.dhe(primeBits: 2048, ffdheGroup: nil)], "events: \(exchange.events)")
    }

    @Test("a plain HTTP port is not TLS")
    func plainHTTP() throws {
        let peer = try HostilePeer(.plainHTTP)
        let hello = try ClientHelloBuilder(profile: .ios18, serverName: "localhost").build()
        let exchange = try LoopbackExchange.run(port: peer.port, hello: hello)
        guard case .notTLS(let first) = exchange.events.first else {
            Issue.record("events: \(exchange.events)")
            return
        }
        #expect(String(decoding: first.prefix(5), as: UTF8.self) == "HTTP/")
    }

    @Test("every Apple profile gets a ServerHello from a modern OpenSSL server")
    func appleProfilesHandshake() throws {
        let server = try TestTLSServer(.modern())
        for profile in HelloProfile.apple {
            let hello = try ClientHelloBuilder(profile: profile, serverName: "localhost").build()
            let exchange = try LoopbackExchange.run(port: server.port, hello: hello)
            let facts = try #require(exchange.serverHello, "\(profile.name): \(exchange.events)")
            #expect(facts.version == min(profile.highestVersion, 0x0304), "\(profile.name)")
            if facts.version == 0x0304, let record = exchange.firstEncryptedRecord {
                #expect(
                    TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record).isProven,
                    "\(profile.name)")
            }
        }
    }
}
