import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// A server that sends only its leaf, whose caIssuers URL Python's http.server answers with the intermediate: every
/// command that judges trust completes the path as iOS does and warns, `--no-fetch` (or a dead URL) makes the verdict
/// ambiguous, a saved profile is judged again without the network, and NSPinnedDomains sees the completed path.
@Suite("Missing intermediates fetched (CLI)", .serialized)
struct IssuerFetchCommandTests {
    final class Fixture {
        let pki: TestPKI
        let dir: String
        let python: PythonHTTPServer
        let server: TestTLSServer
        let ca: String
        let chainFile: String
        var url: String { python.url("/int.der") }

        /// `caIssuers`: the leaf's URL (default: the intermediate on the Python server).
        init(caIssuers: String? = nil) throws {
            pki = try TestPKI.make(name: "cli aia \(UUID().uuidString.prefix(6))")
            dir = TestScratch.file("atscheck-cli-aia")
            try FileManager.default.createDirectory(atPath: dir + "/www", withIntermediateDirectories: true)
            try pki.intermediate.der.write(to: URL(fileURLWithPath: dir + "/www/int.der"))
            python = try PythonHTTPServer(serving: URL(fileURLWithPath: dir + "/www"))
            var spec = CertificateSpec.leaf("localhost", "127.0.0.1")
            spec.extensions = [("authorityInfoAccess", "caIssuers;URI:\(caIssuers ?? python.url("/int.der"))")]
            let leaf = try pki.leaf(spec)
            server = try TestTLSServer(.modern(chain: [leaf]))
            ca = dir + "/ca.pem"
            try pki.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
            chainFile = dir + "/leaf.pem"
            try leaf.pem.write(toFile: chainFile, atomically: true, encoding: .utf8)
        }

        deinit {
            server.stop()
            python.stop()
            try? FileManager.default.removeItem(atPath: dir)
        }

        var scan: [String] {
            [
                "scan", "localhost:\(server.port)", "--resolve", "localhost:\(server.port):127.0.0.1", "--trust-store",
                "none", "--ca-file", ca, "--ats-only",
            ]
        }
    }

