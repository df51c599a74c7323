import ATSCheckKit
import Foundation
import Judging
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// The ATS verdict of a server scanned through a relay that drops connections (issue 8): never a
/// false FAIL for a server that passes, never a PASS for one that fails; where retries get through,
/// the direct scan's verdict.
@Suite("ATS verdicts through a relay that drops connections", .serialized)
struct DroppedConnectionVerdictTests {
    static let host = "drops.atscheck.test"

    struct Server: Sendable, CustomStringConvertible {
        var description: String
        var configuration: @Sendable () throws -> TLSServerConfiguration
        var verdict: ATSEvaluation.Verdict
    }

    static func chain() throws -> [TestCertificate] {
        TestPKI.shared.chain(for: try TestPKI.shared.leaf(.leaf(host)))
    }

    static let servers: [Server] = [
        Server(description: "modern (passes)", configuration: { .modern(chain: try chain()) }, verdict: .pass),
        Server(
            description: "RSA key exchange only (fails: no forward secrecy)",
            configuration: { .only(.tls1_2, cipherList: "AES128-GCM-SHA256:AES256-GCM-SHA384", chain: try chain()) },
            verdict: .fail),
    ]

    static let faults: [RelayFault] = [
        .closeEveryOther, .resetEveryOther, .truncateEveryOther(afterBytes: 200), .dropShare(0.3, seed: 8),
        .onePerSecond(reset: true),
    ]

    static func judge(port: Int, caFile: String) async throws -> (ServerProfile, ATSEvaluation) {
        let request = ProbeRequest(
            target: try Target(parsing: "\(host):\(port)"), connectAddress: "127.0.0.1", timeout: 3, deadline: 20,
            caFiles: [caFile])
        let prober = TLSProber(perHostLimit: 1, retry: RetryPolicy(maxRetries: 4, initialDelay: 0.002))
        let profile = await prober.scan(request)
        return (profile, PolicyJudge().judge(profile))
    }

    @Test("no false verdict; the direct verdict wherever retries get through", arguments: servers)
    func verdict(_ server: Server) async throws {
        let tls = try TestTLSServer(try server.configuration())
        defer { tls.stop() }
        let caFile = TestScratch.file("atscheck-drops-ca", suffix: ".pem")
        try TestPKI.shared.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: caFile) }

        let (_, direct) = try await Self.judge(port: tls.port, caFile: caFile)
        #expect(direct.verdict == server.verdict, "\(direct.violations.map(\.message))")

        for fault in Self.faults {
            let relay = try FaultRelay(in: tls, fault: fault)
            defer { relay.stop() }
            let (profile, relayed) = try await Self.judge(port: relay.port, caFile: caFile)
            #expect(profile.drops > 0, "\(fault)")
            if case .onePerSecond = fault {
                // Not every step gets through a second's window: unknown is allowed, the opposite verdict is not.
                #expect([server.verdict, .unknown].contains(relayed.verdict), "\(relayed.violations.map(\.message))")
            } else {
                #expect(
                    relayed.verdict == server.verdict, "\(fault): \(relayed.violations.map(\.message)) \(relayed.notes)"
                )
            }
            if relayed.verdict == .unknown {
                #expect(relayed.notes.contains { $0.hasPrefix("not tested") }, "\(fault): \(relayed.notes)")
            }
        }
    }
}
