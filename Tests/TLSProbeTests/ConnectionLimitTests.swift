import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Servers that serve few connections at once (issue 20): one at a time (`openssl s_server`), a cap of 2 or 4
/// per client address that closes, resets or ignores the rest, a tiny listen queue. A scan with the default
/// options must give each the same protocols, suites, order and chain as an ordinary concurrent server, with
/// no version unknown. No test sleeps or asserts a time: a deadlock would show as a timeout or an unknown.
@Suite("Servers that serve few connections at once", .serialized)
struct ConnectionLimitTests {
    /// TLS 1.0 to 1.3 with several suites in each, in the server's order: several chains, order probes and
    /// the lead's connections opened ahead all come into play.
    static func configuration(_ policy: ConnectionPolicy, backlog: Int32 = 128) -> TLSServerConfiguration {
        var configuration = TLSServerConfiguration(
            minVersion: .tls1_0, maxVersion: .tls1_3,
            cipherList: "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:"
                + "AES128-GCM-SHA256:AES256-SHA:AES128-SHA",
            serverPreference: true,
            // A connection that never sends its hello holds a one-at-a-time server for this long: far longer
            // than the scan's timeout, so a scan that waited on it would fail rather than recover.
            handshakeTimeout: 60)
        configuration.connections = policy
        configuration.listenBacklog = backlog
        return configuration
    }

