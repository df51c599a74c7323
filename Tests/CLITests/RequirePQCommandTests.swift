import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `--require-pq` through the built binary: on `scan`, `audit` and `app`, in `--help`; a saved profile with simulated
/// Apple clients (the simulation itself is the prober's, tested there) judged again with and without it.
@Suite("atscheck --require-pq (CLI)", .serialized)
struct RequirePQCommandTests {
    @Test("scan, audit and app offer --require-pq in --help", arguments: ["scan", "audit", "app"])
    func help(command: String) throws {
        let result = try CLI.run([command, "--help"], environment: ["COLUMNS": "200"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--require-pq"), "\(result.stdout)")
        #expect(result.stdout.contains("X25519MLKEM768"))
    }

    @Test("app --offline --require-pq is a usage error: there is no connection to judge")
    func appOffline() throws {
        let result = try CLI.run(["app", "Demo.ipa", "--offline", "--require-pq"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--require-pq need the live checks: drop --offline"), "\(result.stderr)")
    }

    /// Text lines as long as they are.
    static let wide = ["COLUMNS": "400"]

    /// `saved`'s profiles with one simulated iOS 26 client that negotiates `group` added to each.
    static func withSimulation(_ saved: String, group: NamedGroup) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: saved))
        var profiles = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let simulation = ClientSimulation(
            client: "iOS 26 (URLSession)", profile: "ios26", osVersion: "26", evidence: "exact", outcome: .negotiated,
            version: .tls1_3, suite: AcceptedCipherSuite(suite: .TLS_AES_256_GCM_SHA384),
            group: AcceptedGroup(group: group), quantumSecure: group.isPostQuantum)
        let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(simulation))
        for index in profiles.indices { profiles[index]["simulations"] = [encoded] }
        let path = TestScratch.file("atscheck-pq-profile", suffix: ".json")
        try JSONSerialization.data(withJSONObject: profiles).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `saved` with no simulated client.
    static func withoutSimulations(_ saved: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: saved))
        var profiles = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        for index in profiles.indices { profiles[index]["simulations"] = nil }
        let path = TestScratch.file("atscheck-pq-profile", suffix: ".json")
        try JSONSerialization.data(withJSONObject: profiles).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("scan --profile: not quantum-secure fails with --require-pq (exit 1); secure or unknown does not")
    func profiles() throws {
        let leaf = try TestPKI.shared.leaf(.leaf("pq.cli.atscheck.test"))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3, cipherList: "ECDHE-RSA-AES128-GCM-SHA256",
                chain: TestPKI.shared.chain(for: leaf)))
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let host = "pq.cli.atscheck.test"
        let saved = TestScratch.file("atscheck-pq-saved", suffix: ".json")
        let first = try CLI.run(
            [
                "scan", "\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1", "--ca-file", ca,
                "--save-profile", saved,
            ], environment: Self.wide)
        server.stop()
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")

        let classic = try Self.withSimulation(saved, group: .x25519)
        let failing = try CLI.run(
            ["scan", "--profile", classic, "--ca-file", ca, "--require-pq"], environment: Self.wide)
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("iOS 26 connections are not quantum-secure"))
        #expect(failing.stdout.contains("[required.quantum-secure]"))
        #expect(failing.stdout.contains("quantum-secure: 0 of 1 endpoint"))
        #expect(failing.stderr.contains("1 error-level finding(s)"), "\(failing.stderr)")
        // Without the option the same fact is a note of the report, not a failure.
        let noted = try CLI.run(["scan", "--profile", classic, "--ca-file", ca], environment: Self.wide)
        #expect(noted.status == 0, "\(noted.stdout)\(noted.stderr)")
        #expect(noted.stdout.contains("Quantum-secure (iOS 26): no — iOS 26 (URLSession) negotiates x25519"))
        #expect(!noted.stdout.contains("[required.quantum-secure]"))
        // SARIF carries the note, and with --require-pq the error.
        let sarif = try CLI.run(
            ["scan", "--profile", classic, "--ca-file", ca, "--require-pq", "--format", "sarif"], environment: Self.wide
        )
        #expect(
            sarif.stdout.contains("\"info.tls.quantum-secure\"") && sarif.stdout.contains("\"required.quantum-secure\"")
        )

        let secure = try Self.withSimulation(saved, group: .X25519MLKEM768)
        let passing = try CLI.run(
            ["scan", "--profile", secure, "--ca-file", ca, "--require-pq", "--format", "json"], environment: Self.wide)
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        let root = try #require(passing.json as? [String: Any])
        #expect((root["summary"] as? [String: Any])?["quantumSecure"] as? Int == 1)
        #expect((root["endpoints"] as? [[String: Any]])?.first?["quantumSecure"] as? Bool == true)
        let rules = (root["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(!rules.contains("required.quantum-secure"), "\(rules)")

        // Nothing simulated (the saved scan's own simulations taken out): unknown is said in a note, and does not
        // fail the run.
        let unsimulated = try Self.withoutSimulations(saved)
        let unknown = try CLI.run(
            ["scan", "--profile", unsimulated, "--ca-file", ca, "--require-pq"], environment: Self.wide)
        #expect(unknown.status == 0, "\(unknown.stdout)\(unknown.stderr)")
        #expect(unknown.stdout.contains("note: "))
        #expect(unknown.stdout.contains("whether iOS 26 connections are quantum-secure is unknown"))
    }

    /// `audit --endpoints` for one loopback `localhost` endpoint on `port`, trusting the shared test root.
    static func audit(port: Int, _ extra: [String]) throws -> CLI.Result {
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let endpoints = try CLI.temporaryFile("https://localhost:\(port)\n", suffix: ".txt")
        return try CLI.run(
            ["audit", "--endpoints", endpoints, "--ca-file", ca, "--resolve", "localhost:\(port):127.0.0.1"] + extra,
            environment: Self.wide)
    }

    @Test(
        "audit --require-pq (ats-only) simulates iOS 26: an OpenSSL 3.0 server fails it (exit 1), within 7 handshakes")
    func auditClassical() throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let failing = try Self.audit(port: server.port, ["--require-pq", "--format", "json"])
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        let root = try #require(failing.json as? [String: Any], "\(failing.stdout)")
        let endpoint = try #require((root["endpoints"] as? [[String: Any]])?.first)
        #expect(endpoint["scope"] as? String == "ats-only")
        #expect(endpoint["quantumSecure"] as? Bool == false)
        #expect((endpoint["handshakes"] as? Int).map { $0 <= 7 } == true, "\(endpoint["handshakes"] ?? "")")
        let required = (root["findings"] as? [[String: Any]] ?? []).filter {
            $0["rule"] as? String == "required.quantum-secure"
        }
        #expect(required.count == 1 && required.first?["severity"] as? String == "error", "\(required)")
        // Without it: the same audit passes, simulates nothing and keeps to six handshakes.
        let before = server.acceptedConnections
        let plain = try Self.audit(port: server.port, ["--format", "json"])
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(server.acceptedConnections - before <= 6)
        let plainRoot = try #require(plain.json as? [String: Any])
        #expect((plainRoot["endpoints"] as? [[String: Any]])?.first?["quantumSecure"] as? Bool == nil)
    }

    @Test(
        "audit --require-pq against tlslite-ng with X25519MLKEM768: quantum-secure, no failure of its own",
        .enabled(if: TLSLiteServer.isInstalled, "tlslite-ng 0.8 and kyber-py are not installed (make deps)"))
    func auditQuantumSecure() throws {
        let server = try TLSLiteServer.start(
            groups: ["x25519mlkem768", "x25519"], ciphers: ["aes128gcm", "aes256gcm"])
        defer { server.stop() }
        let required = try Self.audit(port: server.port, ["--require-pq", "--format", "json"])
        let root = try #require(required.json as? [String: Any], "\(required.stdout)\(required.stderr)")
        #expect((root["endpoints"] as? [[String: Any]])?.first?["quantumSecure"] as? Bool == true, "\(required.stdout)")
        let rules = (root["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(!rules.contains("required.quantum-secure"), "\(rules)")
        // --require-pq adds no failure: the exit status is the audit's own.
        let plain = try Self.audit(port: server.port, ["--format", "json"])
        #expect(required.status == plain.status, "\(required.stderr) / \(plain.stderr)")
    }
}
