import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Servers behind a relay that drops connections (issue 8): a drop is never a refusal. Each scan
/// through a ``FaultRelay`` must give no false answer, and where retries can reach the server, the
/// same answer as a direct scan.
///
/// One chain at a time (`perHostLimit: 1`), so the relay's n-th connection is the scan's n-th and the
/// fault sequence meets the scan the same way every run; back-offs are short to keep the suite fast.
@Suite("Scans through a relay that drops connections", .serialized)
struct DroppedConnectionTests {
    /// The prober of these tests: sequential chains, 4 retries from 2 ms.
    static func prober() -> TLSProber {
        TLSProber(perHostLimit: 1, retry: RetryPolicy(maxRetries: 4, initialDelay: 0.002))
    }

    struct Server: Sendable, CustomStringConvertible {
        var description: String
        var configuration: TLSServerConfiguration
    }

    static let servers: [Server] = [
        Server(description: "modern TLS 1.2+1.3", configuration: .modern()),
        Server(
            description: "TLS 1.0 only", configuration: .only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA:AES256-SHA")),
        Server(
            description: "TLS 1.2 RSA key exchange only",
            configuration: .only(.tls1_2, cipherList: "AES128-GCM-SHA256:AES256-GCM-SHA384")),
        Server(
            description: "TLS 1.2 with 22 suites",
            configuration: .only(.tls1_2, cipherList: EnumerationTests.twentyTwoRSA.joined(separator: ":"))),
    ]

    /// Faults that retries get through: the scan must give the full true answer.
    static let recoverable: [RelayFault] = [
        .closeEveryOther, .resetEveryOther, .truncateEveryOther(afterBytes: 200), .dropShare(0.3, seed: 8),
    ]

    static func scan(_ target: String, host: String) async throws -> ServerProfile {
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(target.split(separator: ":").last!)"), connectAddress: host,
            // A timeout is a drop the relay did not make: long enough that a loaded machine (the whole suite on two
            // cores) does not make one.
            timeout: 10, deadline: 60, caFiles: [try ProbeFixtures.caFile()])
        return await prober().scan(request)
    }

    @Test("the fixed seed never drops five connections in a row (so four retries always get through)")
    func seedHasNoLongRun() {
        var run = 0
        var longest = 0
        var dropped = 0
        for index in 0..<500 {
            if RelayFault.dropShare(0.3, seed: 8).faults(connection: index) == true {
                run += 1
                dropped += 1
            } else {
                run = 0
            }
            longest = max(longest, run)
        }
        #expect(longest < 5)
        #expect((100...200).contains(dropped), "a share of about 30%: \(dropped) of 500")
    }

    @Test("retries get through: the same answer as a direct scan, every drop counted", arguments: servers)
    func fullAnswer(_ server: Server) async throws {
        let tls = try TestTLSServer(server.configuration)
        defer { tls.stop() }
        let truth = try await Self.scan(tls.target, host: tls.host)
        #expect(truth.status == .completed && truth.drops == 0 && truth.retries == 0)
        for fault in Self.recoverable {
            let relay = try FaultRelay(in: tls, fault: fault)
            defer { relay.stop() }
            let relayed = try await Self.scan(relay.target, host: relay.host)
            try Self.expectFullAnswer(relayed, truth: truth, relay: relay)
        }
    }

