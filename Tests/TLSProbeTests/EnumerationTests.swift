import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Real handshakes against in-process OpenSSL servers: the scan must find exactly the configured
/// versions and suites, no more and no fewer, and the right order mode.
@Suite("Enumeration against configured servers", .serialized)
struct EnumerationTests {
    struct Config: Sendable, CustomStringConvertible {
        var name: String
        var min: TLSVersion
        var max: TLSVersion
        var ciphers: [String] = []  // OpenSSL names, ≤1.2
        var tls13: [String] = []  // IANA names
        var serverPreference = true
        var key: TestKeyType = .rsa(bits: 2048)
        /// Suites among `ciphers` the server cannot use with this certificate.
        var unusable: [String] = []
        var expectedOrder: Bool? = nil
        var expectedFirst: String? = nil
        var description: String { name }
    }

    static let defaultTLS13 = ["TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_GCM_SHA256"]

    static let twentyTwoRSA = [
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-CHACHA20-POLY1305",
        "ECDHE-RSA-AES256-SHA384", "ECDHE-RSA-AES128-SHA256", "ECDHE-RSA-AES256-SHA", "ECDHE-RSA-AES128-SHA",
        "DHE-RSA-AES256-GCM-SHA384", "DHE-RSA-AES128-GCM-SHA256", "DHE-RSA-CHACHA20-POLY1305", "DHE-RSA-AES256-SHA256",
        "DHE-RSA-AES128-SHA256", "DHE-RSA-AES256-SHA", "DHE-RSA-AES128-SHA", "AES256-GCM-SHA384", "AES128-GCM-SHA256",
        "AES256-SHA256", "AES128-SHA256", "AES256-SHA", "AES128-SHA", "CAMELLIA256-SHA", "CAMELLIA128-SHA",
        "ARIA128-GCM-SHA256", "ECDHE-ARIA128-GCM-SHA256",
    ]