    /// A scan with the prober's defaults (16 connections per host, connections opened ahead).
    static func scan(_ server: TestTLSServer, ats: Bool = false) async throws -> (ServerProfile, TLSProber) {
        let prober = TLSProber()
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 60, caFiles: [try ProbeFixtures.caFile()])
        if ats { request.scope = .atsOnly }
        return (await prober.scan(request), prober)
    }

    /// What a scan found: per version, supported, order and suites in order; then the chain.
    static func answer(_ profile: ServerProfile) -> [String] {
        profile.protocols.map {
            "\($0.version) \(String(describing: $0.supported)) pref=\(String(describing: $0.serverPreference)) "
                + "complete=\($0.enumerationComplete) " + $0.cipherSuites.map(\.name).joined(separator: ",")
        } + (profile.certificate?.chain.map(\.sha256) ?? ["no chain"])
    }

    /// The answer of an ordinary concurrent server with the same configuration.
    static func reference() async throws -> [String] {
        let server = try TestTLSServer(configuration(.concurrent))
        defer { server.stop() }
        return answer(try await scan(server).0)
    }

    static let limited: [ConnectionPolicy] =
        [.oneAtATime]
        + ConnectionPolicy.Excess.allCases.flatMap { [.capped(2, excess: $0), .capped(4, excess: $0)] }

    @Test("a full scan gives the concurrent server's answer", arguments: limited)
    func fullScan(_ policy: ConnectionPolicy) async throws {
        let server = try TestTLSServer(Self.configuration(policy))
        defer { server.stop() }
        let (profile, _) = try await Self.scan(server)
        #expect(profile.status == .completed, "\(policy): \(profile.error ?? "")")
        #expect(profile.protocols.allSatisfy { $0.supported != nil }, "\(policy): \(Self.answer(profile))")
        let reference = try await Self.reference()
        #expect(Self.answer(profile) == reference, "\(policy)")
    }

    @Test("a tiny listen queue: the same answer", arguments: [ConnectionPolicy.oneAtATime, .concurrent])
    func tinyBacklog(_ policy: ConnectionPolicy) async throws {
        let server = try TestTLSServer(Self.configuration(policy, backlog: 0))
        defer { server.stop() }
        let (profile, _) = try await Self.scan(server)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        let reference = try await Self.reference()
        #expect(Self.answer(profile) == reference)
    }

    @Test("an ordinary concurrent server shows no limit and is scanned as before")
    func concurrentShowsNoLimit() async throws {
        let server = try TestTLSServer(Self.configuration(.concurrent))
        defer { server.stop() }
        let (profile, _) = try await Self.scan(server)
        #expect(profile.serverConnections == nil)
        #expect(profile.drops == 0)
        #expect(profile.handshakes <= ProbeFixtures.allowance(profile))
    }

    /// Fails if a connection opened ahead is left idle where the server takes it: a one-at-a-time server then waits on
    /// it and the scan stalls (issue 34: the lead's connections opened ahead queue behind its own, and the steps its
    /// answer sends take them at once). Nothing held the scan back, so the report names no limit — or 1, if on a
    /// loaded machine a step stalled after all; never more without the drops that showed it.
    @Test("one at a time: no connection left idle, no more handshakes than the sequential scan, no false limit")
    func oneAtATimeIsNotStalled() async throws {
        let server = try TestTLSServer(Self.configuration(.oneAtATime))
        defer { server.stop() }
        let (profile, prober) = try await Self.scan(server)
        let sequential = await TLSProber(perHostLimit: 1).scan(
            ProbeRequest(
                target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
                deadline: 60, caFiles: [try ProbeFixtures.caFile()]))
        #expect(Self.answer(profile) == Self.answer(sequential))
        #expect(
            profile.serverConnections == nil || profile.serverConnections == 1
                || (profile.serverConnections != nil && profile.drops > 0))
        // The lead's three, taken by the first steps of the versions below its answer; none later on loopback.
        #expect(
            prober.preconnectsTaken.value <= 4 && (profile.unusedConnections ?? 0) == 0,
            "\(profile.handshakes) handshakes, \(profile.unusedConnections ?? 0) unused")
        #expect(
            profile.handshakes * 10 <= sequential.handshakes * 11,
            "\(profile.handshakes) handshakes (\(profile.retries) retries, \(profile.drops) drops), sequential \(sequential.handshakes) (\(sequential.retries) retries)"
        )
        #expect(profile.protocols.allSatisfy { $0.enumerationComplete })
    }

    @Test(
        "a cap that drops the rest: every drop was retried alone, and the report names the cap",
        arguments: ConnectionPolicy.Excess.allCases)
    func capIsReported(_ excess: ConnectionPolicy.Excess) async throws {
        let server = try TestTLSServer(Self.configuration(.capped(2, excess: excess)))
        defer { server.stop() }
        let (profile, _) = try await Self.scan(server)
        let reference = try await Self.reference()
        #expect(Self.answer(profile) == reference)
        if profile.drops > 0 {
            let limit = try #require(profile.serverConnections)
            #expect((1...2).contains(limit), "a cap of 2 reported as \(limit)")
        }
    }

    @Test(
        "ats-only gives the concurrent server's verdict inputs",
        arguments: [ConnectionPolicy.oneAtATime, .capped(2, excess: .reset)])
    func atsOnly(_ policy: ConnectionPolicy) async throws {
        let reference = try TestTLSServer(Self.configuration(.concurrent))
        defer { reference.stop() }
        let server = try TestTLSServer(Self.configuration(policy))
        defer { server.stop() }
        let expected = try await Self.scan(reference, ats: true).0
        let (profile, _) = try await Self.scan(server, ats: true)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        #expect(profile.protocols.map(\.supported) == expected.protocols.map(\.supported))
        #expect(
            profile.protocols.map { Set($0.cipherSuites.map(\.name)) }
                == expected.protocols.map { Set($0.cipherSuites.map(\.name)) })
        #expect(profile.certificate?.chain.map(\.sha256) == expected.certificate?.chain.map(\.sha256))
    }
}

/// The limiter's solo turns and narrowing (``HostLimiter``).
@Suite("Per-address window")
struct HostLimiterWindowTests {
    @Test("a solo turn waits for the address to empty, and nobody enters meanwhile")
    func soloWaitsAndExcludes() async {
        let limiter = HostLimiter(limit: 4)
        let log = LockedLog()
        #expect(limiter.tryAcquire("a"))
        async let solo: Void = limiter.withSolo("a") {
            log.add("solo start")
            #expect(!limiter.tryAcquire("a"))
            log.add("solo end")
        }
        // Give the solo request time to queue: it cannot run while "a" holds a permit.
        while !limiter.hasWaiters("a") { await Task.yield() }
        #expect(!limiter.tryAcquire("a"), "a waiting solo turn must not be overtaken")
        log.add("release")
        limiter.release("a")
        await solo
        #expect(log.entries == ["release", "solo start", "solo end"])
        #expect(limiter.tryAcquire("a"))
        limiter.release("a")
    }

