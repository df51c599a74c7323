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
}