    static let configs: [Config] = [
        Config(
            name: "modern TLS 1.2+1.3 ECDHE AEAD", min: .tls1_2, max: .tls1_3,
            ciphers: ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"], tls13: defaultTLS13),
        Config(
            name: "TLS 1.3 only", min: .tls1_3, max: .tls1_3,
            tls13: ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"]),
        Config(name: "TLS 1.0 only", min: .tls1_0, max: .tls1_0, ciphers: ["ECDHE-RSA-AES128-SHA", "AES256-SHA"]),
        Config(
            name: "TLS 1.0-1.2 legacy RSA kx + CBC", min: .tls1_0, max: .tls1_2,
            ciphers: ["AES128-SHA", "AES256-SHA", "AES128-SHA256"]),
        Config(
            name: "TLS 1.2 RSA key exchange only", min: .tls1_2, max: .tls1_2,
            ciphers: ["AES128-GCM-SHA256", "AES256-GCM-SHA384"]),
        Config(
            name: "ECDSA certificate", min: .tls1_2, max: .tls1_2,
            ciphers: ["ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-AES128-GCM-SHA256"],
            key: .ec(curve: "P-256"), unusable: ["ECDHE-RSA-AES128-GCM-SHA256"]),
        Config(
            name: "DHE only", min: .tls1_2, max: .tls1_2,
            ciphers: ["DHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES256-GCM-SHA384"]),
        Config(
            name: "ChaCha20 preferred (server order)", min: .tls1_2, max: .tls1_2,
            ciphers: ["ECDHE-RSA-CHACHA20-POLY1305", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"],
            expectedOrder: true, expectedFirst: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
        Config(
            name: "server order", min: .tls1_2, max: .tls1_2,
            ciphers: ["AES128-SHA", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"],
            expectedOrder: true, expectedFirst: "TLS_RSA_WITH_AES_128_CBC_SHA"),
        Config(
            name: "client order", min: .tls1_2, max: .tls1_2,
            ciphers: ["AES128-SHA", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"],
            serverPreference: false, expectedOrder: false),
        Config(name: "TLS 1.2 server accepting 20+ suites", min: .tls1_2, max: .tls1_2, ciphers: twentyTwoRSA),
    ]

    @Test("finds exactly the configured versions and suites", arguments: configs)
    func enumerates(_ config: Config) async throws {
        try await Self.enumerate(config, connections: .concurrent)
    }

    /// The same matrix on servers that serve one connection at a time, as `openssl s_server` does (issue 20).
    @Test("the same on a server that serves one connection at a time", arguments: configs)
    func enumeratesOneAtATime(_ config: Config) async throws {
        try await Self.enumerate(config, connections: .oneAtATime)
    }

    static func enumerate(_ config: Config, connections: ConnectionPolicy) async throws {
        let pki = TestPKI.shared
        let leaf = try pki.leaf(.leaf("localhost", "127.0.0.1", key: config.key))
        var configuration = TLSServerConfiguration(
            minVersion: config.min, maxVersion: config.max,
            cipherList: config.ciphers.isEmpty ? nil : config.ciphers.joined(separator: ":"),
            tls13CipherSuites: config.tls13.isEmpty ? nil : config.tls13.joined(separator: ":"),
            serverPreference: config.serverPreference, chain: pki.chain(for: leaf),
            handshakeTimeout: connections == .concurrent ? 5 : 60)  // an idle connection would hold it past the timeout
        configuration.connections = connections
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        // A one-at-a-time server accepts a connection closed unused only when it reaches it in its queue.
        for _ in 0..<100 where server.acceptedConnections < profile.connections {
            try await Task.sleep(for: .milliseconds(20))
        }

        #expect(profile.status == .completed, "\(profile.error ?? "")")
        for version in TLSVersion.probed {
            let configured = version >= config.min && version <= config.max
            #expect(profile.supported(version) == configured, "\(version)")
        }
        let usable = config.ciphers.filter { !config.unusable.contains($0) }
        for version in TLSVersion.probed where version >= config.min && version <= config.max {
            if version == .tls1_3 {
                #expect(profile.suiteNames(version) == Set(config.tls13), "\(version)")
            } else {
                // Suites that need TLS 1.2 (AEAD, SHA-256/384 MACs) are not usable below it.
                let expected = usable.filter {
                    version >= .tls1_2 || (CipherSuite(text: $0)?.info?.minimumVersion ?? .tls1_2) < .tls1_2
                }
                #expect(profile.suiteNames(version) == ProbeFixtures.iana(expected), "\(version)")
            }
        }
        if let order = config.expectedOrder {
            #expect(profile.result(for: config.max)?.serverPreference == order)
        }
        if let first = config.expectedFirst {
            #expect(profile.result(for: config.max)?.cipherSuites.first?.name == first)
        }
        // The connections the report claims are the ones the server saw, within the design budget + 2, or
        // 1.25 × the budget where that is more (issue 10: parallel enumeration may spend up to 1.25 × the floor).
        #expect(profile.connections == server.acceptedConnections)
        #expect(profile.handshakes <= ProbeFixtures.allowance(profile))
    }

    @Test("key exchange groups: X25519 for ECDHE, a DH group for DHE, none for RSA key exchange")
    func groups() async throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_2,
                cipherList: "ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES128-GCM-SHA256:AES128-GCM-SHA256"))
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        let suites = try #require(profile.result(for: .tls1_2)?.cipherSuites)
        let byName = Dictionary(uniqueKeysWithValues: suites.map { ($0.name, $0) })
        #expect(byName["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]?.group == "X25519")
        #expect(byName["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]?.forwardSecrecy == true)
        let dhe = try #require(byName["TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"])
        #expect(dhe.group?.hasPrefix("DH-") == true || dhe.group?.hasPrefix("ffdhe") == true)
        #expect((dhe.groupBits ?? 0) >= 1024)
        #expect(byName["TLS_RSA_WITH_AES_128_GCM_SHA256"]?.group == nil)
        #expect(byName["TLS_RSA_WITH_AES_128_GCM_SHA256"]?.forwardSecrecy == false)
    }

    @Test("a P-384-only server negotiates P-384")
    func p384Group() async throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3, cipherList: "ECDHE-RSA-AES128-GCM-SHA256", groups: "P-384"))
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        #expect(profile.result(for: .tls1_2)?.cipherSuites.first?.group == "P-384")
        #expect(profile.result(for: .tls1_3)?.cipherSuites.first?.group == "P-384")
    }

