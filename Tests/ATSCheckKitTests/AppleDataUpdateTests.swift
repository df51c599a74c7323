import CertificateTrust
import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

@testable import ATSCheckKit

/// `atscheck data update` against a loopback HTTPS server (a test CA as `--ca-file`) serving test lists: what is
/// stored, what is refused, and that a refused download leaves the folder as it was.
@Suite("Apple data update")
struct AppleDataUpdateTests {
    /// A list in Apple's format with `$schema`, holding two test logs.
    static func testList(version: String = "901") throws -> Data {
        let logs = [
            TestCTLogListing(try TestCTLog("Test Argon 2027h1", operator: "Test Google"), state: .usable),
            TestCTLogListing(try TestCTLog("Test Oak 2027h1", operator: "Test LE"), state: .qualified),
        ]
        return try withSchema(TestCTLogList.json(logs, version: version))
    }

    /// `json` with Apple's `$schema` (or `schema`).
    static func withSchema(_ json: Data, _ schema: String = AppleDataUpdate.schema) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        object["$schema"] = schema
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func folder() -> AppleDataFolder {
        AppleDataFolder(path: TestScratch.file("atscheck-data"))
    }

    static func caFile() throws -> String {
        let path = TestScratch.file("atscheck-data-ca", suffix: ".pem")
        try TestPKI.shared.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The update's outcome: what it stored or why not.
    static func update(_ url: String, into folder: AppleDataFolder, fetcher: (any HTTPFetching)? = nil) async throws
        -> Result<AppleDataUpdate.Result, AppleDataError>
    {
        let transport = try fetcher ?? HTTPFetcher(caFiles: [caFile()])
        do throws(AppleDataError) {
            return .success(try await AppleDataUpdate(url: url, folder: folder, timeout: 5).run(fetcher: transport))
        } catch { return .failure(error) }
    }

    @Test("a list served over HTTPS is stored byte for byte with its provenance, and read back as runs read it")
    func stores() async throws {
        let list = try Self.testList()
        let server = try TestHTTPServer(routes: ["/ct/list.json": .body(list)], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let folder = Self.folder()
        let url = "https://localhost:\(server.port)/ct/list.json"
        let before = Date()
        let result = try await Self.update(url, into: folder).get()
        let entry = result.entry
        #expect(entry.version == "901" && entry.logs == 2 && entry.bytes == list.count)
        #expect(entry.url == url)
        #expect(entry.sha256 == ContentDigest.sha256(list))
        #expect(entry.logListTimestamp != nil && entry.date != nil)
        #expect(entry.fetchedAt >= before.addingTimeInterval(-1))
        #expect(result.cacheKey == "atscheck-apple-data-" + entry.sha256.prefix(16))
        #expect(result.previousVersion == nil)
        let stored = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + entry.file))
        #expect(stored == list)
        #expect(try folder.manifest().ctLogList == entry)
        let (read, info) = try folder.logList()
        #expect(read.version == "901" && read.logs.count == 2)
        #expect(info.source == .updated && info.version == "901" && info.location == url && info.sha256 == entry.sha256)

        // A second update replaces the list and says which version it replaced; the old file goes.
        server.set("/ct/list.json", .chunked(try Self.testList(version: "902")))
        let second = try await Self.update(url, into: folder).get()
        #expect(second.previousVersion == "901" && second.entry.version == "902")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == [AppleDataFolder.manifestName, second.entry.file].sorted())
    }

