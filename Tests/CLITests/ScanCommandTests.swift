import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// The `scan` command end to end: real binary, real loopback servers, the JSON contract field by field.
@Suite("atscheck scan (CLI)", .serialized)
struct ScanCommandTests {
    static var iso8601: Regex<AnyRegexOutput> { try! Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#) }

    func modernServer() -> (TestTLSServer, String) {
        let leaf = try! TestPKI.shared.leaf(.leaf("api.cli.atscheck.test"))
        let server = try! TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3,
                cipherList: "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384",
                chain: TestPKI.shared.chain(for: leaf)))
        return (server, try! CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem"))
    }

    @Test("--format json carries every field of the docs/json-output.md contract, with the right types")
    func jsonContract() throws {
        let (server, ca) = modernServer()
        defer { server.stop() }
        let host = "api.cli.atscheck.test"
        let result = try CLI.run([
            "scan", "\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "json",
        ])
        let root = try #require(result.json as? [String: Any], "stdout: \(result.stdout) stderr: \(result.stderr)")
        #expect(root["schemaVersion"] as? Int == 1)
        let endpoints = try #require(root["endpoints"] as? [[String: Any]])
        #expect(endpoints.count == 1)
        let e = endpoints[0]
        #expect(e["target"] as? String == "\(host):\(server.port)")
        #expect(e["host"] as? String == host)
        #expect(e["port"] as? Int == server.port)
        #expect(e["address"] as? String == "127.0.0.1")
        #expect(e["sni"] as? String == host)
        #expect(e["status"] as? String == "completed")
        #expect(e.keys.contains("error"))
        #expect(e["error"] is NSNull)
        // Every connection the server saw is a handshake or a connection opened ahead and not used.
        #expect((e["handshakes"] as? Int ?? -1) + (e["unusedConnections"] as? Int ?? 0) == server.acceptedConnections)
        #expect(e["unusedConnections"] == nil || e["unusedConnections"] as? Int ?? 0 > 0, "absent when none")

        let protocols = try #require(e["protocols"] as? [[String: Any]])
        #expect(
            protocols.compactMap { $0["version"] as? String }.sorted() == ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"])
        for p in protocols {
            let version = try #require(p["version"] as? String)
            #expect(p["supported"] as? Bool == (version == "TLSv1.2" || version == "TLSv1.3"), "\(version)")
            #expect(p.keys.contains("serverPreference"))
            let suites = try #require(p["cipherSuites"] as? [[String: Any]])
            for suite in suites {
                #expect((suite["name"] as? String)?.hasPrefix("TLS_") == true)
                #expect((suite["code"] as? String)?.wholeMatch(of: try Regex("0x[0-9A-F]{4}")) != nil)
                #expect(suite["forwardSecrecy"] as? Bool == true)
            }
        }
        let tls12 = try #require(protocols.first { $0["version"] as? String == "TLSv1.2" })
        #expect(
            Set((tls12["cipherSuites"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }) == [
                "0xC02F", "0xC030",
            ])
        #expect(tls12["serverPreference"] as? Bool == true)

        let certificate = try #require(e["certificate"] as? [String: Any])
        #expect(certificate["trusted"] as? Bool == true)
        #expect(certificate["hostnameMatches"] as? Bool == true)
        #expect(certificate["verifyError"] is NSNull)
        let chain = try #require(certificate["chain"] as? [[String: Any]])
        #expect(chain.count == 2)
        let leaf = chain[0]
        for key in ["subject", "issuer", "keyType", "signatureAlgorithm", "sha256", "spkiSHA256"] {
            #expect(leaf[key] is String, "\(key)")
        }
        #expect(leaf["keyType"] as? String == "RSA")
        #expect(leaf["keyBits"] as? Int == 2048)
        #expect(leaf["signatureAlgorithm"] as? String == "sha256WithRSAEncryption")
        #expect(leaf["subjectAltNames"] as? [String] == [host])
        #expect((leaf["sha256"] as? String)?.count == 64)
        #expect(Data(base64Encoded: leaf["spkiSHA256"] as? String ?? "")?.count == 32)
        for key in ["notBefore", "notAfter"] {
            #expect((leaf[key] as? String)?.wholeMatch(of: Self.iso8601) != nil, "\(key)")
        }

        let ats = try #require(e["ats"] as? [String: Any])
        #expect(["pass", "fail", "unknown", "ambiguous"].contains(ats["verdict"] as? String ?? ""))
        #expect(ats["verdict"] as? String == "pass")
        #expect(ats["violations"] as? [Any] != nil)

        #expect(root["findings"] as? [Any] != nil)
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(summary["passed"] as? Int == 1)
        #expect(summary["failed"] as? Int == 0)
        #expect(summary["unreachable"] as? Int == 0)
        #expect(result.status == 0)
    }

