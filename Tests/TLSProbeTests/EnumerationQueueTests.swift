import Foundation
import Testing
import TLSModel
@testable import TLSProbe
import TLSTestSupport

/// The endpoint's work queue (issue 10): every version's handshakes share the per-host cap, chains are
/// split only within 1.25 × the design floor, and a TLS ≤ 1.2 probe stops after the server's first flight.
@Suite("Enumeration work queue", .serialized)
struct EnumerationQueueTests {
    /// The benchmark's many-suite server (Examples/bench-servers.json): TLS 1.0–1.2, 24 suites, server order.
    static let manySuites = [
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-CHACHA20-POLY1305",
        "ECDHE-RSA-AES256-SHA384", "ECDHE-RSA-AES128-SHA256", "ECDHE-RSA-AES256-SHA", "ECDHE-RSA-AES128-SHA",
        "DHE-RSA-AES256-GCM-SHA384", "DHE-RSA-AES128-GCM-SHA256", "DHE-RSA-CHACHA20-POLY1305", "DHE-RSA-AES256-SHA256",
        "DHE-RSA-AES128-SHA256", "DHE-RSA-AES256-SHA", "DHE-RSA-AES128-SHA", "AES256-GCM-SHA384", "AES128-GCM-SHA256",
        "AES256-SHA256", "AES128-SHA256", "AES256-SHA", "AES128-SHA", "CAMELLIA256-SHA", "CAMELLIA128-SHA",
        "ARIA128-GCM-SHA256", "ECDHE-ARIA128-GCM-SHA256",
    ]

    /// The configured suites a server can use with `version` (AEAD and SHA-2 MACs need TLS 1.2), in order.
    static func usable(_ version: TLSVersion) -> [String] {
        manySuites.filter { version >= .tls1_2 || (CipherSuite(text: $0)?.info?.minimumVersion ?? .tls1_2) < .tls1_2 }
    }

    static func scan(_ server: TestTLSServer, perHost: Int) async throws -> ServerProfile {
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3, deadline: 30,
            caFiles: [try ProbeFixtures.caFile()])
        return await TLSProber(perHostLimit: perHost).scan(request)
    }

    @Test("three versions, many suites, eight permits: every suite, server order, the first choice first, ≤ 1.25 × the floor")
    func manySuitesInParallel() async throws {
        let server = try TestTLSServer(TLSServerConfiguration(
            minVersion: .tls1_0, maxVersion: .tls1_2, cipherList: Self.manySuites.joined(separator: ":")))
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 8)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        #expect(profile.supported(.tls1_3) == false)
        for version in [TLSVersion.tls1_0, .tls1_1, .tls1_2] {
            let result = try #require(profile.result(for: version))
            #expect(result.enumerationComplete, "\(version)")
            #expect(profile.suiteNames(version) == ProbeFixtures.iana(Self.usable(version)), "\(version)")
            #expect(result.serverPreference == true, "\(version)")
            #expect(result.cipherSuites.first?.openSSLName == Self.usable(version).first, "\(version)")
        }
        let floor = ProbeFixtures.budget(profile)
        #expect(profile.handshakes > floor, "chains were split")
        #expect(profile.handshakes * 4 <= floor * 5, "\(profile.handshakes) handshakes, floor \(floor)")
        #expect(profile.handshakes == server.acceptedConnections)
    }

    @Test("one permit: the versions' chains run one step at a time, at the floor, each in the server's whole order")
    func sequentialAcrossVersions() async throws {
        let server = try TestTLSServer(TLSServerConfiguration(
            minVersion: .tls1_0, maxVersion: .tls1_2, cipherList: Self.manySuites.joined(separator: ":")))
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 1)
        #expect(profile.handshakes <= ProbeFixtures.budget(profile))
        #expect(profile.handshakes == server.acceptedConnections)
        for version in [TLSVersion.tls1_0, .tls1_1, .tls1_2] {
            let names = try #require(profile.result(for: version)?.cipherSuites.map(\.openSSLName))
            #expect(names == Self.usable(version), "\(version)")
        }
    }

    @Test("a TLS 1.2 probe reads the server's first flight and sends no key exchange: no handshake completes at the server")
    func stopsAfterServerFlight() async throws {
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:AES128-SHA"))
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 3)
        let suites = try #require(profile.result(for: .tls1_2)?.cipherSuites)
        #expect(Set(suites.map(\.openSSLName)) == ["ECDHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES256-GCM-SHA384", "AES128-SHA"])
        #expect(suites.first { $0.openSSLName.hasPrefix("ECDHE") }?.group == "X25519")
        #expect(profile.certificate?.trusted == true)
        #expect(server.acceptedConnections == profile.handshakes && profile.handshakes > 0)
        #expect(server.completedHandshakes == 0)
    }

    @Test("a split deals the offer round-robin: every suite once, each piece in the offer's order")
    func dealsRoundRobin() throws {
        let offer = (1...10).map { OfferedSuite(suite: CipherSuite(UInt16($0)), openSSLName: "S\($0)") }
        let pieces = SuiteSearch.deal(offer, into: 3)
        #expect(pieces.map { $0.map(\.openSSLName) } == [["S1", "S4", "S7", "S10"], ["S2", "S5", "S8"], ["S3", "S6", "S9"]])
        #expect(SuiteSearch.deal(offer, into: 1) == [offer])
    }
}
