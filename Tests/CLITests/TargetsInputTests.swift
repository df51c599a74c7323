import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// Targets from files and standard input, `--resolve` that matches nothing, and `--warn-days` (issue 11).
@Suite("atscheck scan targets and expiry warnings (CLI)", .serialized)
struct TargetsInputTests {
    static let host = "list.cli.atscheck.test"

    func server(validityDays: Double = 90) throws -> (TestTLSServer, String) {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host, validityDays: validityDays))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3, cipherList: "ECDHE-RSA-AES128-GCM-SHA256",
                chain: TestPKI.shared.chain(for: leaf)))
        return (server, try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem"))
    }

    @Test("scan - reads a JSON endpoint list from standard input, with per-endpoint resolve and caFile")
    func standardInputJSON() throws {
        let (server, ca) = try server()
        defer { server.stop() }
        let list = """
            {"endpoints": [{"url": "https://\(Self.host):\(server.port)", "resolve": "127.0.0.1", "caFile": "\(ca)"}]}
            """
        let result = try CLI.run(["scan", "-", "--format", "json"], stdin: list)
        #expect(result.status == 0, "\(result.stderr)")
        let endpoint = try #require(((result.json as? [String: Any])?["endpoints"] as? [[String: Any]])?.first)
        #expect(endpoint["address"] as? String == "127.0.0.1")
        #expect((endpoint["ats"] as? [String: Any])?["verdict"] as? String == "pass")
        #expect((endpoint["source"] as? [String: Any])?["file"] as? String == "(stdin)")
    }

    @Test("scan --targets FILE: text list with comments; a bad line is a finding at its line, the rest is scanned")
    func targetsFile() throws {
        let (server, ca) = try server()
        defer { server.stop() }
        let list = try CLI.temporaryFile(
            """
            # staging
            \(Self.host):\(server.port)   # the API
            not a target at all
            """, suffix: ".txt")
        let result = try CLI.run([
            "scan", "--targets", list, "--resolve", "\(Self.host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "json",
        ])
        #expect(result.status == 1, "the bad line is an error finding: \(result.stderr)")
        let root = try #require(result.json as? [String: Any])
        let endpoints = try #require(root["endpoints"] as? [[String: Any]])
        #expect(endpoints.count == 1)
        #expect((endpoints[0]["source"] as? [String: Any])?["line"] as? Int == 2)
        let findings = try #require(root["findings"] as? [[String: Any]])
        #expect(
            findings.contains {
                $0["rule"] as? String == "endpoints.invalid" && $0["line"] as? Int == 3 && $0["file"] as? String == list
            })
        let text = try CLI.run(["scan", "-", "--timeout", "0.5"], stdin: "# nothing but a bad line\nbad line here\n")
        #expect(text.stdout.contains("(stdin):2:"), "\(text.stdout)")
    }

    @Test(
        "a --resolve entry that matches no target is a usage error naming it",
        arguments: [
            ["scan", "http://a.atscheck.test", "--resolve", "b.atscheck.test:443:127.0.0.1"],
            ["diagnose", "https://a.atscheck.test", "--resolve", "a.atscheck.test:8443:127.0.0.1"],
        ])
    func unusedResolve(_ args: [String]) throws {
        let result = try CLI.run(args)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--resolve") && result.stderr.contains("matches no target"))
        #expect(result.stderr.contains(args.last!.split(separator: ":").prefix(2).joined(separator: ":")))
        #expect(result.stdout.isEmpty)
    }

    @Test("audit: a --resolve entry that matches no endpoint of the list is a usage error")
    func unusedResolveAudit() throws {
        let list = try CLI.temporaryFile("http://a.atscheck.test\n", suffix: ".txt")
        let result = try CLI.run(["audit", "--endpoints", list, "--resolve", "z.atscheck.test:443:127.0.0.1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("z.atscheck.test:443"))
    }

    @Test("--warn-days: a leaf expiring in 10 days is a trust.expiry.soon warning; --fail-on warning fails on it")
    func expiryWarning() throws {
        let (server, ca) = try server(validityDays: 11)
        defer { server.stop() }
        let base = [
            "scan", "\(Self.host):\(server.port)", "--resolve", "\(Self.host):\(server.port):127.0.0.1", "--ca-file",
            ca,
        ]
        let warned = try CLI.run(base + ["--format", "json"])
        #expect(warned.status == 0, "a warning does not fail the default gate: \(warned.stderr)")
        let findings = try #require((warned.json as? [String: Any])?["findings"] as? [[String: Any]])
        let soon = try #require(findings.first { $0["rule"] as? String == "trust.expiry.soon" }, "\(findings)")
        #expect(soon["severity"] as? String == "warning")
        #expect(
            (soon["message"] as? String)?.contains("in 9 days") == true
                || (soon["message"] as? String)?.contains("in 10 days") == true)
        let quiet = try CLI.run(base + ["--format", "json", "--warn-days", "5"])
        let none = (quiet.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        #expect(!none.contains { $0["rule"] as? String == "trust.expiry.soon" })
        let gated = try CLI.run(base + ["--fail-on", "warning"])
        #expect(gated.status == 1)
        #expect(gated.stderr.contains("trust.expiry.soon"))
        let diagnose = try CLI.run([
            "diagnose", "https://\(Self.host):\(server.port)/", "--resolve",
            "\(Self.host):\(server.port):127.0.0.1", "--ca-file", ca, "--format", "json",
        ])
        let diagnosed = (diagnose.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        #expect(diagnosed.contains { $0["rule"] as? String == "trust.expiry.soon" }, "\(diagnose.stdout.prefix(200))")
    }

    @Test("diagnose renders the endpoint in scan's formats: SARIF from one scan")
    func diagnoseSARIF() throws {
        let (server, ca) = try server()
        defer { server.stop() }
        let dir = TestScratch.file("atscheck-diag", suffix: ".sarif")
        let result = try CLI.run([
            "diagnose", "https://\(Self.host):\(server.port)/", "--resolve",
            "\(Self.host):\(server.port):127.0.0.1", "--ca-file", ca, "--report", "sarif=\(dir)",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ATS Default Connection"))
        let sarif =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir))) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")
    }
}
