import Foundation
import TLSTestSupport
import Testing

/// `--define`, `--build-setting` and `--xcconfig` (issue 32): a source Info.plist read as Xcode builds it, by
/// `plist`, `cert --plist` (and `scan`/`audit --plist`, which share the option group and the reader).
@Suite("reading source Info.plists (CLI)")
struct PlistReadingOptionsTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plist-corpus")
    static func corpusFile(_ name: String) -> String { corpus.appendingPathComponent(name).path }

    static func findings(_ result: CLI.Result) -> [[String: Any]] {
        (result.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
    }

    @Test("a plist with #ifdef around its ATS dictionary: judged per configuration, never exit 65")
    func everyConfiguration() throws {
        let result = try CLI.run(["plist", Self.corpusFile("ifdef-around-ats.plist"), "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let configurations = Set(Self.findings(result).compactMap { $0["configuration"] as? String })
        let name = "OC_ALLOW_INSECURE_CONNECTIONS"
        #expect(configurations == ["\(name) defined", "\(name) not defined"])
        // --define chooses one configuration: the other's findings are gone, and none names a configuration.
        let chosen = try CLI.run([
            "plist", Self.corpusFile("ifdef-around-ats.plist"), "--define", "OC_ALLOW_INSECURE_CONNECTIONS",
            "--format", "json",
        ])
        #expect(chosen.status == 1)
        #expect(Self.findings(chosen).allSatisfy { $0["configuration"] == nil })
        #expect(!Self.findings(chosen).contains { $0["rule"] as? String == "plist.ats.absent" })
        let explain = try CLI.run(["plist", Self.corpusFile("ifdef-around-ats.plist"), "--explain", "--format", "json"])
        let explained = try #require(explain.json as? [[String: Any]], "\(explain.stdout.prefix(200))")
        #expect(explained.compactMap { $0["configuration"] as? String }.count == 2)
    }

    @Test("--xcconfig and --build-setting resolve $(NAME); without them the references ATS reads are warnings")
    func buildSettings() throws {
        let plist = Self.corpusFile("build-setting-domains.plist")
        let bare = try CLI.run(["plist", plist, "--format", "json"])
        #expect(bare.status == 0)
        #expect(Self.findings(bare).contains { $0["rule"] as? String == "plist.source.unresolved-setting" })
        let resolved = try CLI.run([
            "plist", plist, "--xcconfig", Self.corpusFile("build-setting-domains.xcconfig"), "--format", "json",
        ])
        #expect(!Self.findings(resolved).contains { $0["rule"] as? String == "plist.source.unresolved-setting" })
        let explain = try CLI.run([
            "plist", plist, "--explain", "--format", "json", "--build-setting", "API_HOST=api.example.com",
            "--build-setting", "API_MIN_TLS=TLSv1.0", "--build-setting", "IPHONEOS_DEPLOYMENT_TARGET=16.0",
        ])
        let object = try #require(explain.json as? [String: Any], "\(explain.stderr)")
        let hosts = try #require(object["hosts"] as? [[String: Any]])
        #expect(hosts.contains { $0["pattern"] as? String == "api.example.com" })
        #expect(object["lowestOS"] as? String == "16.0")
        #expect(object["lowestOSSource"] as? String == "IPHONEOS_DEPLOYMENT_TARGET")
    }

    @Test(
        "bad reading options: 64 for a bad --define or --build-setting, 65 for an unreadable .xcconfig",
        arguments: [
            (["--define", "9X"], Int32(64), "--define 9X"),
            (["--build-setting", "NOEQUALS"], Int32(64), "--build-setting NOEQUALS"),
            (["--xcconfig", "/nonexistent/Config.xcconfig"], Int32(65), "/nonexistent/Config.xcconfig"),
        ])
    func badOptions(_ extra: [String], _ status: Int32, _ named: String) throws {
        let result = try CLI.run(["plist", Self.corpusFile("onion-subdomains.plist")] + extra)
        #expect(result.status == status)
        #expect(result.stderr.contains(named), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a configuration that cannot build: #error in the one --define chooses is malformed input, at its line")
    func errorDirective() throws {
        let file = try CLI.temporaryFile(
            "<plist version=\"1.0\">\n<dict>\n#ifdef RELEASE\n#error not ready\n#endif\n</dict>\n</plist>\n",
            suffix: ".plist")
        let result = try CLI.run(["plist", file, "--define", "RELEASE"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(file):4: #error not ready"), "\(result.stderr)")
        #expect(try CLI.run(["plist", file]).status == 0, "the configuration without RELEASE builds")
    }

    @Test("cert --plist reads a preprocessed plist too, and names an unreadable .xcconfig")
    func cert() throws {
        let pki = try TestPKI.make(name: "plist reading")
        let leaf = try pki.leaf(.leaf("cert.atscheck.test"))
        let chain = try CLI.temporaryFile(TestCertificate.pemBundle([leaf, pki.intermediate]), suffix: ".pem")
        let root = try CLI.temporaryFile(pki.rootPEM, suffix: ".pem")
        let base = [
            "cert", chain, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", root, "--plist",
            Self.corpusFile("ifdef-around-ats.plist"),
        ]
        let result = try CLI.run(base + ["--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let missing = try CLI.run(base + ["--xcconfig", "/nonexistent/x.xcconfig"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("/nonexistent/x.xcconfig"))
    }
}