    @Test("IPv6 loopback targets are scanned and SNI is not sent to IP literals")
    func ipv6() async throws {
        let leaf = try TestPKI.shared.leaf(.leaf("localhost", "::1"))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                chain: TestPKI.shared.chain(for: leaf), address: "::1"))
        defer { server.stop() }
        let request = ProbeRequest(
            target: try Target(parsing: "[::1]:\(server.port)"), timeout: 3,
            caFiles: [try ProbeFixtures.caFile()])
        let profile = await TLSProber().scan(request)
        #expect(profile.status == .completed)
        #expect(profile.address == "::1")
        #expect(profile.sni == nil)
        #expect(profile.certificate?.hostnameMatches == true)
        #expect(profile.supported(.tls1_3) == true)
    }

    @Test("--resolve: connect to an address, keep the name for SNI and hostname checks")
    func resolve() async throws {
        let leaf = try TestPKI.shared.leaf(.leaf("api.atscheck.test"))
        let server = try TestTLSServer(TLSServerConfiguration(chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server, host: "api.atscheck.test")
        #expect(profile.host == "api.atscheck.test")
        #expect(profile.address == "127.0.0.1")
        #expect(profile.sni == "api.atscheck.test")
        #expect(profile.certificate?.hostnameMatches == true)
        #expect(profile.certificate?.trusted == true)
    }

    @Test("OCSP stapling is observed when the server staples")
    func ocspStapling() async throws {
        let stapling = try TestTLSServer(TLSServerConfiguration(ocspStaple: Data([0x30, 0x03, 0x0A, 0x01, 0x00])))
        defer { stapling.stop() }
        let plain = try TestTLSServer(TLSServerConfiguration())
        defer { plain.stop() }
        #expect(try await ProbeFixtures.scan(stapling).certificate?.ocspStapled == true)
        #expect(try await ProbeFixtures.scan(plain).certificate?.ocspStapled == false)
    }
}

/// Parallel enumeration (issue 10): chains split within the per-host cap and the handshake budget.
@Suite("Parallel enumeration", .serialized)
struct ParallelEnumerationTests {
    static func server(serverPreference: Bool = true) throws -> TestTLSServer {
        try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_2,
                cipherList: EnumerationTests.twentyTwoRSA.joined(separator: ":"),
                serverPreference: serverPreference))
    }

    static func scan(_ server: TestTLSServer, perHost: Int) async throws -> ServerProfile {
        try await ProbeFixtures.scan(server, perHost: perHost)
    }

    @Test("one permit per host: a single chain, exactly the floor, the server's whole order")
    func sequentialAtCapOne() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 1)
        #expect(profile.handshakes <= ProbeFixtures.budget(profile))  // TLS 1.3 is ruled out by the lead for free
        #expect(profile.handshakes == server.acceptedConnections)
        let names = try #require(profile.result(for: .tls1_2)?.cipherSuites.map(\.openSSLName))
        #expect(names == EnumerationTests.twentyTwoRSA, "the server's configured order")
    }

    @Test(
        "several permits: the same suites, within 1.25 × the floor, more than the floor spent on chains run side by side",
        arguments: [true, false])
    func splitWithinBudget(_ serverPreference: Bool) async throws {
        let server = try Self.server(serverPreference: serverPreference)
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 4)
        let result = try #require(profile.result(for: .tls1_2))
        #expect(result.enumerationComplete)
        #expect(profile.suiteNames(.tls1_2) == ProbeFixtures.iana(EnumerationTests.twentyTwoRSA))
        #expect(result.serverPreference == serverPreference)
        let floor = ProbeFixtures.budget(profile)
        #expect(profile.handshakes > floor, "chains were split")
        #expect(Double(profile.handshakes) <= 1.25 * Double(floor))
        #expect(profile.connections == server.acceptedConnections)
        let names = result.cipherSuites.map(\.openSSLName)
        if serverPreference {
            #expect(names.first == EnumerationTests.twentyTwoRSA.first, "the server's first choice comes first")
        } else {
            // A server that follows the client chose in the client's order: the list keeps that order.
            let offered = try #require(TLSProber.offerOrder(.tls1_2))
            let positions = names.compactMap { name in offered.firstIndex(of: name) }
            #expect(positions == positions.sorted())
        }
    }
}
