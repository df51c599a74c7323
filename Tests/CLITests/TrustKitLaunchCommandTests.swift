import AppBundleFixtures
import Foundation
import TLSTestSupport
import Testing

/// A TrustKit configuration TrustKit refuses crashes the app at launch: `pins check`, `audit` and `app` exit 65 with
/// one line (file, line, domain, reason, what TrustKit does) and judge nothing.
@Suite("TrustKit refusals exit 65 (CLI)", .serialized)
struct TrustKitLaunchCommandTests {
    static let consequence = "TrustKit raises at launch: the app would crash"
    static let pin = "YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI="
    static let backup = "EBXX9BOlOq+wYH7NbtxqeMIavcUBkow53QKlwqIbw+M="

    /// A private folder, removed when released.
    final class Folder {
        let path = TestScratch.file("atscheck-cli-tk-launch")
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        @discardableResult
        func write(_ name: String, _ text: String) throws -> String {
            let file = path + "/" + name
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return file
        }
    }

    /// An Info.plist whose TSKConfiguration pins `com` with TSKIncludeSubdomains (a public suffix), on line 6.
    static let suffixPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>TSKConfiguration</key><dict>
        <key>TSKPinnedDomains</key><dict>
        <key>com</key><dict>
        <key>TSKIncludeSubdomains</key><true/>
        <key>TSKPublicKeyHashes</key><array><string>\(pin)</string><string>\(backup)</string></array>
        </dict></dict></dict>
        <key>NSAppTransportSecurity</key><dict>
        <key>NSPinnedDomains</key><dict>
        <key>api.example.com</key><dict>
        <key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(pin)</string></dict></array>
        </dict></dict></dict>
        </dict></plist>
        """

    /// A pin set with one enforcing pin for api.example.com (no backup), the entry on line 3.
    static let oneP = """
        {
          "domains": {
            "api.example.com": { "pins": ["\(pin)"] }
          }
        }
        """

    /// Checks the one-line error: exit 65, `FILE:LINE: DOMAIN: …REASON…: TrustKit raises…`, nothing on stdout.
    static func expectRefused(
        _ result: CLI.Result, file: String, line: Int, domain: String, reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 65, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        let text = lines.first.map(String.init) ?? ""
        #expect(text.hasPrefix("atscheck: \(file):\(line): \(domain): "), "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains(reason), "\(text)", sourceLocation: sourceLocation)
        #expect(text.hasSuffix(consequence), "\(text)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("pins check --library trustkit: a pin set without a backup pin exits 65 before connecting")
    func pinsCheckPinSet() throws {
        let folder = try Folder()
        let pins = try folder.write("api.json", Self.oneP)
        let closed = try ClosedPort()
        let result = try CLI.run([
            "pins", "check", "api.example.com:\(closed.port)", "--resolve", "api.example.com:\(closed.port):127.0.0.1",
            "--pins", pins, "--library", "trustkit", "--timeout", "1",
        ])
        Self.expectRefused(
            result, file: pins, line: 3, domain: "api.example.com",
            reason: "pins has 1 distinct pin; TrustKit requires 2 while enforce is YES")
        // Another library does not load the pin set: it runs (and cannot connect: 2).
        let other = try CLI.run([
            "pins", "check", "api.example.com:\(closed.port)", "--resolve", "api.example.com:\(closed.port):127.0.0.1",
            "--pins", pins, "--library", "nspinneddomains", "--timeout", "1",
        ])
        #expect(other.status == 2, "\(other.stderr)")
    }

    @Test("pins check: an Info.plist's TSKConfiguration TrustKit refuses exits 65 whatever the library")
    func pinsCheckInfoPlist() throws {
        let folder = try Folder()
        let plist = try folder.write("Info.plist", Self.suffixPlist)
        for library in ["trustkit", "nspinneddomains"] {
            let result = try CLI.run([
                "pins", "check", "127.0.0.1:1", "--pins", plist, "--library", library, "--timeout", "1",
            ])
            Self.expectRefused(
                result, file: plist, line: 6, domain: "com", reason: "TSKIncludeSubdomains is YES on a public suffix")
        }
    }

    @Test("cert: a TrustKit pin set or an Info.plist TrustKit refuses exits 65, with --pins or --plist")
    func certRefused() throws {
        let folder = try Folder()
        let pki = try TestPKI.make(name: "tk launch cert")
        let chain = try folder.write(
            "chain.pem", TestCertificate.pemBundle([try pki.leaf(.leaf("api.example.com")), pki.intermediate]))
        let pins = try folder.write("api.json", Self.oneP)
        Self.expectRefused(
            try CLI.run(["cert", chain, "--host", "api.example.com", "--pins", pins]), file: pins, line: 3,
            domain: "api.example.com", reason: "pins has 1 distinct pin; TrustKit requires 2 while enforce is YES")
        // Another library does not load the pin set as TrustKit: the chain is judged, and TrustKit's refusal is not
        // its finding.
        let other = try CLI.run([
            "cert", chain, "--host", "api.example.com", "--pins", pins, "--library", "nspinneddomains",
        ])
        #expect(other.status == 1, "\(other.stderr)")
        #expect(!other.stdout.contains("pins.trustkit.config-rejected") && other.stdout.contains("[pins.rejected]"))
        let plist = try folder.write("Info.plist", Self.suffixPlist)
        Self.expectRefused(
            try CLI.run(["cert", chain, "--host", "api.example.com", "--plist", plist]), file: plist, line: 6,
            domain: "com", reason: "TSKIncludeSubdomains is YES on a public suffix")
    }

    @Test("audit: an entry's TrustKit pin set, or the plist's TSKConfiguration, TrustKit refuses exits 65 unscanned")
    func audit() throws {
        let folder = try Folder()
        let closed = try ClosedPort()
        try folder.write("api.json", Self.oneP)
        let plain = try folder.write("Plain.plist", "<plist version=\"1.0\"><dict/></plist>")
        // Were the entry scanned, the closed port would end the run in 2.
        let endpoints = try folder.write(
            "endpoints.yaml",
            """
            endpoints:
              - url: https://api.example.com:\(closed.port)
                resolve: 127.0.0.1
                pins: api.json
                library: trustkit
            """)
        let entry = try CLI.run(["audit", "--plist", plain, "--endpoints", endpoints, "--timeout", "1"])
        Self.expectRefused(
            entry, file: folder.path + "/api.json", line: 3, domain: "api.example.com",
            reason: "pins has 1 distinct pin; TrustKit requires 2 while enforce is YES (a backup pin)")
        let suffix = try folder.write("Info.plist", Self.suffixPlist)
        let list = try folder.write("list.txt", "https://api.example.com:\(closed.port)\n")
        let plist = try CLI.run([
            "audit", "--plist", suffix, "--endpoints", list, "--resolve", "api.example.com:\(closed.port):127.0.0.1",
            "--timeout", "1", "--format", "json",
        ])
        Self.expectRefused(
            plist, file: suffix, line: 6, domain: "com", reason: "TSKIncludeSubdomains is YES on a public suffix")
    }

    /// An `.app` whose Info.plist holds `tsk` as TSKConfiguration, with TrustKit linked statically or not.
    static func app(in folder: Folder, tsk: [String: Any], linked: Bool) throws -> String {
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.acme.tk", "CFBundleShortVersionString": "1.0", "CFBundleExecutable": "TK",
            "MinimumOSVersion": "15.0", "TSKConfiguration": tsk,
        ]
        let app = URL(fileURLWithPath: folder.path).appendingPathComponent(linked ? "Linked.app" : "Unlinked.app")
        try BundleTree(files: [
            "Info.plist": BundleTree.xmlPlist(info),
            "TK": Data(
                MachOWriter.executable(sections: [
                    .cstrings(["https://api.example.com/v1"] + (linked ? ["TSKPinningValidator"] : []))
                ])),
        ]).write(to: app)
        return app.path
    }

    @Test("app: a bundle linking TrustKit whose TSKConfiguration TrustKit refuses exits 65, offline and live")
    func app() async throws {
        let folder = try Folder()
        let tsk: [String: Any] = [
            "TSKPinnedDomains": ["staging.acme.test": ["TSKPublicKeyHashes": [Self.pin, Self.backup]]]
        ]
        let linked = try Self.app(in: folder, tsk: tsk, linked: true)
        let plist = linked + "/Info.plist"
        let offline = try await CLI.offPool { try CLI.run(["app", linked, "--offline"]) }
        let reason = "'.test' is not a top-level domain in TrustKit's bundled public suffix list"
        Self.expectRefused(
            offline, file: plist, line: try Self.line(of: "staging.acme.test", in: plist),
            domain: "staging.acme.test", reason: reason)
        // Live: refused before any endpoint is probed (the closed port would end the run in 2).
        let closed = try ClosedPort()
        let list = try folder.write("list.txt", "https://api.example.com:\(closed.port)\n")
        let live = try await CLI.offPool {
            try CLI.run([
                "app", linked, "--endpoints", list, "--resolve", "api.example.com:\(closed.port):127.0.0.1",
                "--timeout", "1",
            ])
        }
        Self.expectRefused(
            live, file: plist, line: try Self.line(of: "staging.acme.test", in: plist),
            domain: "staging.acme.test", reason: reason)
        // Without TrustKit nothing reads the dictionary: the refusal is a finding (exit 1), not a crash.
        let unlinked = try Self.app(in: folder, tsk: tsk, linked: false)
        let findings = try await CLI.offPool { try CLI.run(["app", unlinked, "--offline", "--format", "json"]) }
        #expect(findings.status == 1, "\(findings.stderr)")
        let rules = ((findings.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []).compactMap {
            $0["rule"] as? String
        }
        #expect(rules.contains("pins.trustkit.config-rejected"))
        #expect(rules.contains("app.trustkit.not-linked"))
    }

    /// The 1-based line of the first line of `file` containing `needle`.
    static func line(of needle: String, in file: String) throws -> Int {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let index = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }
        return try #require(index) + 1
    }
}
