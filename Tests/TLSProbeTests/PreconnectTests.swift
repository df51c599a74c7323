import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Connections opened ahead of enumeration steps (issue 10, ``PreconnectedSockets``): a step behind a
/// real round trip goes out on a connection whose TCP handshake is already done. Everything is counted
/// by a relay in front of the server, so the server's view, not the prober's word, is what is checked.
/// No test asserts a time; `make bench` measures the gain.
@Suite("Connections opened ahead", .serialized)
struct PreconnectTests {
    /// A scan of `server` through `relay` (40 ms round trip) with `perHost` permits.
    static func scan(
        through relay: FaultRelay, perHost: Int, preconnect: Bool = true, delay: Double = 0,
        retry: RetryPolicy = .standard
    ) async throws -> (ServerProfile, TLSProber) {
        let prober = TLSProber(perHostLimit: perHost, retry: retry, connectionDelay: delay, preconnect: preconnect)
        let profile = await prober.scan(
            ProbeRequest(
                target: try Target(parsing: "localhost:\(relay.port)"), connectAddress: relay.host, timeout: 5,
                deadline: 30,
                caFiles: [try ProbeFixtures.caFile()]))
        return (profile, prober)
    }

    static func manySuiteServer() throws -> TestTLSServer {
        try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_0, maxVersion: .tls1_2,
                cipherList: EnumerationQueueTests.manySuites.joined(separator: ":")))
    }

    /// What a scan found, without the counts and timings.
    static func answer(_ profile: ServerProfile) -> [String] { answer(profile.protocols) }

    static func answer(_ protocols: [ProtocolResult]) -> [String] {
        protocols.map { result in
            "\(result.version) \(result.supported.map(String.init) ?? "nil") complete=\(result.enumerationComplete) "
                + "order=\(result.serverPreference.map(String.init) ?? "nil") "
                + "first=\(result.cipherSuites.first?.openSSLName ?? "-") "
                + result.cipherSuites.map(\.openSSLName).sorted().joined(separator: ",")
        }
    }

    @Test(
        "behind a round trip: steps take connections opened ahead; the answer and the handshakes are those of --no-preconnect; every unused one is counted"
    )
    func sameAnswerFewerWaits() async throws {
        let server = try Self.manySuiteServer()
        defer { server.stop() }
        let plainRelay = try FaultRelay.delaying(server, roundTrip: 0.04)
        defer { plainRelay.stop() }
        let (plain, plainProber) = try await Self.scan(through: plainRelay, perHost: 8, preconnect: false)
        let relay = try FaultRelay.delaying(server, roundTrip: 0.04)
        defer { relay.stop() }
        let (ahead, prober) = try await Self.scan(through: relay, perHost: 8)

        try #require(
            plain.status == .completed && ahead.status == .completed, "\(plain.error ?? "") \(ahead.error ?? "")")
        #expect(Self.answer(ahead) == Self.answer(plain))
        // Off: one connection per handshake, none opened ahead.
        #expect(plainProber.preconnectsTaken.value == 0)
        #expect(plain.unusedConnections == nil)
        #expect(plainRelay.waitUntilIdle())
        #expect(plainRelay.acceptedConnections == plain.handshakes && plainRelay.silentConnections == 0)
        // On: handshakes within the same 1.25 × floor; most steps after the lead went out on a connection opened
        // ahead; each connection the relay saw is a handshake or one closed without a byte, as reported.
        let floor = ProbeFixtures.budget(ahead)
        #expect(ahead.handshakes * 4 <= floor * 5, "\(ahead.handshakes) handshakes, floor \(floor)")
        // Not the lead's first steps: connections are opened ahead only once an answer has shown the server serving
        // two at once (issue 34); from then on most steps take one (26 of 54 measured).
        #expect(
            prober.preconnectsTaken.value * 3 > ahead.handshakes,
            "\(prober.preconnectsTaken.value) of \(ahead.handshakes)")
        #expect(relay.acceptedConnections == ahead.connections)
        #expect(relay.waitUntilIdle())
        #expect(relay.silentConnections == (ahead.unusedConnections ?? 0))
        // The price: about one per version with three or more suites (three here), never near the handshakes.
        #expect((ahead.unusedConnections ?? 0) <= 6, "\(ahead.unusedConnections ?? 0) unused")
    }

    @Test(
        "a connection opened ahead holds a permit of the per-host cap: with one permit none is ever opened, with two some are"
    )
    func capCoversOpenedAhead() async throws {
        let server = try Self.manySuiteServer()
        defer { server.stop() }
        var answers: [[String]] = []
        for perHost in [1, 2] {
            let relay = try FaultRelay.delaying(server, roundTrip: 0.02)
            defer { relay.stop() }
            let (profile, prober) = try await Self.scan(through: relay, perHost: perHost)
            #expect(profile.status == .completed)
            answers.append(Self.answer(profile))
            #expect(relay.acceptedConnections == profile.connections)
            if perHost == 1 {
                // The one permit is always held by the step in flight: a connection opened ahead would be a second.
                #expect(prober.preconnectsTaken.value == 0 && profile.unusedConnections == nil)
                #expect(relay.acceptedConnections == profile.handshakes)
            } else {
                // Once an answer has shown the server serving two at once, a free permit may open the next step's
                // connection; since issue 35 the queue also holds the suite check and the group pieces, so both
                // permits are often busy with steps and none is free to open one ahead. Whatever was opened ahead
                // is accounted for: taken by a step or counted unused.
                #expect(prober.preconnectsTaken.value + (profile.unusedConnections ?? 0) <= relay.acceptedConnections)
                #expect(profile.connections == profile.handshakes + (profile.unusedConnections ?? 0))
            }
        }
        #expect(answers[0] == answers[1])
    }

    @Test("--delay paces every connection: nothing is opened ahead")
    func delayTurnsItOff() async throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_2,
                cipherList: "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:AES128-SHA"))
        defer { server.stop() }
        let relay = try FaultRelay.delaying(server, roundTrip: 0.02)
        defer { relay.stop() }
        let (profile, prober) = try await Self.scan(through: relay, perHost: 8, delay: 0.005)
        #expect(profile.status == .completed)
        #expect(prober.preconnectsTaken.value == 0 && profile.unusedConnections == nil)
        #expect(relay.waitUntilIdle())
        #expect(relay.acceptedConnections == profile.handshakes && relay.silentConnections == 0)
    }

    @Test("a TLS 1.3-only server with one suite: no connection opened ahead is wasted")
    func singleSuiteWastesNone() async throws {
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_3, maxVersion: .tls1_3, tls13CipherSuites: "TLS_AES_128_GCM_SHA256"))
        defer { server.stop() }
        let relay = try FaultRelay.delaying(server, roundTrip: 0.02)
        defer { relay.stop() }
        let (profile, _) = try await Self.scan(through: relay, perHost: 8)
        #expect(profile.status == .completed)
        #expect(profile.result(for: .tls1_3)?.cipherSuites.count == 1)
        // Until issue 34 the three versions below TLS 1.3 went out on connections opened while the lead was in
        // flight, and the TLS 1.3 chain's refused step had two opened for its follow-ups, closed unused. Now nothing is
        // opened ahead until an answer has shown the server serving two connections at once
        // (``ConnectionLedger/closingServed(_:)``), which the TLS 1.3 group pieces, sent side by side, show (issue
        // 35); and every connection opened ahead after that is taken by a group step.
        #expect(profile.result(for: .tls1_3)?.groups?.isEmpty == false)
        #expect(profile.unusedConnections == nil)
        #expect(relay.waitUntilIdle())
        #expect(relay.acceptedConnections == profile.handshakes && relay.silentConnections == 0)
    }

    @Test(
        "connections opened ahead through a relay that drops some: no false answer, and every connection accounted for")
    func dropsStillAccounted() async throws {
        let server = try Self.manySuiteServer()
        defer { server.stop() }
        let truthRelay = try FaultRelay.delaying(server, roundTrip: 0.02)
        defer { truthRelay.stop() }
        let (truth, _) = try await Self.scan(through: truthRelay, perHost: 4, preconnect: false)
        let relay = try FaultRelay(
            upstreamHost: server.host, upstreamPort: server.port, fault: .dropShare(0.2, seed: 3),
            latency: 0.01)
        defer { relay.stop() }
        let (relayed, _) = try await Self.scan(
            through: relay, perHost: 4, retry: RetryPolicy(maxRetries: 6, initialDelay: 0.002))
        #expect(relayed.status == .completed)
        for result in relayed.protocols {
            let direct = try #require(truth.result(for: result.version))
            // Never a false answer: unsupported only where the direct scan says so; suites found are real.
            if result.supported == false { #expect(direct.supported == false, "\(result.version)") }
            #expect(
                Set(result.cipherSuites.map(\.openSSLName)).isSubset(of: Set(direct.cipherSuites.map(\.openSSLName))))
            if result.enumerationComplete && result.supported == true {
                #expect(Self.answer([result]) == Self.answer([direct]))
            }
        }
        #expect(relay.acceptedConnections == relayed.connections)
        #expect(relayed.drops <= relay.droppedConnections)
        #expect(relay.droppedConnections <= relayed.drops + (relayed.unusedConnections ?? 0))
    }
}
