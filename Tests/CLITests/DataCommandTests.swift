import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `atscheck data update` and `data show` run as the binary, against a loopback HTTPS server with a test CA: the
/// download is stored in the XDG data folder, later runs judge with it and say so, a bad download changes nothing.
@Suite("atscheck data (CLI)")
struct DataCommandTests {
    /// A test list in Apple's format (with `$schema`): two test logs.
    static func list(version: String) throws -> Data {
        let logs = [
            TestCTLogListing(try TestCTLog("Test Argon 2027h1", operator: "Test Google")),
            TestCTLogListing(try TestCTLog("Test Oak 2027h1", operator: "Test LE"), state: .qualified),
        ]
        var object = try #require(
            try JSONSerialization.jsonObject(with: TestCTLogList.json(logs, version: version)) as? [String: Any])
        object["$schema"] = "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v5.json"
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func temporary(_ prefix: String) -> String {
        let path = TestScratch.file("atscheck-\(prefix)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func caFile() throws -> String {
        let path = temporary("data-ca") + "/ca.pem"
        try TestPKI.shared.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A run with `XDG_DATA_HOME` set to `home`.
    static func run(_ arguments: [String], home: String) throws -> CLI.Result {
        try CLI.run(
            arguments, environment: ["XDG_DATA_HOME": home, "COLUMNS": "200"],
            unsetting: ["https_proxy", "HTTPS_PROXY"])
    }

    @Test(
        "update stores the list; a later scan judges with it and names it; --apple-data none goes back to the bundled list"
    )
    func updateThenScan() throws {
        let server = try TestHTTPServer(
            routes: ["/ct/current_log_list.json": .body(try Self.list(version: "901"))],
            tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let home = Self.temporary("xdg")
        let ca = try Self.caFile()
        let url = "https://localhost:\(server.port)/ct/current_log_list.json"
        let update = try Self.run(["data", "update", "--url", url, "--ca-file", ca], home: home)
        #expect(update.status == 0, "\(update.stderr)")
        let lines = update.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Apple's CT log list version 901, dated ") == true, "\(update.stdout)")
        #expect(update.stdout.contains("stored in \(home)/atscheck"))
        #expect(update.stdout.contains("not verified: a signature of the list"))
        let key = try #require(lines.last.map(String.init))
        #expect(
            key.hasPrefix("CI cache key: atscheck-apple-data-")
                && key.count == "CI cache key: atscheck-apple-data-".count + 16)
        #expect(FileManager.default.fileExists(atPath: home + "/atscheck/apple-data.json"))

        let target = try TestTLSServer(.modern())
        defer { target.stop() }
        let scan = [
            "scan", "localhost:\(target.port)", "--resolve", "localhost:\(target.port):127.0.0.1", "--trust-store",
            "none", "--ca-file", ca, "--ats-only", "--format", "json",
        ]
        let judged = try Self.run(scan, home: home)
        let report = try #require(judged.json as? [String: Any], "\(judged.stderr)")
        let logs = try #require((report["trustData"] as? [String: Any])?["ctLogList"] as? [String: Any])
        #expect(logs["source"] as? String == "updated" && logs["version"] as? String == "901")
        #expect(logs["location"] as? String == url)
        let endpoint = try #require((report["endpoints"] as? [[String: Any]])?.first)
        let transparency = (endpoint["certificate"] as? [String: Any])?["transparency"] as? [String: Any]
        #expect((transparency?["logList"] as? String)?.contains("downloaded") == true, "\(transparency ?? [:])")

        let text = try Self.run(Array(scan.dropLast(2)), home: home)
        #expect(text.stdout.contains("Trust data: Apple's CT log list version 901 (updated, "), "\(text.stdout)")

        let bundled = try Self.run(scan + ["--apple-data", "none"], home: home)
        let bundledLogs =
            ((bundled.json as? [String: Any])?["trustData"] as? [String: Any])?["ctLogList"] as? [String: Any]
        #expect(bundledLogs?["source"] as? String == "bundled" && bundledLogs?["version"] as? String == "375")

        // The reports without a scan report name it too: diagnose's JSON and text.
        let diagnose = [
            "diagnose", "https://localhost:\(target.port)/", "--resolve", "localhost:\(target.port):127.0.0.1",
            "--trust-store", "none", "--ca-file", ca, "--ats-only",
        ]
        let diagnosed = try Self.run(diagnose + ["--format", "json"], home: home)
        let diagnosedLogs =
            ((diagnosed.json as? [String: Any])?["trustData"] as? [String: Any])?["ctLogList"] as? [String: Any]
        #expect(diagnosedLogs?["version"] as? String == "901", "\(diagnosed.stdout)")
        #expect(try Self.run(diagnose, home: home).stdout.contains("Trust data: Apple's CT log list version 901"))

        let version = try Self.run(["--version"], home: home)
        #expect(version.stdout.contains("Updated Apple data: CT log list version 901"), "\(version.stdout)")
        let roots = try Self.run(["roots"], home: home)
        #expect(
            roots.stdout.contains(
                "Updated data (judged with instead of the bundled CT log list): Apple's CT log list version 901"))
        let rootsJSON = try Self.run(["roots", "--format", "json"], home: home)
        let updated = (rootsJSON.json as? [String: Any])?["updatedData"] as? [String: Any]
        #expect(((updated?["ctLogList"] as? [String: Any])?["version"] as? String) == "901")
        let show = try Self.run(["data", "show"], home: home)
        #expect(show.status == 0 && show.stdout.hasSuffix(key + "\n"), "\(show.stdout)")
    }

    @Test("a download that is not a list exits 65 with one line, and the folder keeps the list it had")
    func malformed() throws {
        let server = try TestHTTPServer(
            routes: [
                "/good.json": .body(try Self.list(version: "901")),
                "/portal.json": .body(Data("<html>sign in to the Wi-Fi</html>".utf8), contentType: "text/html"),
            ], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let home = Self.temporary("xdg")
        let ca = try Self.caFile()
        let good = try Self.run(
            ["data", "update", "--url", "https://localhost:\(server.port)/good.json", "--ca-file", ca], home: home)
        #expect(good.status == 0)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: home + "/atscheck/apple-data.json"))
        let bad = try Self.run(
            ["data", "update", "--url", "https://localhost:\(server.port)/portal.json", "--ca-file", ca], home: home)
        #expect(bad.status == 65)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        #expect(bad.stderr.contains("not a JSON object") && bad.stderr.contains("the data folder is unchanged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: home + "/atscheck/apple-data.json")) == manifest)
    }

    @Test("a download that fails exits 2 naming why; a bad URL or proxy is a usage error (64)")
    func failures() throws {
        let closed = try ClosedPort()
        let home = Self.temporary("xdg")
        let refused = try Self.run(
            ["data", "update", "--url", "https://127.0.0.1:\(closed.port)/list.json"], home: home)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("cannot download the CT log list: https://127.0.0.1:\(closed.port)/list.json"))
        #expect(!FileManager.default.fileExists(atPath: home + "/atscheck/apple-data.json"))
        #expect(try Self.run(["data", "update", "--url", "ftp://x/y"], home: home).status == 64)
        #expect(try Self.run(["data", "update", "--proxy", "socks5://127.0.0.1:1"], home: home).status == 64)
        let show = try Self.run(["data", "show"], home: home)
        #expect(show.status == 0 && show.stdout.contains("No updated Apple data"))
        let missing = try Self.run(["roots", "--apple-data", "none"], home: home)  // `none` is no folder: nothing there
        #expect(missing.status == 0)
    }

    @Test(
        "the download goes through the proxy: one CONNECT in tinyproxy's log",
        .enabled(if: Tinyproxy.binary != nil, "tinyproxy is not installed: the independent proxy check is skipped"))
    func throughTinyproxy() throws {
        let server = try TestHTTPServer(
            routes: ["/l.json": .body(try Self.list(version: "903"))], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let tinyproxy = try Tinyproxy()
        let home = Self.temporary("xdg")
        let result = try Self.run(
            [
                "data", "update", "--url", "https://localhost:\(server.port)/l.json", "--ca-file", try Self.caFile(),
                "--proxy", tinyproxy.url,
            ], home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("version 903"))
        for _ in 0..<100 where tinyproxy.requests(for: "localhost:\(server.port)") < 1 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(tinyproxy.requests(for: "localhost:\(server.port)") == 1)
    }
}