    @Test("an ATS failure exits 1 and names the endpoint on stderr; violations carry rule, message, keyPath")
    func failingEndpoint() throws {
        let leaf = try TestPKI.shared.leaf(.leaf("legacy.cli.atscheck.test"))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_2, cipherList: "AES128-GCM-SHA256",
                chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let host = "legacy.cli.atscheck.test"
        let result = try CLI.run([
            "scan", "\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "json",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains(host))
        let root = try #require(result.json as? [String: Any])
        let ats = try #require((root["endpoints"] as? [[String: Any]])?.first?["ats"] as? [String: Any])
        #expect(ats["verdict"] as? String == "fail")
        let violations = try #require(ats["violations"] as? [[String: Any]])
        let fs = try #require(violations.first { $0["rule"] as? String == "ats.tls.forward-secrecy" })
        #expect((fs["message"] as? String)?.contains("TLS_RSA_WITH_AES_128_GCM_SHA256") == true)
        #expect((fs["keyPath"] as? String)?.hasSuffix("NSExceptionRequiresForwardSecrecy") == true)
    }

    @Test("an unreachable endpoint exits 2, the others are still reported")
    func unreachableExits2() throws {
        let (server, ca) = modernServer()
        defer { server.stop() }
        let dead = try ClosedPort()
        let deadPort = dead.port
        let host = "api.cli.atscheck.test"
        let result = try CLI.run([
            "scan", "\(host):\(server.port)", "127.0.0.1:\(deadPort)", "--resolve",
            "\(host):\(server.port):127.0.0.1", "--ca-file", ca, "--format", "json", "--timeout", "1",
        ])
        #expect(result.status == 2, "\(result.stderr)")
        let endpoints = try #require((result.json as? [String: Any])?["endpoints"] as? [[String: Any]])
        #expect(endpoints.map { $0["status"] as? String } == ["completed", "unreachable"])
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("--save-profile then --profile re-renders without connecting, under another --os-version")
    func profileRoundTrip() throws {
        let (server, ca) = modernServer()
        let host = "api.cli.atscheck.test"
        let saved = TestScratch.file("atscheck-profile", suffix: ".json")
        let first = try CLI.run([
            "scan", "\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "json", "--save-profile", saved,
        ])
        let connections = server.acceptedConnections
        server.stop()  // nothing to connect to any more
        #expect(first.status == 0)
        let again = try CLI.run([
            "scan", "--profile", saved, "--format", "json", "--os-version", "13", "--ca-file", ca,
        ])
        #expect(again.status == 0, "\(again.stderr)")
        let endpoint = try #require(((again.json as? [String: Any])?["endpoints"] as? [[String: Any]])?.first)
        #expect((endpoint["handshakes"] as? Int ?? -1) + (endpoint["unusedConnections"] as? Int ?? 0) == connections)
        #expect(((endpoint["ats"] as? [String: Any])?["osVersion"] as? String)?.hasPrefix("13") == true)

        // The saved chain is verified again, never read back: without the root it is untrusted, whatever the file
        // says; an edited verdict changes nothing; --at judges it at another time.
        let noRoot = try CLI.run(["scan", "--profile", saved])
        #expect(noRoot.status == 1)
        #expect(noRoot.stdout.contains("[trust.untrusted]"), "\(noRoot.stdout)")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        let tampered = TestScratch.file("atscheck-profile-tampered", suffix: ".json")
        try text.replacingOccurrences(of: "\"trusted\" : true", with: "\"trusted\" : false")
            .write(toFile: tampered, atomically: true, encoding: .utf8)
        #expect(text.contains("\"trusted\" : true"))
        #expect(try CLI.run(["scan", "--profile", tampered, "--ca-file", ca]).status == 0)
        let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(120 * 86_400))
        let expired = try CLI.run(["scan", "--profile", saved, "--ca-file", ca, "--at", later])
        #expect(expired.status == 1)
        #expect(expired.stdout.contains("[trust.expired]"), "\(expired.stdout)")
    }

    @Test("an http:// target is judged without probing, and a saved one is judged the same when reloaded")
    func cleartextProfileRoundTrip() throws {
        let saved = TestScratch.file("atscheck-http", suffix: ".json")
        let first = try CLI.run(["scan", "http://plain.atscheck.test/", "--format", "json", "--save-profile", saved])
        #expect(first.status == 1)
        let again = try CLI.run(["scan", "--profile", saved, "--format", "json"])
        #expect(again.status == 1)
        let endpoint = try #require(((again.json as? [String: Any])?["endpoints"] as? [[String: Any]])?.first)
        #expect(endpoint["handshakes"] as? Int == 0)
        let ats = try #require(endpoint["ats"] as? [String: Any])
        #expect((ats["violations"] as? [[String: Any]])?.first?["rule"] as? String == "ats.http.cleartext")
    }

    @Test(
        "usage errors exit 64; unreadable or malformed input files exit 65, each with one line",
        arguments: [
            (["scan"], Int32(64)),
            (["scan", "example.com:99999"], Int32(64)),
            (["scan", "example.com", "--resolve", "nonsense"], Int32(64)),
            (["scan", "example.com", "--os-version", "8"], Int32(64)),
            (["scan", "example.com", "--timeout", "0"], Int32(64)),
            (["scan", "--profile", "/nonexistent/profile.json"], Int32(65)),
        ])
    func badInput(_ args: [String], _ status: Int32) throws {
        let result = try CLI.run(args)
        #expect(result.status == status, "\(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test("a malformed saved profile exits 65 naming the file")
    func malformedProfile() throws {
        let path = try CLI.temporaryFile("{ \"not\": \"a profile\" }", suffix: ".json")
        let result = try CLI.run(["scan", "--profile", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains(path))
        let plist = try CLI.temporaryFile("<plist><dict><key>x</dict></plist>", suffix: ".plist")
        let bad = try CLI.run(["scan", "--profile", path, "--plist", plist])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains(plist))
    }

    @Test("text output: colour only on a terminal; never when piped")
    func noColorWhenPiped() throws {
        let (server, ca) = modernServer()
        defer { server.stop() }
        let host = "api.cli.atscheck.test"
        let result = try CLI.run([
            "scan", "\(host):\(server.port)", "--resolve", "\(host):\(server.port):127.0.0.1",
            "--ca-file", ca, "--format", "text",
        ])
        #expect(result.stdout.contains("TLSv1.3"))
        #expect(result.stdout.contains("ATS PASS"))
        #expect(!result.stdout.contains("\u{1B}["))
    }
}
