import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `atscheck pins check` and `pins extract` end to end: real binary, a self-signed staging server on loopback.
@Suite("atscheck pins (CLI)", .serialized)
struct PinsCommandTests {
    static let host = "staging.cli-pins.atscheck.test"

    func selfSignedServer() throws -> TestTLSServer {
        var spec = CertificateSpec.leaf(Self.host)
        spec.keySlot = "cli-pins-self-signed"
        return try TestTLSServer(.modern(chain: [try TestCertificate.selfSigned(spec)]))
    }

    func target(_ server: TestTLSServer) -> [String] {
        ["\(Self.host):\(server.port)", "--resolve", "\(Self.host):\(server.port):127.0.0.1", "--timeout", "3"]
    }

    /// Extracts the served leaf as AFNetworking material into a fresh directory.
    func extract(_ server: TestTLSServer) throws -> String {
        let dir = TestScratch.file("atscheck-cli-pins")
        let result = try CLI.run(
            ["pins", "extract"] + target(server) + ["--out", dir, "--format", "afnetworking"],
            environment: ["COLUMNS": "400"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("wrote "))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.count == 1)
        #expect(files.first?.hasSuffix(".cer") == true)
        return dir
    }

    @Test("release AFNetworking Certificate mode rejects the self-signed staging server (exit 1)")
    func releaseRejects() throws {
        let server = try selfSignedServer()
        defer { server.stop() }
        let pins = try extract(server)
        let result = try CLI.run(
            ["pins", "check"] + target(server) + ["--pins", pins, "--mode", "certificate", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("rejects"))
        let root = try #require(result.json as? [String: Any])
        let results = try #require(root["results"] as? [[String: Any]])
        let evaluation = try #require(results.first?["evaluation"] as? [String: Any])
        #expect(evaluation["verdict"] as? String == "reject")
        #expect(evaluation["result"] as? String == "system-trust-failed")
        #expect(results.first?["release"] is NSNull)
    }

    @Test("the debug policy accepts it (exit 0), shown next to release with the risks")
    func debugAcceptsSideBySide() throws {
        let server = try selfSignedServer()
        defer { server.stop() }
        let pins = try extract(server)
        let args =
            ["pins", "check"] + target(server) + [
                "--pins", pins, "--allow-invalid-certificates", "--no-validate-domain-name",
            ]
        let text = try CLI.run(args + ["--format", "text"], environment: ["COLUMNS": "400"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("debug (as given) next to release"))
        #expect(
            text.stdout.range(of: #"verdict\s+ACCEPT\s+REJECT"#, options: .regularExpression) != nil, "\(text.stdout)")
        #expect(text.stdout.contains("pins.debug.release-differs"))
        #expect(text.stdout.contains("at position 0 (leaf, by certificate)"))
        #expect(text.stdout.contains("trust checks skipped: hostname"))
        let json = try CLI.run(args + ["--format", "json"])
        let results = try #require((json.json as? [String: Any])?["results"] as? [[String: Any]])
        #expect((results.first?["evaluation"] as? [String: Any])?["verdict"] as? String == "accept")
        #expect((results.first?["release"] as? [String: Any])?["verdict"] as? String == "reject")
        #expect(
            ((results.first?["risks"] as? [[String: Any]]) ?? []).contains {
                $0["rule"] as? String == "pins.debug.any-host"
            })
        for format in ["sarif", "junit", "markdown"] {
            let out = try CLI.run(args + ["--format", format])
            #expect(out.status == 0)
            #expect(out.stdout.contains("pins.debug"), "\(format)")
        }
    }

    @Test("a target that cannot be reached exits 2")
    func unreachable() throws {
        let closed = try ClosedPort()
        let pins = try CLI.temporaryFile(
            "{\"domains\": {\"a.example.com\": {\"pins\": [\"YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI=\", \"EBXX9BOlOq+wYH7NbtxqeMIavcUBkow53QKlwqIbw+M=\"]}}}",
            suffix: ".json")
        let result = try CLI.run([
            "pins", "check", closed.target, "--pins", pins, "--library", "trustkit", "--timeout", "1", "--format",
            "json",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("could not be checked"))
    }

    @Test("malformed pin material exits 65 with FILE:LINE; options of another library exit 64")
    func inputAndUsageErrors() throws {
        let bad = try CLI.temporaryFile("domains:\n  a.example.com:\n    pins: 3\n", suffix: ".yaml")
        let malformed = try CLI.run(["pins", "check", "127.0.0.1:1", "--pins", bad, "--library", "trustkit"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("\(bad):3: "), "\(malformed.stderr)")
        let usage = try CLI.run(["pins", "check", "127.0.0.1:1", "--library", "trustkit", "--mode", "certificate"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--library afnetworking"))
    }
}
