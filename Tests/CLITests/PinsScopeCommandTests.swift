import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `pins check` probes ATS-only by default and says so; `--full` enumerates (issue 10).
@Suite("atscheck pins check: ATS-only by default (CLI)", .serialized)
struct PinsScopeCommandTests {
    static let host = "scope.cli-pins.atscheck.test"

    @Test(
        "default: ats-only (scope in JSON, a probe line in text, few connections); --full: a full scan; both together: 64"
    )
    func defaultIsAtsOnly() async throws {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host))
        let server = try TestTLSServer(.modern(chain: [leaf, TestPKI.shared.intermediate]))
        defer { server.stop() }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let pins = try CLI.temporaryFile(TestPKI.shared.intermediate.pem, suffix: ".pem")
        let base = [
            "pins", "check", "\(Self.host):\(server.port)", "--resolve", "\(Self.host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--pins", pins, "--mode", "public-key", "--timeout", "3",
        ]

        let before = server.acceptedConnections
        let json = try await CLI.offPool { try CLI.run(base + ["--format", "json"]) }
        let atsOnlyConnections = server.acceptedConnections - before
        #expect(json.status == 0, "\(json.stderr)")
        let root = try #require(json.json as? [String: Any])
        #expect(root["scope"] as? String == "ats-only")
        #expect(atsOnlyConnections <= 6)

        let text = try await CLI.offPool { try CLI.run(base) }
        #expect(text.status == 0)
        #expect(text.stdout.contains("probe: ATS-only"))

        let beforeFull = server.acceptedConnections
        let full = try await CLI.offPool { try CLI.run(base + ["--full", "--format", "json"]) }
        #expect(full.status == 0, "\(full.stderr)")
        let fullRoot = try #require(full.json as? [String: Any])
        #expect(fullRoot["scope"] == nil)
        #expect(server.acceptedConnections - beforeFull > atsOnlyConnections)
        let fullResults = try #require(fullRoot["results"] as? [[String: Any]])
        let results = try #require(root["results"] as? [[String: Any]])
        #expect((fullResults.first?["evaluation"] as? [String: Any])?["verdict"] as? String == "accept")
        #expect(
            (results.first?["served"] as? [[String: Any]])?.count
                == (fullResults.first?["served"] as? [[String: Any]])?.count)

        let both = try await CLI.offPool { try CLI.run(base + ["--full", "--ats-only"]) }
        #expect(both.status == 64)
        #expect(both.stderr.contains("--full and --ats-only cannot be used together"))
    }
}
