import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

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
        try await ProbeFixtures.scan(server, perHost: perHost)
    }

    @Test(
        "three versions, many suites, eight permits: every suite, server order, the first choice first, ≤ 1.25 × the floor"
    )
    func manySuitesInParallel() async throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(
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
        // TLS 1.2 was split: its order beyond the first choice is not the server's, and the report says so,
        // listing the rest in the offer's order (the same from run to run whatever the timing).
        let tls12 = try #require(profile.result(for: .tls1_2))
        #expect(tls12.serverOrderComplete == false)
        let offer = try VersionEnumerator.prepareNow(.tls1_2).get().1.map(\.openSSLName)
        let rest = tls12.cipherSuites.dropFirst().map(\.openSSLName)
        #expect(rest == offer.filter(rest.contains), "the rest in the offer's order")
        for version in [TLSVersion.tls1_0, .tls1_1, .tls1_2] {
            let result = try #require(profile.result(for: version))
            if result.serverOrderComplete == nil {  // not split: the server's whole order
                #expect(result.cipherSuites.map(\.openSSLName) == Self.usable(version), "\(version)")
            }
        }
        let floor = ProbeFixtures.budget(profile)
        #expect(profile.handshakes > floor, "chains were split")
        #expect(profile.handshakes * 4 <= floor * 5, "\(profile.handshakes) handshakes, floor \(floor)")
        #expect(profile.connections == server.acceptedConnections)
    }

    @Test(
        "a few suites in the server's own order, eight permits: a split whose other pieces find nothing keeps the server's whole order"
    )
    func fewSuitesKeepServerOrder() async throws {
        // Not OpenSSL's offer order, so an order by the offer would be caught.
        let order = [
            "AES128-SHA", "ECDHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384",
        ]
        // Three suites: after the split that follows the second, one suite is left, so one piece finds it and
        // the order is always the server's whole order.
        let three = Array(order.prefix(3))
        let small = try TestTLSServer(.only(.tls1_2, cipherList: three.joined(separator: ":")))
        defer { small.stop() }
        for _ in 0..<3 {
            let result = try #require(try await Self.scan(small, perHost: 8).result(for: .tls1_2))
            #expect(result.serverOrderComplete == nil && result.cipherSuites.map(\.openSSLName) == three)
        }
        // Four: the last two may be found by two pieces of one split; then the report must say so.
        let server = try TestTLSServer(.only(.tls1_2, cipherList: order.joined(separator: ":")))
        defer { server.stop() }
        for _ in 0..<3 {
            let profile = try await Self.scan(server, perHost: 8)
            let result = try #require(profile.result(for: .tls1_2))
            #expect(result.serverPreference == true)
            if result.serverOrderComplete == nil {
                #expect(result.cipherSuites.map(\.openSSLName) == order)
            } else {  // two pieces of one split each found a suite: the first choice, then the offer's order
                #expect(result.cipherSuites.first?.openSSLName == order.first)
                #expect(Set(result.cipherSuites.map(\.openSSLName)) == Set(order))
            }
        }
    }

    @Test("one permit: the versions' chains run one step at a time, at the floor, each in the server's whole order")
    func sequentialAcrossVersions() async throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_0, maxVersion: .tls1_2, cipherList: Self.manySuites.joined(separator: ":")))
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 1)
        #expect(profile.handshakes <= ProbeFixtures.budget(profile))
        #expect(profile.handshakes == server.acceptedConnections)
        for version in [TLSVersion.tls1_0, .tls1_1, .tls1_2] {
            let names = try #require(profile.result(for: version)?.cipherSuites.map(\.openSSLName))
            #expect(names == Self.usable(version), "\(version)")
            #expect(profile.result(for: version)?.serverOrderComplete == nil, "one chain: the server's whole order")
        }
    }

    @Test(
        "a TLS 1.2 probe reads the server's first flight and sends no key exchange: no handshake completes at the server"
    )
    func stopsAfterServerFlight() async throws {
        let server = try TestTLSServer(
            .only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:AES128-SHA"))
        defer { server.stop() }
        let profile = try await Self.scan(server, perHost: 3)
        let suites = try #require(profile.result(for: .tls1_2)?.cipherSuites)
        #expect(
            Set(suites.map(\.openSSLName)) == [
                "ECDHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES256-GCM-SHA384", "AES128-SHA",
            ])
        #expect(suites.first { $0.openSSLName.hasPrefix("ECDHE") }?.group == "X25519")
        #expect(profile.certificate?.trusted == true)
        #expect(server.acceptedConnections == profile.connections && profile.handshakes > 0)
        #expect(server.completedHandshakes == 0)
    }

    @Test(
        "TLS 1.3 and a default TLS 1.2 list, eight permits: the one-permit scan's suites, first choice and order mode, ≤ 1.25 × the floor"
    )
    func defaultListInParallel() async throws {
        // The demo servers' default configuration: three TLS 1.3 suites and about twenty TLS 1.2 suites.
        let server = try TestTLSServer(TLSServerConfiguration(minVersion: .tls1_2, maxVersion: .tls1_3))
        defer { server.stop() }
        let sequential = try await Self.scan(server, perHost: 1)
        let parallel = try await Self.scan(server, perHost: 8)
        #expect(parallel.status == .completed, "\(parallel.error ?? "")")
        #expect(try #require(sequential.result(for: .tls1_2)?.cipherSuites.count) >= 10)
        for version in [TLSVersion.tls1_0, .tls1_1, .tls1_2, .tls1_3] {
            let one = try #require(sequential.result(for: version)), eight = try #require(parallel.result(for: version))
            #expect(eight.supported == one.supported && eight.serverPreference == one.serverPreference, "\(version)")
            #expect(eight.enumerationComplete && one.enumerationComplete, "\(version)")
            #expect(
                Set(eight.cipherSuites.map { $0.openSSLName }) == Set(one.cipherSuites.map { $0.openSSLName }),
                "\(version)")
            #expect(eight.cipherSuites.first == one.cipherSuites.first, "\(version)")
        }
        let floor = ProbeFixtures.budget(parallel)
        #expect(parallel.handshakes > floor, "the TLS 1.2 chain was split")
        #expect(parallel.handshakes * 4 <= floor * 5, "\(parallel.handshakes) handshakes, floor \(floor)")
    }

    @Test(
        "a split: two suites of the version found, the endpoint's longest streak, pieces of eight suites or more, within idle slots and budget"
    )
    func splitRule() {
        func pieces(  // (found, offer, streak, longest, idle, budget, halvesFirst)
            _ found: Int, _ offer: Int, _ streak: Int, _ longest: Int, _ idle: Int, _ budget: Int,
            _ halves: Bool = false
        ) -> Int {
            EnumerationQueue.pieces(
                found: found, offer: offer, streak: streak, longest: longest, idle: idle, budget: budget,
                halvesFirst: halves)
        }
        #expect(
            pieces(1, 88, 0, 0, 7, 5, false) == 1, "one suite found: not split before the server served two at once")
        #expect(pieces(1, 88, 0, 2, 7, 5, true) == 2, "one suite found, concurrency shown: halved")
        #expect(pieces(1, 15, 0, 0, 7, 5, true) == 1 && pieces(1, 88, 0, 0, 0, 5, true) == 1, "too small, or no slot")
        #expect(pieces(2, 88, 1, 1, 7, 5) == 6)
        #expect(pieces(2, 88, 0, 1, 7, 5) == 1, "another chain has found more in a row")
        #expect(pieces(4, 24, 3, 1, 7, 5) == 3, "a smaller offer with the longest streak is split")
        #expect(pieces(3, 88, 2, 2, 2, 5) == 3, "idle slots")
        #expect(pieces(3, 88, 2, 2, 7, 1) == 2, "budget")
        #expect(pieces(3, 88, 2, 2, 7, 0) == 1 && pieces(3, 88, 2, 2, 0, 4) == 1 && pieces(3, 88, 2, 2, 7, -2) == 1)
        #expect(pieces(9, 88, 5, 5, 32, 32) == 11, "pieces of eight suites or more")
        #expect(pieces(9, 17, 5, 5, 7, 5) == 2 && pieces(9, 15, 5, 5, 7, 5) == 1)
        #expect(pieces(3, 4, 2, 2, 7, 5) == 1, "a TLS 1.3 chain (five suites at most) is never split")
    }

    @Test("a split deals the offer round-robin: every suite once, each piece in the offer's order")
    func dealsRoundRobin() throws {
        let offer = (1...10).map { OfferedSuite(suite: CipherSuite(UInt16($0)), openSSLName: "S\($0)") }
        let pieces = SuiteSearch.deal(offer, into: 3)
        #expect(
            pieces.map { $0.map(\.openSSLName) } == [
                ["S1", "S4", "S7", "S10"], ["S2", "S5", "S8"], ["S3", "S6", "S9"],
            ])
        #expect(SuiteSearch.deal(offer, into: 1) == [offer])
    }
}