    static func expectFullAnswer(_ relayed: ServerProfile, truth: ServerProfile, relay: FaultRelay) throws {
        let fault = relay.fault
        expectNoFalseAnswer(relayed, truth: truth)
        #expect(relayed.status == .completed, "\(fault): \(relayed.error ?? "")")
        for version in TLSVersion.probed {
            let got = try #require(relayed.result(for: version))
            let want = try #require(truth.result(for: version))
            #expect(got.supported == want.supported, "\(fault) \(version): \(got.reason ?? "")")
            #expect(got.enumerationComplete == want.enumerationComplete, "\(fault) \(version): \(got.reason ?? "")")
            #expect(Set(got.suites) == Set(want.suites), "\(fault) \(version)")
            #expect(got.serverPreference == want.serverPreference, "\(fault) \(version)")
        }
        #expect(relayed.certificate?.trusted == true, "\(fault)")
        // The report's counts are the relay's: every connection, every drop, and a retry for each drop.
        // A truncation may cut a flight after what a ClientHello of our own reads (its ServerHello and first
        // encrypted record): the relay counts a drop the scan never saw.
        #expect(relayed.handshakes == relay.acceptedConnections, "\(fault)")
        if case .truncateEveryOther = fault {
            #expect(relayed.drops <= relay.droppedConnections, "\(fault)")
        } else {
            #expect(relayed.drops == relay.droppedConnections, "\(fault)")
        }
        // A retry for each drop of a step; the connections that asked how the server refuses are not retried.
        #expect(
            relayed.retries <= relayed.drops && relayed.drops <= relayed.retries + relayed.refusalProbes, "\(fault)")
        // Beyond the truth: a retry per drop, and the connections that asked once how the server refuses.
        #expect(relayed.handshakes == truth.handshakes + relayed.retries + relayed.refusalProbes, "\(fault)")
        #expect(relayed.refusalProbes <= 10, "\(fault)")  // five rounds of two at most
        // One connection at a time: the relay's n-th connection is the scan's n-th, so the drops are the
        // faulted indices among them (a truncation cuts only answers longer than its limit: not alerts).
        let faulted = (0..<relayed.handshakes).filter { fault.faults(connection: $0) == true }.count
        if case .truncateEveryOther = fault {
            #expect(relayed.drops > 0 && relayed.drops <= faulted, "\(fault)")
        } else {
            #expect(relayed.drops == faulted, "\(fault)")
        }
    }

    @Test(
        "concurrent chains (three per host, as scans run by default): still no false answer",
        // Chains can fall into lockstep with a strict alternation and one step can lose every retry:
        // that gives unknown, never false. (With the standard back-off, 45 of 45 runs gave the full answer.)
        arguments: [RelayFault.closeEveryOther, .resetEveryOther, .dropShare(0.3, seed: 8)])
    func concurrentChains(_ fault: RelayFault) async throws {
        let tls = try TestTLSServer(.modern())
        defer { tls.stop() }
        let truth = try await Self.scan(tls.target, host: tls.host)
        let relay = try FaultRelay(in: tls, fault: fault)
        defer { relay.stop() }
        let prober = TLSProber(perHostLimit: 3, retry: RetryPolicy(maxRetries: 4, initialDelay: 0.002))
        let relayed = await prober.scan(
            ProbeRequest(
                target: try Target(parsing: "localhost:\(relay.port)"), connectAddress: relay.host, timeout: 3,
                deadline: 20,
                caFiles: [try ProbeFixtures.caFile()]))
        Self.expectNoFalseAnswer(relayed, truth: truth)
        #expect(relayed.status == .completed)
        // Three permits: connections are opened ahead, and the relay may drop one that is never used.
        #expect(relayed.connections == relay.acceptedConnections)
        let unused = relayed.unusedConnections ?? 0
        #expect(
            relayed.drops > 0 && relayed.drops <= relay.droppedConnections
                && relay.droppedConnections <= relayed.drops + unused)
    }

    @Test(
        "at most one connection a second: no false answer, and the drops are counted",
        arguments: [RelayFault.onePerSecond(reset: true), .onePerSecond(reset: false)])
    func onePerSecond(_ fault: RelayFault) async throws {
        let tls = try TestTLSServer(.modern())
        defer { tls.stop() }
        let truth = try await Self.scan(tls.target, host: tls.host)
        let relay = try FaultRelay(in: tls, fault: fault)
        defer { relay.stop() }
        let relayed = try await Self.scan(relay.target, host: relay.host)

        Self.expectNoFalseAnswer(relayed, truth: truth)
        // The lead gets through (the first connection of a second), so the scan knows TLS 1.3.
        #expect(relayed.status == .completed)
        #expect(relayed.supported(.tls1_3) == true)
        // Retries 2–30 ms apart cannot wait out a second: something is left unknown, and said so.
        #expect(relayed.protocols.contains { $0.supported == nil || !$0.enumerationComplete })
        #expect(relayed.error?.isEmpty == false)
        #expect(relayed.handshakes == relay.acceptedConnections)
        #expect(relayed.drops == relay.droppedConnections)
        #expect(relayed.drops > 0 && relayed.retries > 0)
    }

    @Test("a relay that drops everything leaves every version unknown, never unsupported")
    func everythingDropped() async throws {
        let tls = try TestTLSServer(.modern())
        defer { tls.stop() }
        let relay = try FaultRelay(in: tls, fault: .dropShare(1, seed: 1))
        defer { relay.stop() }
        let relayed = try await Self.scan(relay.target, host: relay.host)
        #expect(relayed.status == .error)
        #expect(relayed.protocols.allSatisfy { $0.supported == nil })
        let reason = try #require(relayed.result(for: .tls1_2)?.reason)
        #expect(reason == "server closed the connection every time (2 attempts): could not tell")
        // The lead: five connections, all closed without a byte, four retried. A server that closes everything
        // is not dropping at random, so each of the four versions then gets one retry: two connections each.
        #expect(relayed.handshakes == 13 && relay.acceptedConnections == 13)
        #expect(relayed.drops == 13 && relayed.retries == 8)
    }

    @Test("a relay that only adds latency changes nothing but the time")
    func latencyOnly() async throws {
        let tls = try TestTLSServer(.modern())
        defer { tls.stop() }
        let truth = try await Self.scan(tls.target, host: tls.host)
        let relay = try FaultRelay(in: tls, fault: .none, latency: 0.005)
        defer { relay.stop() }
        let relayed = try await Self.scan(relay.target, host: relay.host)
        #expect(relayed.protocols == truth.protocols)
        #expect(relayed.drops == 0 && relayed.retries == 0 && relay.droppedConnections == 0)
        #expect(relayed.handshakes == relay.acceptedConnections && relayed.handshakes == truth.handshakes)
        // Each connection waits at least one accept delay and a round trip of two chunk delays.
        #expect(relayed.durationSeconds >= Double(relayed.handshakes) * 0.015)
    }

    /// No answer the relay made false: every known `supported` is the truth, every list marked complete
    /// is the true list, every suite found is a true one, every known server order is the true one.
    static func expectNoFalseAnswer(_ relayed: ServerProfile, truth: ServerProfile) {
        for version in TLSVersion.probed {
            guard let got = relayed.result(for: version), let want = truth.result(for: version) else {
                Issue.record("\(version) missing")
                continue
            }
            if let supported = got.supported { #expect(supported == want.supported, "\(version): \(got.reason ?? "")") }
            #expect(Set(got.suites).isSubset(of: Set(want.suites)), "\(version)")
            if got.supported == true && got.enumerationComplete {
                #expect(Set(got.suites) == Set(want.suites), "\(version) marked complete")
            }
            if let order = got.serverPreference { #expect(order == want.serverPreference, "\(version)") }
        }
    }
}