    @Test("narrowing lowers the window and never raises it")
    func narrowing() {
        let limiter = HostLimiter(limit: 16)
        #expect(limiter.window("a") == 16)
        limiter.narrow("a", to: 3)
        #expect(limiter.window("a") == 3)
        limiter.narrow("a", to: 8)
        #expect(limiter.window("a") == 3)
        limiter.narrow("a", to: 0)
        #expect(limiter.window("a") == 1)
        #expect(limiter.tryAcquire("a"))
        #expect(!limiter.tryAcquire("a"))
        limiter.release("a")
        #expect(limiter.window("b") == 16)
    }

    @Test("the ledger: an answer with earlier connections open shows concurrency; overlap is seen")
    func ledger() {
        let ledger = ConnectionLedger()
        let first = ledger.open(idle: true)
        ledger.established(first)
        Thread.sleep(forTimeInterval: 0.02)  // more than the ledger's queue margin: the first is surely ahead
        let second = ledger.open()
        let third = ledger.open(idle: true)
        ledger.established(third)  // after the second's connect started: not known to be ahead of it
        ledger.established(second)
        ledger.answered(second)  // answered while the first (idle, established before its connect) is open
        #expect(ledger.shownConcurrency == 2)
        #expect(ledger.close(third))
        #expect(ledger.close(second))
        // Now only the first (idle) is open. A connection that has sent its hello may already be finished on the
        // server's side while it looks open here: two of them ahead of an answer do not count.
        let active = [ledger.open(), ledger.open()]
        for ticket in active { ledger.established(ticket) }
        let later = ledger.open()
        ledger.established(later)
        ledger.answered(later)
        #expect(ledger.shownConcurrency == 2, "only the idle first counts")
        for ticket in active + [later] { ledger.close(ticket) }
        #expect(ledger.close(first), "the second started during the first's life")
        let alone = ledger.open()
        #expect(!ledger.close(alone))
        #expect(!ledger.stalled)
        ledger.noteStall(serving: 1)
        #expect(ledger.stalled)
        #expect(ledger.shownConcurrency == 1)
    }

    @Test(
        "the ledger: an answer waiting on another connection when a served one closes proves concurrency; nothing else does"
    )
    func concurrencyProof() throws {
        // Two socket pairs stand for two connections: `served` was answered (the server waits for the client), and
        // `other` has sent its hello. Bytes written from the far end of `other` are an answer waiting to be read.
        func pair() throws -> (Int32, Int32) {
            var fds: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            return (fds[0], fds[1])
        }
        let (served, servedFar) = try pair()
        let (other, otherFar) = try pair()
        defer { [served, servedFar, other, otherFar].forEach { _ = close($0) } }
        let ledger = ConnectionLedger()
        let servedTicket = ledger.open()
        ledger.established(servedTicket, fd: served)
        let otherTicket = ledger.open()
        ledger.established(otherTicket, fd: other)
        // Nothing waiting on the other: a one-at-a-time server could be serving the first still.
        ledger.closingServed(servedTicket)
        #expect(!ledger.provenConcurrent)
        #expect(ledger.shownConcurrency == 1)
        // An answer waiting on the other while the served one is still open: two at once.
        var hello: [UInt8] = [0x16, 0x03, 0x03]
        #expect(write(otherFar, &hello, hello.count) == hello.count)
        ledger.closingServed(servedTicket)
        #expect(ledger.provenConcurrent)
        #expect(ledger.shownConcurrency == 2)
        #expect(ledger.close(servedTicket))
        #expect(ledger.close(otherTicket))
    }

    final class LockedLog: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ entry: String) { lock.withLock { items.append(entry) } }
        var entries: [String] { lock.withLock { items } }
    }
}