    @Test(
        "a download that is not a valid list is refused, naming why, and the stored data is untouched",
        arguments: [
            ("not json", "not a JSON object"), ("schema", "not log_list_schema_v5"), ("no schema", "no $schema"),
            ("bad key", "its key is not a valid public key"), ("wrong id", "its log_id is not the SHA-256 of its key"),
            ("empty", "it lists no log"),
        ])
    func refused(kind: String, expected: String) async throws {
        let good = try Self.testList()
        var object = try #require(try JSONSerialization.jsonObject(with: good) as? [String: Any])
        var operators = try #require(object["operators"] as? [[String: Any]])
        var logs = try #require(operators[0]["logs"] as? [[String: Any]])
        let bad: Data
        switch kind {
        case "not json": bad = Data("<html>captive portal</html>".utf8)
        case "schema": bad = try Self.withSchema(good, "https://example.test/other_schema.json")
        case "no schema":
            object["$schema"] = nil
            bad = try JSONSerialization.data(withJSONObject: object)
        case "bad key", "wrong id":
            if kind == "bad key" {
                logs[0]["key"] = Data("not a key".utf8).base64EncodedString()
            } else {
                logs[0]["log_id"] = Data(repeating: 7, count: 32).base64EncodedString()
            }
            operators[0]["logs"] = logs
            object["operators"] = operators
            bad = try JSONSerialization.data(withJSONObject: object)
        default:
            object["operators"] = []
            bad = try JSONSerialization.data(withJSONObject: object)
        }
        let server = try TestHTTPServer(
            routes: ["/good.json": .body(good), "/bad.json": .body(bad)], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let folder = Self.folder()
        _ = try await Self.update("https://localhost:\(server.port)/good.json", into: folder).get()
        let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: folder.manifestPath))
        let filesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let outcome = try await Self.update("https://localhost:\(server.port)/bad.json", into: folder)
        guard case .failure(let error) = outcome else { Issue.record("a \(kind) list was stored"); return }
        #expect(error.kind == .malformed)
        #expect(error.message.contains(expected), "\(error)")
        #expect(error.message.hasSuffix("the data folder is unchanged"))
        #expect(!error.message.contains("\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.manifestPath)) == manifestBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == filesBefore)
        #expect(try folder.logList().list.version == "901")
    }

    @Test("a failed download (status, untrusted server) stores nothing and says why in one line")
    func downloadFailures() async throws {
        let server = try TestHTTPServer(routes: [:], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let folder = Self.folder()
        let missing = try await Self.update("https://localhost:\(server.port)/none.json", into: folder)
        guard case .failure(let error) = missing else { Issue.record("a 404 was stored"); return }
        #expect(error.kind == .download && error.message.contains("HTTP 404 Not Found"), "\(error)")
        let untrusted = try await Self.update(
            "https://localhost:\(server.port)/none.json", into: folder, fetcher: HTTPFetcher())
        guard case .failure(let tls) = untrusted else { Issue.record("an unverified server was trusted"); return }
        #expect(tls.message.contains("does not verify"), "\(tls)")
        #expect(!folder.hasData && !FileManager.default.fileExists(atPath: folder.path))
    }

    /// A fetcher that serves fixed bytes: the update's orchestration without a network.
    struct FixedFetcher: HTTPFetching {
        var body: Data
        func fetch(_ request: HTTPFetchRequest) async throws(HTTPFetchError) -> HTTPFetchResponse {
            HTTPFetchResponse(url: request.url, status: 200, body: body)
        }
    }

    @Test("the update takes any fetcher: the request is bounded and asks for JSON")
    func injectedFetcher() async throws {
        let folder = Self.folder()
        let result = try await Self.update(
            AppleDataUpdate.defaultURL, into: folder, fetcher: FixedFetcher(body: try Self.testList())
        ).get()
        #expect(result.entry.url == AppleDataUpdate.defaultURL && result.entry.version == "901")
        #expect(folder.hasData)
    }

    @Test("runs find their list: --ct-log-list wins, then --apple-data (none: bundled), then the XDG data folder")
    func resolution() async throws {
        let server = try TestHTTPServer(
            routes: ["/l.json": .body(try Self.testList())], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let home = TestScratch.file("atscheck-xdg")
        let folder = AppleDataFolder(path: home + "/atscheck")
        _ = try await Self.update("https://localhost:\(server.port)/l.json", into: folder).get()
        let environment = ["XDG_DATA_HOME": home, "HOME": "/nonexistent"]
        #expect(AppleDataFolder.defaultFolder(environment: environment) == folder)
        #expect(
            AppleDataFolder.defaultFolder(environment: ["HOME": "/home/u"])?.path == "/home/u/.local/share/atscheck")
        #expect(
            AppleDataFolder.defaultFolder(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])?.path
                == "/h/.local/share/atscheck", "a relative XDG_DATA_HOME is ignored")

        let automatic = try TrustInputs.logList(path: nil, appleData: nil, environment: environment)
        #expect(automatic.list?.version == "901" && automatic.info?.source == .updated)
        let bundled = try TrustInputs.logList(path: nil, appleData: "none", environment: environment)
        #expect(bundled.info?.source == .bundled && bundled.list?.version == TrustInputs.bundled.logList?.version)
        let explicit = try TrustInputs.logList(path: nil, appleData: folder.path, environment: [:])
        #expect(explicit.list?.version == "901")
        let file = TestScratch.file("atscheck-list", suffix: ".json")
        try Self.testList(version: "77").write(to: URL(fileURLWithPath: file))
        let given = try TrustInputs.logList(path: file, appleData: folder.path, environment: environment)
        #expect(given.list?.version == "77" && given.info?.source == .file)
        #expect(throws: InputFileError.self) {
            try TrustInputs.logList(path: nil, appleData: NSTemporaryDirectory() + "empty-\(UUID())", environment: [:])
        }
        let nothing = try TrustInputs.logList(path: nil, appleData: nil, environment: ["HOME": "/nonexistent"])
        #expect(nothing.info?.source == .bundled)
    }

    @Test("an altered list in the folder is refused at load, naming the file")
    func altered() async throws {
        let server = try TestHTTPServer(
            routes: ["/l.json": .body(try Self.testList())], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let folder = Self.folder()
        let entry = try await Self.update("https://localhost:\(server.port)/l.json", into: folder).get().entry
        try Self.testList(version: "666").write(to: URL(fileURLWithPath: folder.path + "/" + entry.file))
        #expect {
            try folder.logList()
        } throws: { error in
            (error as? InputFileError)?.reason.contains("its SHA-256 is not the one apple-data.json recorded") == true
        }
    }

    @Test("Apple's bundled list passes the same checks (its keys, its schema)")
    func bundledListChecks() throws {
        let list = try #require(TrustInputs.bundled.logList)
        #expect(CTLogKeys.problems(list).isEmpty)
    }
}
