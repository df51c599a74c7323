import Foundation
import Glibc
import TLSModel
import TLSTestSupport
import Testing

@Suite("TLS server")
struct TestTLSServerTests {
    struct VersionCase: Sendable, CustomTestStringConvertible {
        var serverMin: TLSVersion
        var serverMax: TLSVersion
        var clientMin: TLSVersion
        var clientMax: TLSVersion
        /// nil: the handshake must fail.
        var negotiated: String?
        var testDescription: String {
            "server \(serverMin)–\(serverMax), client \(clientMin)–\(clientMax) → \(negotiated ?? "fail")"
        }
    }

    @Test(
        "version range",
        arguments: [
            VersionCase(
                serverMin: .tls1_2, serverMax: .tls1_3, clientMin: .tls1_0, clientMax: .tls1_3, negotiated: "TLSv1.3"),
            VersionCase(
                serverMin: .tls1_2, serverMax: .tls1_3, clientMin: .tls1_2, clientMax: .tls1_2, negotiated: "TLSv1.2"),
            VersionCase(
                serverMin: .tls1_2, serverMax: .tls1_3, clientMin: .tls1_0, clientMax: .tls1_1, negotiated: nil),
            VersionCase(
                serverMin: .tls1_3, serverMax: .tls1_3, clientMin: .tls1_0, clientMax: .tls1_2, negotiated: nil),
            VersionCase(
                serverMin: .tls1_0, serverMax: .tls1_0, clientMin: .tls1_0, clientMax: .tls1_3, negotiated: "TLSv1"),
            VersionCase(
                serverMin: .tls1_1, serverMax: .tls1_1, clientMin: .tls1_1, clientMax: .tls1_1, negotiated: "TLSv1.1"),
            VersionCase(
                serverMin: .tls1_0, serverMax: .tls1_0, clientMin: .tls1_2, clientMax: .tls1_3, negotiated: nil),
        ])
    func versions(_ c: VersionCase) throws {
        let server = try TestTLSServer(TLSServerConfiguration(minVersion: c.serverMin, maxVersion: c.serverMax))
        defer { server.stop() }
        let result = TestTLSClient.handshake(port: server.port, minVersion: c.clientMin, maxVersion: c.clientMax)
        #expect(result?.version == c.negotiated)
        #expect(server.acceptedConnections == 1)
    }

    struct CipherCase: Sendable, CustomTestStringConvertible {
        var server: String
        var client: String
        var negotiated: String?
        var testDescription: String { "\(server) vs \(client)" }
    }

    @Test(
        "TLS 1.2 cipher list",
        arguments: [
            CipherCase(server: "ECDHE-RSA-AES128-GCM-SHA256", client: "ALL", negotiated: "ECDHE-RSA-AES128-GCM-SHA256"),
            CipherCase(server: "ECDHE-RSA-AES128-GCM-SHA256", client: "AES256-SHA", negotiated: nil),
            CipherCase(server: "AES128-SHA:AES256-SHA", client: "AES256-SHA", negotiated: "AES256-SHA"),
            CipherCase(
                server: "DHE-RSA-AES128-GCM-SHA256", client: "DHE-RSA-AES128-GCM-SHA256",
                negotiated: "DHE-RSA-AES128-GCM-SHA256"),
        ])
    func ciphers(_ c: CipherCase) throws {
        let server = try TestTLSServer(TLSServerConfiguration.only(.tls1_2, cipherList: c.server))
        defer { server.stop() }
        let result = TestTLSClient.handshake(port: server.port, maxVersion: .tls1_2, ciphers: c.client)
        #expect(result?.cipher == c.negotiated)
    }

