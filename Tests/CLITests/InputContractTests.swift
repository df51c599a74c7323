import Foundation
import TLSTestSupport
import Testing

/// Malformed and hostile input files through the real binary: exit 65 with `FILE:LINE: reason` (or
/// `FILE: reason` where the format has no lines), never a signal, never `:0:` (issue 8).
@Suite("atscheck input contract (CLI)", .serialized)
struct InputContractTests {
    static func file(_ bytes: [UInt8], suffix: String) throws -> String {
        let path = TestScratch.file("atscheck-input", suffix: suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func text(_ text: String, suffix: String) throws -> String { try file(Array(text.utf8), suffix: suffix) }

    static let goodPlist = "<plist><dict><key>NSAppTransportSecurity</key><dict/></dict></plist>\n"

    @Test("one byte that is not UTF-8 in a plist comment: read, no signal, for plist and for --plist")
    func invalidUTF8InComment() throws {
        let bytes =
            Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<!-- bad ".utf8) + [
                0xFF
            ]
            + Array(
                (" "
                    + "-->\n<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSAllowArbitraryLoads</key>\n<true/>\n</dict>\n</dict>\n</plist>\n")
                    .utf8)
        let plist = try Self.file(bytes, suffix: ".plist")
        let lint = try CLI.run(["plist", plist, "--format", "json"])
        #expect(lint.status == 1, "\(lint.stderr)")  // the misspelled key is an error finding, on its line
        let findings = try #require((lint.json as? [String: Any])?["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["rule"] as? String == "plist.key.misspelled" && $0["line"] as? Int == 7 })
        let endpoints = try Self.text("# nothing to scan\n", suffix: ".txt")
        let audit = try CLI.run(["audit", "--plist", plist, "--endpoints", endpoints, "--format", "json"])
        #expect([0, 1].contains(audit.status), "\(audit.status): \(audit.stderr)")
    }

    /// (command arguments with FILE as a placeholder, file bytes, suffix, expected line or nil)
    static let malformed: [(String, [String], String, String, Int?)] = [
        (
            "plist: Foundation's 'on line N'", ["plist", "FILE"],
            "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>a</key>\n<string>x</dict>\n</plist>\n", ".plist", 5
        ),
        (
            "plist: corrupt binary", ["plist", "FILE"], "bplist00" + String(repeating: "\u{7F}", count: 40), ".plist",
            nil
        ),
        ("plist: unexpected end", ["plist", "FILE"], "<plist><dict><key>a</key><true/>\n\n", ".plist", 2),
        (
            "endpoints JSON: around character N", ["audit", "--plist", "PLIST", "--endpoints", "FILE"],
            "{\"endpoints\": [\n\"127.0.0.1:1\",\n}\n", ".json", 3
        ),
        (
            "endpoints JSON: unexpected end", ["audit", "--plist", "PLIST", "--endpoints", "FILE"],
            "{\"endpoints\": [\n\"127.0.0.1:1\"\n", ".json", 2
        ),
        (
            "endpoints YAML", ["audit", "--plist", "PLIST", "--endpoints", "FILE"],
            "endpoints:\n  - 127.0.0.1:1\n  - [b\n", ".yml", 4
        ),
        (
            "endpoints text: not UTF-8", ["audit", "--plist", "PLIST", "--endpoints", "FILE"],
            "127.0.0.1:1\n\u{FFFF}BAD\n", ".txt", 2
        ),
        (
            "baseline YAML", ["audit", "--plist", "PLIST", "--endpoints", "EMPTY", "--baseline", "FILE"],
            "waivers:\n - rule: [\n", ".yml", 3
        ),
        (
            "baseline JSON", ["audit", "--plist", "PLIST", "--endpoints", "EMPTY", "--baseline", "FILE"],
            "{\"waivers\":\n [1,\n", ".json", 2
        ),
        (
            "--ca-file: bad base64", ["scan", "127.0.0.1:1", "--ca-file", "FILE"],
            "# root\n-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----\n", ".pem", 2
        ),
        (
            "--ca-file: no certificate", ["scan", "127.0.0.1:1", "--ca-file", "FILE"], "not a certificate\n", ".pem",
            nil
        ),
        (
            "audit --ca-file: no END line", ["audit", "--plist", "PLIST", "--endpoints", "EMPTY", "--ca-file", "FILE"],
            "-----BEGIN CERTIFICATE-----\nAAAA\n", ".pem", 1
        ),
    ]

    @Test("malformed input exits 65 with FILE:LINE: reason, or FILE: reason", arguments: malformed)
    func malformedInput(name: String, arguments: [String], contents: String, suffix: String, line: Int?) throws {
        var bytes = Array(contents.utf8)
        if name.contains(
            "not "
                + "UTF-8")
        {
            bytes = bytes.map { $0 == 0xEF ? 0xFF : $0 }
        }  // make the first byte of U+FFFF invalid
        let path = try Self.file(bytes, suffix: suffix)
        let plist = try Self.text(Self.goodPlist, suffix: ".plist")
        let empty = try Self.text("# none\n", suffix: ".txt")
        let args = arguments.map { $0 == "FILE" ? path : $0 == "PLIST" ? plist : $0 == "EMPTY" ? empty : $0 }
        let result = try CLI.run(args + ["--format", "json"])
        #expect(result.status == 65, "\(name): \(result.status) \(result.stderr)")
        let expected = line.map { "atscheck: \(path):\($0): " } ?? "atscheck: \(path): "
        #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
        #expect(!result.stderr.contains(":0:"), "\(name): \(result.stderr)")
    }

    @Test("a text endpoint list starting with [::1]:443 is a text list, not JSON")
    func bracketedIPv6FirstLine() throws {
        let plist = try Self.text(Self.goodPlist, suffix: ".plist")
        let list = try Self.text("[::1]:1\n127.0.0.1:1\n", suffix: "")
        let result = try CLI.run([
            "audit", "--plist", plist, "--endpoints", list, "--timeout", "0.2", "--format", "json",
        ])
        #expect(result.status == 2, "\(result.stderr)")  // both refused: scanned, not rejected as malformed JSON
        #expect(!result.stderr.contains("malformed"))
    }

    @Test("a plist over the size limit exits 65 with FILE: larger than 8 MB limit")
    func plistTooLarge() throws {
        let big =
            "<plist><dict><key>a</key><string>" + String(repeating: "x", count: 9 << 20) + "</string></dict></plist>\n"
        let path = try Self.text(big, suffix: ".plist")
        let result = try CLI.run(["plist", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(path): larger than 8 MB limit"), "\(result.stderr)")
    }
}
