import Foundation
import Testing

/// `plist --explain` agrees with the linter on keys that never match and lists only the app's OS eras (issue 11).
@Suite("atscheck plist --explain (CLI)", .serialized)
struct ExplainCLITests {
    static func plist(_ top: String, _ ats: String) throws -> String {
        try CLI.temporaryFile(
            """
            <plist version="1.0"><dict>\(top)<key>NSAppTransportSecurity</key><dict>\(ats)</dict></dict></plist>
            """, suffix: ".plist")
    }

    static let wildcard = """
        <key>NSExceptionDomains</key><dict><key>*.acme.test</key><dict>
        <key>NSExceptionAllowsInsecureHTTPLoads</key><true/><key>NSIncludesSubdomains</key><true/></dict></dict>
        """

    @Test("a *.acme.test key: the linter says it never matches, and --explain shows it as never matching")
    func neverMatches() throws {
        let file = try Self.plist("", Self.wildcard)
        let lint = try CLI.run(["plist", file, "--format", "json"])
        #expect(
            (lint.json as? [String: Any]).flatMap { $0["findings"] as? [[String: Any]] }?
                .contains { $0["rule"] as? String == "plist.domain.wildcard" } == true)
        let json = try CLI.run(["plist", file, "--explain", "--format", "json"])
        let hosts = try #require(
            (json.json as? [String: Any])?["hosts"] as? [[String: Any]], "\(json.stdout.prefix(300))")
        let key = try #require(hosts.first { $0["pattern"] as? String == "*.acme.test" })
        #expect(key["kind"] as? String == "never-matches")
        #expect((key["eras"] as? [Any])?.isEmpty == true)
        #expect((key["neverMatches"] as? String)?.contains("never matches") == true)
        #expect(
            !hosts.contains {
                ($0["pattern"] as? String)?.hasPrefix("*.*.acme") == true
                    || ($0["pattern"] as? String) == "*.*.acme.test"
            })
        let text = try CLI.run(["plist", file, "--explain"])
        let section = try #require(text.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("*.acme.test") })
        #expect(section.contains("never matches a host"))
        #expect(!section.contains("ATS off") && !section.contains("HTTP allowed"))
    }

    @Test(
        "eras start at MinimumOSVersion / LSMinimumSystemVersion / --deployment-target and end at --os-version",
        arguments: [
            ("<key>MinimumOSVersion</key><string>15.0</string>", [String](), ["15–16", "17+"]),
            ("<key>LSMinimumSystemVersion</key><string>12.0</string>", [], ["15–16", "17+"]),
            ("", [], ["9", "10–16", "17+"]),
            ("<key>MinimumOSVersion</key><string>15.0</string>", ["--os-version", "16"], ["15–16"]),
            ("", ["--deployment-target", "12"], ["12–16", "17+"]),
        ])
    func eras(_ top: String, _ extra: [String], _ expected: [String]) throws {
        let file = try Self.plist(top, "")
        let json = try CLI.run(["plist", file, "--explain", "--format", "json"] + extra)
        let hosts = try #require((json.json as? [String: Any])?["hosts"] as? [[String: Any]], "\(json.stderr)")
        let eras = (hosts.first?["eras"] as? [[String: Any]])?.compactMap { $0["era"] as? String }
        #expect(eras == expected)
        if !top.isEmpty {
            let text = try CLI.run(["plist", file, "--explain"] + extra)
            #expect(!text.stdout.contains("  iOS 9\n"))
        }
    }

    @Test("--explain writes text or json only")
    func explainFormats() throws {
        let file = try Self.plist("", "")
        #expect(try CLI.run(["plist", file, "--explain", "--format", "sarif"]).status == 64)
    }
}