    @Test("server preference decides between two offered suites")
    func serverPreference() throws {
        let list = "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256"
        let clientOrder = "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384"
        for (preference, expected) in [(true, "ECDHE-RSA-AES256-GCM-SHA384"), (false, "ECDHE-RSA-AES128-GCM-SHA256")] {
            var configuration = TLSServerConfiguration.only(.tls1_2, cipherList: list)
            configuration.serverPreference = preference
            let server = try TestTLSServer(configuration)
            defer { server.stop() }
            #expect(
                TestTLSClient.handshake(port: server.port, maxVersion: .tls1_2, ciphers: clientOrder)?.cipher
                    == expected)
        }
    }

    @Test(
        "groups: the server's list decides the key exchange group",
        arguments: [
            ("P-384", TLSVersion.tls1_3, "secp384r1"), ("X25519", .tls1_3, "x25519"), ("P-256", .tls1_2, "secp256r1"),
        ])
    func groups(_ groups: String, _ version: TLSVersion, _ expected: String) throws {
        var configuration = TLSServerConfiguration.only(version, cipherList: "ECDHE-RSA-AES128-GCM-SHA256")
        configuration.groups = groups
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        #expect(TestTLSClient.handshake(port: server.port)?.group == expected)
    }

    @Test("DHE suites use auto DH parameters; RSA key exchange has no group")
    func dhe() throws {
        let dhe = try TestTLSServer(.only(.tls1_2, cipherList: "DHE-RSA-AES128-GCM-SHA256"))
        defer { dhe.stop() }
        #expect(TestTLSClient.handshake(port: dhe.port)?.group == "DH-2048")  // dh_auto matches the RSA-2048 key
        let rsa = try TestTLSServer(.only(.tls1_2, cipherList: "AES128-GCM-SHA256"))
        defer { rsa.stop() }
        let result = try #require(TestTLSClient.handshake(port: rsa.port))
        #expect(result.group == nil)
    }

    @Test("prioritizeChaCha picks ChaCha20 when the client lists it first", arguments: [true, false])
    func chacha(_ prioritize: Bool) throws {
        var configuration = TLSServerConfiguration.only(
            .tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-CHACHA20-POLY1305")
        configuration.prioritizeChaCha = prioritize
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        // TLS 1.2 only: a TLS 1.3 ClientHello lists TLS 1.3 suites first, and OpenSSL looks only at the first.
        let result = TestTLSClient.handshake(
            port: server.port, maxVersion: .tls1_2, ciphers: "ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256")
        #expect(result?.cipher == (prioritize ? "ECDHE-RSA-CHACHA20-POLY1305" : "ECDHE-RSA-AES128-GCM-SHA256"))
    }

    @Test("TLS 1.3 suites are restricted as configured")
    func tls13Suites() throws {
        var configuration = TLSServerConfiguration.only(.tls1_3)
        configuration.tls13CipherSuites = "TLS_AES_256_GCM_SHA384"
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        #expect(TestTLSClient.handshake(port: server.port)?.cipher == "TLS_AES_256_GCM_SHA384")
        #expect(TestTLSClient.handshake(port: server.port, tls13Ciphers: "TLS_AES_128_GCM_SHA256") == nil)
    }

    @Test("the chain is sent exactly as configured")
    func chain() throws {
        let pki = TestPKI.shared
        let leaf = try pki.leaf(.localhost())
        for chain in [[leaf], [leaf, pki.intermediate], [leaf, pki.intermediate, pki.root]] {
            let server = try TestTLSServer(TLSServerConfiguration(chain: chain))
            defer { server.stop() }
            let result = try #require(TestTLSClient.handshake(port: server.port))
            #expect(result.peerChain == chain.map(\.der))
        }
    }

    @Test(
        "legacy leaf kinds still handshake at security level 0",
        arguments: [
            CertificateSpec.localhost(key: .rsa(bits: 1024)), .localhost(digest: .sha1),
            .localhost(key: .ec(curve: "P-256")),
            .localhost(key: .ec(curve: "P-384")),
        ])
    func legacyLeaves(_ spec: CertificateSpec) throws {
        let server = try TestTLSServer(TLSServerConfiguration(minVersion: .tls1_0, chain: [TestPKI.shared.leaf(spec)]))
        defer { server.stop() }
        #expect(TestTLSClient.handshake(port: server.port, maxVersion: .tls1_2)?.version == "TLSv1.2")
        #expect(TestTLSClient.handshake(port: server.port, maxVersion: .tls1_0)?.version == "TLSv1")
    }

    @Test("OCSP staple is sent only when asked for")
    func ocsp() throws {
        let staple = Data([0x30, 0x03, 0x0A, 0x01, 0x00])
        let server = try TestTLSServer(TLSServerConfiguration(ocspStaple: staple))
        defer { server.stop() }
        #expect(TestTLSClient.handshake(port: server.port, requestOCSP: true)?.ocspResponse == staple)
        let without = try #require(TestTLSClient.handshake(port: server.port, requestOCSP: false))
        #expect(without.ocspResponse == nil)
    }

    @Test("counts accepted connections and completed handshakes, sequential and concurrent")
    func counters() async throws {
        let server = try TestTLSServer(TLSServerConfiguration.only(.tls1_2))
        defer { server.stop() }
        for _ in 0..<5 { #expect(TestTLSClient.handshake(port: server.port) != nil) }
        #expect(TestTLSClient.handshake(port: server.port, maxVersion: .tls1_1) == nil)
        let port = server.port
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<24 { group.addTask { TestTLSClient.handshake(port: port) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 24 && results.allSatisfy { $0 })
        #expect(server.acceptedConnections == 30)
        #expect(server.completedHandshakes == 29)
    }

    @Test("IPv6 loopback", .enabled(if: TestTLSServer.isIPv6LoopbackAvailable, "::1 cannot be bound here"))
    func ipv6() throws {
        let server = try TestTLSServer(TLSServerConfiguration(address: "::1"))
        defer { server.stop() }
        #expect(server.target == "[::1]:\(server.port)")
        #expect(TestTLSClient.handshake(host: "::1", port: server.port) != nil)
    }

    @Test("refuses non-loopback addresses and bad settings")
    func refusals() throws {
        #expect(throws: TestSupportError(.notLoopback, "")) {
            try TestTLSServer(TLSServerConfiguration(address: "0.0.0.0"))
        }
        #expect(throws: TestSupportError(.tlsConfiguration, "")) {
            try TestTLSServer(TLSServerConfiguration(cipherList: "NO-SUCH-CIPHER"))
        }
    }

    @Test("a client that never speaks is dropped after the handshake timeout")
    func handshakeTimeout() throws {
        var configuration = TLSServerConfiguration()
        configuration.handshakeTimeout = 0.3
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
        var byte: UInt8 = 0
        #expect(recv(fd, &byte, 1, 0) == 0)  // end of stream: the server gave up, not our 5 s timeout
        #expect(server.completedHandshakes == 0)
        #expect(TestTLSClient.handshake(port: server.port) != nil)
    }

    @Test("stop() closes the port")
    func stop() throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        #expect(TestTLSClient.handshake(port: server.port) != nil)
        server.stop()
        server.stop()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(TestTLSClient.handshake(port: server.port) == nil)
    }
}