    static func endpoint(_ result: CLI.Result) throws -> [String: Any] {
        let endpoints = try #require(
            (result.json as? [String: Any])?["endpoints"] as? [[String: Any]], "\(result.stderr)")
        return try #require(endpoints.first)
    }

    static func ats(_ endpoint: [String: Any]) -> [String: Any] { endpoint["ats"] as? [String: Any] ?? [:] }

    /// The findings' rules, less the run's one warning that the bundled CT log list is old (``trust.data.stale``).
    static func rules(_ result: CLI.Result) -> [String] {
        ((result.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            .filter { $0 != "trust.data.stale" }
    }

    @Test("scan: the path is completed from the URL, the endpoint passes with a trust.missing-intermediate warning")
    func scanFetches() throws {
        let fixture = try Fixture()
        let result = try CLI.run(fixture.scan + ["--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let endpoint = try Self.endpoint(result)
        #expect(Self.ats(endpoint)["verdict"] as? String == "pass")
        #expect(Self.rules(result) == ["trust.missing-intermediate"])
        let certificate = try #require(endpoint["certificate"] as? [String: Any])
        #expect((certificate["chain"] as? [Any])?.count == 1)
        #expect((certificate["verifiedChain"] as? [Any])?.count == 3)
        let fetches = (certificate["trust"] as? [String: Any])?["issuerFetches"] as? [[String: Any]]
        #expect(fetches?.first?["status"] as? String == "fetched" && fetches?.first?["url"] as? String == fixture.url)
        #expect(fixture.python.requests(for: "/int.der") == 1)

        let text = try CLI.run(fixture.scan, environment: ["COLUMNS": "300"])
        #expect(text.stdout.contains("Issuer fetched (AIA): \(fixture.url)"), "\(text.stdout)")
        #expect(text.stdout.contains("[trust.missing-intermediate]"))
    }

    @Test("scan --no-fetch: ambiguous with the URL (exit 2: not judged), never trust.untrusted; nothing is fetched")
    func scanNoFetch() throws {
        let fixture = try Fixture()
        let result = try CLI.run(fixture.scan + ["--no-fetch", "--format", "json"])
        #expect(result.status == 2)
        let ats = Self.ats(try Self.endpoint(result))
        #expect(ats["verdict"] as? String == "ambiguous")
        #expect((ats["violations"] as? [[String: Any]] ?? []).isEmpty, "\(ats)")
        let notes = ats["notes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("iOS fetches it from \(fixture.url)") && $0.contains("--no-fetch") })
        #expect(fixture.python.requests(for: "/int.der") == 0)
    }

    @Test("scan with a dead caIssuers URL: ambiguous, naming the URL and the refusal")
    func deadURL() throws {
        let closed = try ClosedPort()
        let fixture = try Fixture(caIssuers: "http://127.0.0.1:\(closed.port)/int.der")
        let result = try CLI.run(fixture.scan + ["--format", "json"])
        #expect(result.status == 2)
        let ats = Self.ats(try Self.endpoint(result))
        #expect(ats["verdict"] as? String == "ambiguous")
        let notes = ats["notes"] as? [String] ?? []
        #expect(
            notes.contains {
                $0.contains("http://127.0.0.1:\(closed.port)/int.der") && $0.contains("Connection refused")
            },
            "\(notes)")
    }

    @Test("a saved profile keeps the fetched issuer: judged again with the URL gone, it still passes")
    func savedProfile() throws {
        let fixture = try Fixture()
        let profile = fixture.dir + "/profile.json"
        let saved = try CLI.run(fixture.scan + ["--save-profile", profile, "--format", "json"])
        #expect(saved.status == 0)
        fixture.python.stop()
        let again = try CLI.run([
            "scan", "--profile", profile, "--trust-store", "none", "--ca-file", fixture.ca, "--format", "json",
        ])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(Self.ats(try Self.endpoint(again))["verdict"] as? String == "pass")
        #expect(Self.rules(again) == ["trust.missing-intermediate"])
    }

    @Test("cert: a leaf-only chain file is completed the same way; --no-fetch makes it ambiguous")
    func certCommand() throws {
        let fixture = try Fixture()
        let base = ["cert", fixture.chainFile, "--host", "localhost", "--trust-store", "none", "--ca-file", fixture.ca]
        let fetched = try CLI.run(base + ["--format", "json"])
        #expect(fetched.status == 0, "\(fetched.stdout)\(fetched.stderr)")
        #expect(Self.ats(try Self.endpoint(fetched))["verdict"] as? String == "pass")
        #expect(Self.rules(fetched) == ["trust.missing-intermediate"])
        let off = try CLI.run(base + ["--no-fetch", "--format", "json"])
        #expect(off.status == 2)
        #expect(Self.ats(try Self.endpoint(off))["verdict"] as? String == "ambiguous")
    }

    @Test("NSPinnedDomains pinning the intermediate sees the completed path; without the fetch it cannot match")
    func pinnedDomainsSeeCompletedPath() throws {
        let fixture = try Fixture()
        let probe = try CLI.run(fixture.scan + ["--format", "json"])
        let verified = try #require(
            (try Self.endpoint(probe)["certificate"] as? [String: Any])?["verifiedChain"] as? [[String: Any]])
        let intermediate = try #require(verified.count == 3 ? verified[1]["spkiSHA256"] as? String : nil)
        let plist = fixture.dir + "/Info.plist"
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
        <key>NSPinnedDomains</key><dict><key>localhost</key><dict><key>NSPinnedCAIdentities</key><array>
        <dict><key>SPKI-SHA256-BASE64</key><string>\(intermediate)</string></dict>
        <dict><key>SPKI-SHA256-BASE64</key><string>YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI=</string></dict>
        </array></dict></dict></dict></dict></plist>
        """.write(toFile: plist, atomically: true, encoding: .utf8)
        let matched = try CLI.run(fixture.scan + ["--plist", plist, "--format", "json"])
        #expect(!Self.rules(matched).contains("pins.rejected"), "\(Self.rules(matched))")
        #expect(matched.status == 0, "\(matched.stdout)")
        let unfetched = try CLI.run(fixture.scan + ["--plist", plist, "--no-fetch", "--format", "json"])
        #expect(Self.rules(unfetched).contains("pins.rejected"), "\(Self.rules(unfetched))")
    }
}
