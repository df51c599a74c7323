import Foundation
import TLSModel
import TLSTestSupport
import Testing

@Suite("atscheck roots and --trust-store, --ct-log-list (CLI)")
struct RootsCommandTests {
    @Test("roots lists every bundled store with provenance; --os-version lists one release's roots and changes")
    func listing() throws {
        let all = try CLI.run(["roots"])
        #expect(all.status == 0)
        #expect(all.stdout.contains("security_certificates-55349.0.11"))
        #expect(all.stdout.contains("store 2025072000  156 roots"))
        #expect(all.stdout.contains("iOS 15.0"))
        #expect(all.stdout.contains("generated") && all.stdout.contains("scripts/apple-trust/generate.py"))

        let one = try CLI.run(["roots", "--os-version", "17.4", "--format", "json"])
        #expect(one.status == 0)
        let stores = try #require((one.json as? [String: Any])?["stores"] as? [[String: Any]])
        #expect(stores.count == 1)
        #expect(stores.first?["iOS"] as? String == "17.4")
        let roots = try #require(stores.first?["roots"] as? [[String: Any]])
        #expect(roots.count == 149)
        #expect(roots.allSatisfy { ($0["sha256"] as? String)?.count == 64 && !(($0["name"] as? String) ?? "").isEmpty })

        let text = try CLI.run(["roots", "--os-version", "17.4"])
        #expect(text.stdout.contains("Since iOS 17.0 (store 2023071300): +14 −25"), "\(text.stdout.prefix(600))")
    }

    @Test("a --trust-store PEM file or --ct-log-list that cannot be read is an input error (exit 65), before any scan")
    func badInputs() throws {
        let missing = try CLI.run(["scan", "127.0.0.1:9", "--trust-store", "/nonexistent/roots.pem"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("/nonexistent/roots.pem"))

        let path = TestScratch.file("atscheck-bad-log-list", suffix: ".json")
        try #"{"operators": [{"name": "X", "logs": [{"description": "no key"}]}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bad = try CLI.run(["scan", "127.0.0.1:9", "--ct-log-list", path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains(path) && bad.stderr.contains("no valid key or log_id"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }
}
