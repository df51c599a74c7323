import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `--ats-only` through the real binary (issue 10): `scan --ats-only` and `audit` (its default) probe at most
/// 6 handshakes per endpoint and say so (`scope: "ats-only"`); `audit --full` keeps full enumeration.
@Suite("atscheck --ats-only (CLI)", .serialized)
struct AtsOnlyCommandTests {
    static let host = "api.cli-atsonly.atscheck.test"
    static var atsOnlyScope: Regex<AnyRegexOutput> { try! Regex(#""scope"\s*:\s*"ats-only""#) }

    func server() throws -> (TestTLSServer, String) {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3,
                cipherList: "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA:AES128-SHA",
                chain: TestPKI.shared.chain(for: leaf)))
        return (server, try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem"))
    }

    @Test("scan --ats-only: scope ats-only, at most 6 handshakes, lists marked not enumerated")
    func scanAtsOnly() throws {
        let (server, ca) = try server()
        defer { server.stop() }
        let result = try CLI.run([
            "scan", "\(Self.host):\(server.port)", "--resolve", "\(Self.host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "json", "--ats-only",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(result.json as? [String: Any], "\(result.stdout)")
        let e = try #require((root["endpoints"] as? [[String: Any]])?.first)
        #expect(e["scope"] as? String == "ats-only")
        let handshakes = try #require(e["handshakes"] as? Int)
        #expect(handshakes <= 6 && handshakes == server.acceptedConnections)
        let tls12 = try #require((e["protocols"] as? [[String: Any]])?.first { $0["version"] as? String == "TLSv1.2" })
        #expect(tls12["enumerationComplete"] as? Bool == false)
        #expect(tls12["reason"] as? String == "ats-only scan: not enumerated")
        #expect((tls12["cipherSuites"] as? [Any])?.isEmpty == false)
    }

    @Test("audit defaults to ats-only; audit --full enumerates; both together are a usage error")
    func auditDefault() throws {
        let (server, ca) = try server()
        defer { server.stop() }
        let endpoints = try CLI.temporaryFile("https://\(Self.host):\(server.port)\n", suffix: ".txt")
        let common = [
            "audit", "--endpoints", endpoints, "--ca-file", ca,
            "--resolve", "\(Self.host):\(server.port):127.0.0.1", "--format", "json",
        ]
        let limited = try CLI.run(common)
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stdout.contains(Self.atsOnlyScope), "\(limited.stdout)")
        let before = server.acceptedConnections
        #expect(before <= 6)
        let full = try CLI.run(common + ["--full"])
        #expect(full.status == 0, "\(full.stderr)")
        #expect(!full.stdout.contains(Self.atsOnlyScope))
        #expect(server.acceptedConnections - before > 6, "a full scan of 4 suites on TLS 1.2 costs more than 6")
        let both = try CLI.run(common + ["--full", "--ats-only"])
        #expect(both.status == 64)
    }
}
