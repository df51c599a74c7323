import ATSCheckKit
import AppBundleFixtures
import Foundation
import TLSTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `atscheck app PATH` (live) through the built binary: the demo `.ipa` against in-process loopback servers,
/// with `--endpoints` lists that replace the harvest.
@Suite("atscheck app (live)")
struct AppLiveCommandTests {
    /// A demo `.ipa` pinning the shared test PKI's root, a modern and an RSA-key-exchange server, and a folder.
    final class Fixture {
        let folder: URL
        let ipa: String
        let modern: TestTLSServer
        let rsa: TestTLSServer
        let closed: ClosedPort

        init() throws {
            let pki = TestPKI.shared
            folder = URL(fileURLWithPath: TestScratch.file("atscheck-app-live-cli"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            ipa = folder.appendingPathComponent("Demo.ipa").path
            try DemoApp.tree(pinDER: pki.root.der).prefixed("Payload/\(DemoApp.name)").zip(
                to: URL(fileURLWithPath: ipa))
            try pki.rootPEM.write(to: folder.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
            modern = try TestTLSServer(.modern(chain: pki.chain(for: pki.leaf(.leaf(DemoApp.host("modern"))))))
            rsa = try TestTLSServer(
                .only(
                    .tls1_2, cipherList: "AES128-GCM-SHA256",
                    chain: pki.chain(for: pki.leaf(.leaf(DemoApp.host("rsa-kx-only"))))))
            closed = try ClosedPort()
        }

        deinit {
            modern.stop()
            rsa.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

        var targets: [String: Int] { ["modern": modern.port, "rsa-kx-only": rsa.port, "gone": closed.port] }

        /// An endpoint list of the named servers, and the options that reach them.
        func list(_ names: [String]) throws -> [String] {
            let path = file("endpoints-\(names.joined(separator: "-")).txt")
            try names.map { "https://\(DemoApp.host($0, targets))" }.joined(separator: "\n")
                .write(toFile: path, atomically: true, encoding: .utf8)
            return ["--endpoints", path, "--ca-file", file("ca.pem"), "--timeout", "3"]
                + names.flatMap { ["--resolve", "\(DemoApp.host($0, targets)):127.0.0.1"] }
        }
    }

    static func app(_ arguments: [String]) async throws -> CLI.Result {
        try await CLI.offPool { try CLI.run(["app"] + arguments) }
    }

    @Test("--endpoints replaces the harvest; a passing endpoint exits 0; the JSON has the live section")
    func passingJSON() async throws {
        let fixture = try Fixture()
        let options = try fixture.list(["modern"])
        let result = try await Self.app([fixture.ipa] + options + ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json as? [String: Any], "\(result.stdout)")
        #expect(json["schemaVersion"] as? Int == 1)
        let endpoints = try #require(json["endpoints"] as? [[String: Any]])
        #expect(endpoints.count == 1)
        #expect(endpoints.first?["host"] as? String == DemoApp.host("modern"))
        #expect((endpoints.first?["ats"] as? [String: Any])?["verdict"] as? String == "pass")
        let app = try #require(json["app"] as? [String: Any])
        #expect((app["harvestedEndpoints"] as? [Any])?.count == DemoApp.expectedTargets.count)
        let live = try #require(json["live"] as? [String: Any])
        #expect(live["endpointSource"] as? String == options[1])
        let eras = try #require(live["eras"] as? [String])
        #expect(eras.first == "15")
        #expect(eras.count == (app["eras"] as? [String])?.count)
        let verdicts = try #require(live["endpoints"] as? [[String: Any]])
        #expect(verdicts.count == 1)
        #expect(verdicts.first?["summary"] as? String == "passes on iOS 15+")
        #expect((verdicts.first?["eras"] as? [[String: Any]])?.count == eras.count)
        #expect(live["exceptionDebt"] is [Any])
        let pins = try #require(live["pins"] as? [[String: Any]])
        #expect(pins.count == 2)
        #expect(
            pins.allSatisfy {
                $0["origin"] as? String == "bundled-certificates" && $0["library"] as? String == "afnetworking"
            })
        #expect(Set(pins.compactMap { $0["mode"] as? String }) == ["certificate", "public-key"])
        #expect(
            pins.allSatisfy {
                (($0["result"] as? [String: Any])?["evaluation"] as? [String: Any])?["verdict"] as? String == "accept"
            })
    }

    @Test("a failing endpoint exits 1, an unreachable one 2, a missing list or bundle 65")
    func exitCodes() async throws {
        let fixture = try Fixture()
        let failing = try await Self.app([fixture.ipa] + (try fixture.list(["modern", "rsa-kx-only"])))
        #expect(failing.status == 1)
        #expect(failing.stderr.hasPrefix("atscheck: app audit failed with 1 error(s)"), "\(failing.stderr)")
        #expect(failing.stdout.contains("Live verdicts (2 endpoint(s) from"))
        #expect(failing.stdout.contains("fails on iOS 15+"))
        #expect(failing.stdout.contains("audit.exception.missing"))

        let unreachable = try await Self.app([fixture.ipa] + (try fixture.list(["modern", "gone"])))
        #expect(unreachable.status == 2, "\(unreachable.stderr)")
        #expect(!unreachable.stderr.isEmpty)

        let missingList = try await Self.app([fixture.ipa, "--endpoints", fixture.file("none.txt")])
        #expect(missingList.status == 65)
        #expect(missingList.stderr.contains("none.txt"))
        let missingBundle = try await Self.app([fixture.file("none.ipa")])
        #expect(missingBundle.status == 65)

        let badLibrary = try await Self.app([fixture.ipa, "--library", "trustkit"])
        #expect(badLibrary.status == 64)
        let afOnAlamofire = try await Self.app([fixture.ipa, "--library", "alamofire", "--mode", "certificate"])
        #expect(afOnAlamofire.status == 64)
    }

    @Test("SARIF validates against the 2.1.0 schema, JUnit parses, Markdown and GitHub carry the failure")
    func formats() async throws {
        let fixture = try Fixture()
        let options = try fixture.list(["modern", "rsa-kx-only"])
        let sarifFile = fixture.file("app.sarif")
        let junitFile = fixture.file("app.xml")
        let result = try await Self.app(
            [fixture.ipa] + options + [
                "--format", "markdown", "--report", "sarif=\(sarifFile)", "--report", "junit=\(junitFile)",
            ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("audit.exception.missing"))

        let sarif = try String(contentsOfFile: sarifFile, encoding: .utf8)
        let validation = try SARIFSchemaValidator.validate(sarif)
        #expect(validation.ok, "\(validation.output)")
        let results =
            (((try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])?
                .first?["results"] as? [[String: Any]]) ?? []
        #expect(results.contains { $0["ruleId"] as? String == "audit.exception.missing" })

        let junit = try Data(contentsOf: URL(fileURLWithPath: junitFile))
        let parser = XMLParser(data: junit)
        let counter = FailureCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.failures > 0)

        let github = try await Self.app([fixture.ipa] + options + ["--format", "github"])
        #expect(github.stdout.contains("::error"))
        #expect(github.stdout.contains("audit.exception.missing"))
    }

    /// Counts `<failure>` elements.
    final class FailureCounter: NSObject, XMLParserDelegate {
        var failures = 0
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if name == "failure" { failures += 1 }
        }
    }
}
