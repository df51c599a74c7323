import ATSCheckKit
import AppBundleFixtures
import Foundation
import Judging
import TLSTestSupport
import Testing

/// `atscheck app --offline` through the built binary, on demo bundles zipped per test.
@Suite("atscheck app --offline")
struct AppCommandTests {
    /// A private folder holding one `.ipa` of the demo app, removed when released.
    final class DemoIPA {
        let folder: URL
        let path: String

        init(afNetworkingVersion: String = "4.0.1", pinDER: Data? = nil) throws {
            folder = URL(fileURLWithPath: TestScratch.file("atscheck-app-cli"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("Demo.ipa").path
            let der = try pinDER ?? TestCertificate.selfSigned(.ca("atscheck demo CA")).der
            try DemoApp.tree(pinDER: der, afNetworkingVersion: afNetworkingVersion)
                .prefixed("Payload/\(DemoApp.name)").zip(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    static func app(_ arguments: [String]) async throws -> CLI.Result {
        try await CLI.offPool { try CLI.run(["app"] + arguments) }
    }

    static func ruleIDs(_ result: CLI.Result) -> [String] {
        let findings = (result.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        return findings.compactMap { $0["rule"] as? String }
    }

    @Test("the demo .ipa: text names the app, its libraries, its pin and its endpoints with their files")
    func demoText() async throws {
        let ipa = try DemoIPA()
        // The content, not the layout (TerminalWidthTests): wide enough that no line wraps.
        let path = ipa.path
        let result = try await CLI.offPool {
            try CLI.run(["app", path, "--offline"], environment: ["COLUMNS": "400"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("App com.atscheck.demo 1.4.0 (42)"))
        #expect(result.stdout.contains("Minimum OS: MinimumOSVersion 15.0"))
        #expect(result.stdout.contains("AFNetworking 4.0.1: framework"))
        #expect(result.stdout.contains("Payload/Demo.app/demo-ca.cer: CN=atscheck demo CA"))
        #expect(result.stdout.contains(", SPKI SHA-256 "))
        #expect(result.stdout.contains("read by AFNetworking (main bundle)"))
        #expect(result.stdout.contains("Harvested endpoints (\(DemoApp.expectedTargets.count))"))
        #expect(
            result.stdout.contains(
                "https://tls13-only.demo.atscheck.test  from \(ipa.path)/Payload/Demo.app/main.jsbundle:"))
        for target in DemoApp.expectedTargets { #expect(result.stdout.contains("  \(target)  from "), "\(target)") }
        #expect(!result.stdout.contains("w3.org"))
        #expect(result.stdout.contains("app.library.linked"))
    }

    @Test("AFNetworking 3 as a framework never reads the app's .cer: an error, exit 1")
    func frameworkBundleFails() async throws {
        let ipa = try DemoIPA(afNetworkingVersion: "3.2.1")
        let result = try await Self.app([ipa.path, "--offline", "--format", "json"])
        #expect(result.status == 1)
        #expect(Self.ruleIDs(result).contains("pins.material.framework-bundle"))
        #expect(result.stderr.contains("error-level finding"))
        let never = try await Self.app([ipa.path, "--offline", "--fail-on", "never"])
        #expect(never.status == 0)
    }

    @Test("JSON carries the report contract and the bundle's facts under app")
    func json() async throws {
        let ipa = try DemoIPA()
        let result = try await Self.app([ipa.path, "--offline", "--format", "json"])
        #expect(result.status == 0)
        let root = try #require(result.json as? [String: Any])
        #expect(root["schemaVersion"] != nil)
        #expect((root["endpoints"] as? [Any])?.isEmpty == true)
        #expect(root["summary"] != nil)
        let app = try #require(root["app"] as? [String: Any])
        #expect(app["bundleIdentifier"] as? String == "com.atscheck.demo")
        #expect(app["version"] as? String == "1.4.0")
        #expect(app["container"] as? String == "ipa")
        #expect((app["minimumOS"] as? [String: Any])?["value"] as? String == "15.0")
        #expect((app["eras"] as? [String])?.first == "15.0")
        let libraries = try #require(app["libraries"] as? [[String: Any]])
        #expect(libraries.first?["name"] as? String == "AFNetworking")
        #expect(libraries.first?["linkage"] as? String == "framework")
        let certificates = try #require(app["certificates"] as? [[String: Any]])
        #expect(certificates.count == 1)
        #expect((certificates.first?["spkiSHA256"] as? String)?.isEmpty == false)
        #expect((certificates.first?["loadedBy"] as? [String])?.contains("AFNetworking (main bundle)") == true)
        let endpoints = try #require(app["harvestedEndpoints"] as? [[String: Any]])
        #expect(Set(endpoints.compactMap { $0["target"] as? String }) == DemoApp.expectedTargets)
        #expect(endpoints.allSatisfy { ($0["sources"] as? [String])?.isEmpty == false })
    }

    @Test("a .cer that starts like DER but does not parse is app.pins.unreadable")
    func unreadablePin() async throws {
        let ipa = try DemoIPA(pinDER: Data([0x30, 0x82, 0x01, 0x0A] + [UInt8](repeating: 0x42, count: 266)))
        let result = try await Self.app([ipa.path, "--offline", "--format", "json"])
        #expect(result.status == 1)
        #expect(Self.ruleIDs(result).contains("app.pins.unreadable"))
    }

    @Test("--emit-endpoints writes an endpoint list that audit reads back")
    func emitEndpoints() async throws {
        let ipa = try DemoIPA()
        let list = ipa.file("endpoints.txt")
        let result = try await Self.app([
            ipa.path, "--offline", "--emit-endpoints", list, "--report", "sarif=\(ipa.file("app.sarif"))",
        ])
        #expect(result.status == 0)
        let parsed = try EndpointList.load(path: list)
        #expect(parsed.findings.isEmpty)
        #expect(parsed.entries.count == DemoApp.expectedTargets.count)
        #expect(Set(parsed.entries.map(\.target.host)).contains("rsa-kx-only.demo.atscheck.test"))
        #expect(parsed.entries.contains { $0.isHTTP && $0.target.host == "cdn.demo.atscheck.test" })
        #expect(parsed.entries.contains { $0.target.port == 8443 })
        let text = try String(contentsOfFile: list, encoding: .utf8)
        #expect(text.contains("# from \(ipa.path)/Payload/Demo.app/Demo@0x"))
        #expect(FileManager.default.fileExists(atPath: ipa.file("app.sarif")))
    }

    @Test("a truncated archive exits 65 with FILE: reason and writes nothing")
    func hostile() async throws {
        let ipa = try DemoIPA()
        let data = try Data(contentsOf: URL(fileURLWithPath: ipa.path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: ipa.path))
        let list = ipa.file("endpoints.txt")
        let result = try await Self.app([ipa.path, "--offline", "--emit-endpoints", list])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("atscheck: \(ipa.path): "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: list))
    }

    @Test("--offline with a live-only option is a usage error (64); --help describes the live checks")
    func offlineWithLiveOptions() async throws {
        let ipa = try DemoIPA()
        for option in [
            ["--endpoints", ipa.file("list.txt")], ["--full"], ["--library", "afnetworking"],
            ["--mode", "certificate"],
        ] {
            let result = try await Self.app([ipa.path, "--offline"] + option)
            #expect(result.status == 64, "\(option)")
            #expect(result.stderr.contains("need the live checks: drop --offline"), "\(result.stderr)")
        }
        let help = try await Self.app(["--help"])
        #expect(!help.stdout.contains("not built yet"))
        #expect(help.stdout.contains("--emit-endpoints"))
        #expect(help.stdout.contains("--endpoints"))
        #expect(help.stdout.contains("for each OS era"))
    }

    @Test("an .app folder with TrustKit and NSPinnedDomains in its plist and a PEM .cer without a certificate")
    func appFolderPinConfiguration() async throws {
        let ipa = try DemoIPA()
        let app = ipa.folder.appendingPathComponent("Pinned.app")
        let pin = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.acme.pinned", "CFBundleShortVersionString": "3.1",
            "CFBundleExecutable": "Pinned",
            "MinimumOSVersion": "14.0",
            "TSKConfiguration": ["TSKSwizzleNetworkDelegates": false],
            "NSAppTransportSecurity": [
                "NSPinnedDomains": ["api.acme.test": ["NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": pin]]]]
            ],
        ]
        try BundleTree(files: [
            "Info.plist": BundleTree.xmlPlist(info),
            "Pinned": Data(
                MachOWriter.executable(sections: [.cstrings(["https://api.acme.test/v2", "AFSecurityPolicy"])])),
            "broken.cer": Data("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8),
        ]).write(to: app)
        let result = try await Self.app([app.path, "--offline", "--format", "json"])
        #expect(result.status == 1)
        let ids = Self.ruleIDs(result)
        #expect(ids.contains("pins.trustkit.config-rejected"))
        #expect(ids.contains("app.trustkit.not-linked"))
        #expect(ids.contains("pins.material.pem-in-cer"))
        #expect(ids.contains("app.pins.unreadable"))
        let findings = (result.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        let rejected = findings.first { $0["rule"] as? String == "pins.trustkit.config-rejected" }
        #expect(rejected?["file"] as? String == app.path + "/Info.plist")
        #expect((rejected?["line"] as? Int ?? 0) > 0)
        let facts = try #require((result.json as? [String: Any])?["app"] as? [String: Any])
        #expect(facts["container"] as? String == "app")
        #expect(facts["trustKit"] != nil)
        let pinned = (facts["pinnedDomains"] as? [String: Any])?["domains"] as? [String: Any]
        #expect(pinned?["api.acme.test"] != nil)
        #expect((facts["libraries"] as? [[String: Any]])?.first?["linkage"] as? String == "static")
        #expect(
            (facts["harvestedEndpoints"] as? [[String: Any]])?.compactMap { $0["target"] as? String } == [
                "https://api.acme.test"
            ])
    }

    @Test(
        "every report format carries the bundle's findings",
        arguments: ["sarif", "junit", "markdown", "github", "codeclimate"])
    func formats(_ format: String) async throws {
        let ipa = try DemoIPA()
        let result = try await Self.app([ipa.path, "--offline", "--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("app.library.linked"))
        #expect(result.stdout.contains("plist.review.justification"))
    }
}
