import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Hostile peers of docs/reliability.md#probing-deadlines-retries-unknown: each ends within its deadline with a clear
/// status, and a batch that mixes them with good servers still reports every good one.
@Suite("Hostile peers", .serialized)
struct HostilePeerTests {
    struct Case: Sendable, CustomStringConvertible {
        var behavior: HostileBehavior
        var status: ScanStatus
        var reasonContains: String
        var description: String { behavior.rawValue }
    }

    static let cases: [Case] = [
        Case(behavior: .silent, status: .timeout, reasonContains: "no TLS answer"),
        Case(behavior: .closeImmediately, status: .error, reasonContains: "closed"),
        Case(behavior: .plainHTTP, status: .error, reasonContains: "plain HTTP"),
        Case(behavior: .garbage, status: .error, reasonContains: "not TLS"),
        Case(behavior: .slowDrip, status: .timeout, reasonContains: "stalled"),
    ]

    @Test("each hostile peer ends within the deadline with the right status", arguments: cases)
    func hostile(_ c: Case) async throws {
        let peer = try HostilePeer(c.behavior)
        defer { peer.stop() }
        let request = ProbeRequest(target: try Target(parsing: peer.target), timeout: 1, deadline: 6)
        let profile = await TLSProber().scan(request)
        #expect(profile.status == c.status)
        #expect(profile.error?.contains(c.reasonContains) == true, "\(profile.error ?? "nil")")
        #expect(profile.durationSeconds < request.deadline)
        // Nothing was learnt about any version: unknown, never "not supported".
        #expect(profile.protocols.allSatisfy { $0.supported == nil })
        #expect(profile.certificate == nil)
    }

    @Test("a refused port is unreachable and costs no handshake")
    func refused() async throws {
        let closed = try ClosedPort()
        let profile = await TLSProber().scan(ProbeRequest(target: try Target(parsing: closed.target), timeout: 1))
        #expect(profile.status == .unreachable)
        #expect(profile.handshakes == 0)
        #expect(profile.error?.contains("refused") == true)
    }

    @Test("a certificate chain over OpenSSL's 100 KB limit ends in a clear error")
    func hugeChain() async throws {
        let config = try TLSServerConfiguration.hugeChain()
        #expect(config.chainSize > TLSServerConfiguration.openSSLDefaultMaxCertificateList)
        let server = try TestTLSServer(config)
        defer { server.stop() }
        let profile = await TLSProber().scan(ProbeRequest(target: try Target(parsing: server.target), timeout: 3))
        #expect(profile.status == .error)
        #expect(profile.error?.contains("excessive message size") == true, "\(profile.error ?? "nil")")
    }

    @Test("a batch mixing good and hostile targets reports every good one")
    func mixedBatch() async throws {
        let good = try (0..<3).map { _ in try TestTLSServer(TLSServerConfiguration()) }
        let bad = try [HostilePeer(.silent), HostilePeer(.garbage), HostilePeer(.closeImmediately)]
        defer {
            good.forEach { $0.stop() }
            bad.forEach { $0.stop() }
        }
        let ca = try ProbeFixtures.caFile()
        let targets = zip(good.map(\.target), bad.map(\.target)).flatMap { [$0, $1] }
        let prober = TLSProber()
        let profiles = await withTaskGroup(of: ServerProfile.self) { group in
            for target in targets {
                group.addTask {
                    await prober.scan(
                        ProbeRequest(target: try! Target(parsing: target), timeout: 1, deadline: 6, caFiles: [ca]))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(profiles.count == 6)
        let completed = profiles.filter { $0.status == .completed }
        #expect(Set(completed.map(\.port)) == Set(good.map(\.port)))
        #expect(completed.allSatisfy { $0.supported(.tls1_3) == true && $0.certificate?.trusted == true })
        #expect(profiles.filter { $0.status != .completed }.count == 3)
    }
}
