import Foundation
import TLSTestSupport
import Testing

/// `--no-simulation` through the built binary: a full scan without the Apple clients' own ClientHellos and the
/// two-segment ClientHello check, eight connections fewer, and the options that need them refused.
@Suite("atscheck --no-simulation (CLI)", .serialized)
struct NoSimulationCommandTests {
    static let host = "nosim.cli.atscheck.test"

    /// One scan of `server` as JSON, with `extra` arguments: the endpoint and the connections the server accepted.
    static func scan(_ server: TestTLSServer, _ extra: [String]) throws -> (endpoint: [String: Any], connections: Int) {
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let before = server.acceptedConnections
        let result = try CLI.run(
            [
                "scan", "https://\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1",
                "--ca-file", ca, "--format", "json", "--fail-on", "never",
            ] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(result.json as? [String: Any], "\(result.stdout)")
        let endpoint = try #require((root["endpoints"] as? [[String: Any]])?.first)
        return (endpoint, server.acceptedConnections - before)
    }

    @Test(
        "a full scan without simulation: no per-era outcomes, no size check, the same suites, eight connections fewer")
    func fewerConnections() throws {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3, cipherList: "ECDHE-RSA-AES128-GCM-SHA256",
                chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let full = try Self.scan(server, [])
        let plain = try Self.scan(server, ["--no-simulation"])
        #expect((full.endpoint["simulations"] as? [Any])?.count == 6)
        #expect(full.endpoint["helloSizeTolerance"] != nil)
        #expect(plain.endpoint["simulations"] == nil && plain.endpoint["helloSizeTolerance"] == nil)
        #expect(plain.endpoint["quantumSecure"] == nil)
        func suites(_ endpoint: [String: Any]) -> [String] {
            ((endpoint["protocols"] as? [[String: Any]]) ?? []).flatMap {
                (($0["cipherSuites"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            }
        }
        #expect(!suites(full.endpoint).isEmpty && suites(full.endpoint) == suites(plain.endpoint))
        // Six simulated clients and the size check's two connections; the enumeration's share can vary by a
        // connection opened ahead and not used.
        #expect(
            (full.connections - plain.connections - 8).magnitude <= 1, "\(full.connections) vs \(plain.connections)")
    }

    @Test("--require-pq and diagnose --tls-diagnostics need the simulation: usage errors (exit 64)")
    func conflicts() throws {
        let pq = try CLI.run(["scan", "https://127.0.0.1:1", "--no-simulation", "--require-pq"])
        #expect(pq.status == 64)
        #expect(pq.stderr.contains("--require-pq needs iOS 26's simulation"), "\(pq.stderr)")
        let diagnostics = try CLI.run(["diagnose", "https://127.0.0.1:1", "--tls-diagnostics", "--no-simulation"])
        #expect(diagnostics.status == 64)
        #expect(diagnostics.stderr.contains("drop --no-simulation"), "\(diagnostics.stderr)")
    }
}
