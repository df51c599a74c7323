import ATSCheckKit
import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `--client system-services` (Apple support 126655) and `diagnose --tls-diagnostics` through the real binary.
@Suite("atscheck --client system-services and diagnose --tls-diagnostics (CLI)", .serialized)
struct SystemServicesCommandTests {
    static let host = "mdm.atscheck.test"

    /// An exception that makes URLSession accept an RSA-key-exchange-only server.
    static func relaxedPlist() throws -> String {
        try CLI.temporaryFile(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
            <key>NSExceptionDomains</key><dict><key>\(host)</key><dict>
            <key>NSExceptionRequiresForwardSecrecy</key><false/>
            </dict></dict></dict></dict></plist>
            """, suffix: ".plist")
    }

    static func scan(_ cipherList: String, _ extra: [String]) throws -> CLI.Result {
        let leaf = try TestPKI.shared.leaf(.leaf(host))
        let server = try TestTLSServer(.only(.tls1_2, cipherList: cipherList, chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        return try CLI.run(
            [
                "scan", "https://\(host):\(server.port)/", "--resolve", "\(host):\(server.port):127.0.0.1", "--ca-file",
                ca,
            ]
                + extra)
    }

    @Test("an MDM-like server with TLS 1.2 RSA key exchange only: the exception passes URLSession, not system services")
    func rsaKeyExchangeOnly() throws {
        let plist = try Self.relaxedPlist()
        let app = try Self.scan("AES128-GCM-SHA256", ["--plist", plist])
        #expect(app.status == 0, "\(app.stdout)\(app.stderr)")
        let system = try Self.scan(
            "AES128-GCM-SHA256", ["--plist", plist, "--client", "system-services", "--format", "json"])
        #expect(system.status == 1, "\(system.stdout)\(system.stderr)")
        let endpoint = try #require(((system.json as? [String: Any])?["endpoints"] as? [[String: Any]])?.first)
        let ats = try #require(endpoint["ats"] as? [String: Any])
        #expect(ats["verdict"] as? String == "fail")
        let violations = try #require(ats["violations"] as? [[String: Any]])
        #expect(violations.first?["rule"] as? String == "ats.tls.forward-secrecy")
        #expect(violations.first?["keyPath"] is NSNull, "no Info.plist key fixes it: \(violations)")
        let notes = (ats["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.contains("support article 126655") }, "\(notes)")
        #expect(notes.contains { $0.contains("unconfirmed") }, "\(notes)")
    }

    @Test("a compliant server (ECDHE with AES-GCM) passes system services")
    func compliant() throws {
        let result = try Self.scan("ECDHE-RSA-AES128-GCM-SHA256", ["--client", "system-services"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("--help names the client and its source; diagnose's matrix refuses it")
    func helpAndDiagnose() throws {
        let help = try CLI.run(["scan", "--help"])
        let flat = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        #expect(flat.contains("system-services") && flat.contains("126655"), "\(help.stdout)")
        let refused = try CLI.run(["diagnose", "https://example.com/", "--client", "system-services"])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--tls-diagnostics"))
        // Commands that weigh the app's Info.plist refuse it before reading anything.
        let audit = try CLI.run([
            "audit", "--plist", "Info.plist", "--endpoints", "e.txt", "--client", "system-services",
        ])
        #expect(audit.status == 64 && audit.stderr.contains("system processes do not read"), "\(audit.stderr)")
        let diagnoseHelp = try CLI.run(["diagnose", "--help"])
        #expect(diagnoseHelp.stdout.contains("--tls-diagnostics"))
    }

    @Test("diagnose --tls-diagnostics from a saved profile: nscurl's lines by era, JSON, and the exit status")
    func tlsDiagnostics() throws {
        var profile = ServerProfile(
            target: "\(Self.host):443", host: Self.host, port: 443, status: .completed, scannedAt: Date())
        profile.simulations = [
            ClientSimulation(
                client: "iOS 26 (URLSession)", profile: "ios26-urlsession", osVersion: "26", evidence: "exact",
                outcome: .negotiated, version: .tls1_3,
                suite: AcceptedCipherSuite(suite: CipherSuite.TLS_AES_256_GCM_SHA384),
                group: AcceptedGroup(group: .X25519MLKEM768), quantumSecure: true),
            ClientSimulation(
                client: "iOS 18 (URLSession)", profile: "ios18", osVersion: "18", evidence: "exact", outcome: .dropped,
                failure: "the connection is reset after the ClientHello"),
        ]
        let saved = NSTemporaryDirectory() + "atscheck-tlsdiag-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: saved) }
        try ProfileFile.save([profile], to: saved)
        let base = ["diagnose", "https://\(Self.host)/", "--profile", saved, "--tls-diagnostics"]

        let newest = try CLI.run(base)
        #expect(newest.status == 0, "\(newest.stderr)")
        for line in [
            "Negotiated TLS version (codepoint): 0x0304", "Negotiated TLS key exchange group (name): X25519MLKEM768",
            "Negotiated TLS ciphersuite (codepoint): 0x1302",
        ] {
            #expect(newest.stdout.contains(line + "\n"), "\(newest.stdout)")
        }
        let old = try CLI.run(base + ["--os-version", "18"])
        #expect(old.status == 1, "\(old.stderr)")
        #expect(old.stdout.contains("Result : FAIL\nError : iOS 18 (URLSession) fails: the connection is reset"))
        let json = try CLI.run(base + ["--format", "json"])
        let tls = try #require((json.json as? [String: Any])?["tlsDiagnostics"] as? [String: Any], "\(json.stdout)")
        #expect(tls["negotiatedSuite"] as? String == "0x1302" && tls["result"] as? String == "PASS")
        let none = try CLI.run(base + ["--os-version", "17"])
        #expect(none.status == 2)
        #expect(none.stdout.contains("Result : NOT SIMULATED"))
    }
}
