import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `diagnose --tls-diagnostics --older-sdk` through the real binary: iOS 26 simulated as an app built with an SDK
/// before iOS 26's, which still offers TLS 1.0 and 1.1 (Security-61901's default minimum), against a server that
/// speaks TLS 1.0 alone.
@Suite("atscheck diagnose --tls-diagnostics --older-sdk (CLI)", .serialized)
struct DiagnoseOlderSDKCommandTests {
    static let host = "old.atscheck.test"

    static func diagnose(_ extra: [String]) throws -> CLI.Result {
        let leaf = try TestPKI.shared.leaf(.leaf(host))
        // TLS 1.0 alone, with an ECDHE suite every Apple era offers.
        let server = try TestTLSServer(
            .only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA", chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        return try CLI.run(
            [
                "diagnose", "https://\(host):\(server.port)/", "--resolve", "\(host):\(server.port):127.0.0.1",
                "--ca-file", ca, "--tls-diagnostics", "--format", "json",
            ] + extra)
    }

    static func tls(_ result: CLI.Result) throws -> [String: Any] {
        let root = try #require(result.json as? [String: Any], "\(result.stdout)\(result.stderr)")
        let diagnosis = root["diagnosis"] as? [String: Any] ?? root
        return try #require(diagnosis["tlsDiagnostics"] as? [String: Any], "\(result.stdout)")
    }

    @Test("a TLS 1.0 server: the iOS 26 SDK's client fails (exit 1), an older SDK's connects on 0x0301 (exit 0)")
    func tls10() throws {
        let current = try Self.diagnose([])
        #expect(current.status == 1, "\(current.stdout)\(current.stderr)")
        #expect(try Self.tls(current)["result"] as? String == "FAIL")

        let older = try Self.diagnose(["--older-sdk"])
        #expect(older.status == 0, "\(older.stdout)\(older.stderr)")
        let tls = try Self.tls(older)
        #expect(tls["result"] as? String == "PASS")
        #expect(tls["negotiatedVersion"] as? String == "0x0301")
        #expect(tls["negotiatedSuite"] as? String == "0xC013")
        let simulation = try #require(tls["simulation"] as? [String: Any])
        #expect(simulation["client"] as? String == "iOS 26 (URLSession, older SDK)")
        #expect(simulation["profile"] as? String == "ios26-urlsession-older-sdk")
        #expect(simulation["evidence"] as? String == "inferred")
    }

    @Test(
        "--older-sdk needs --tls-diagnostics, a scan (not --profile) and iOS 26",
        arguments: [
            ["diagnose", "https://example.com/", "--older-sdk"],
            ["diagnose", "https://example.com/", "--older-sdk", "--tls-diagnostics", "--profile", "saved.json"],
            ["diagnose", "https://example.com/", "--older-sdk", "--tls-diagnostics", "--os-version", "18"],
        ])
    func usage(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--older-sdk"), "\(result.stderr)")
    }
}
