import AppBundleFixtures
import Foundation
import TLSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 25: the hostile bundles an attacker tried against `atscheck app`, built here byte by byte, through the
/// built binary. Malformed ones exit 65 with one line naming the file and what is wrong (no signal, no hang);
/// legal but extreme ones are read, with the caps said in the output.
@Suite("atscheck app: hostile bundles (issue 25)")
struct AppHostileInputTests {
    final class Folder {
        let url: URL
        init() throws {
            url = URL(fileURLWithPath: TestScratch.file("atscheck-app-hostile"))
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        /// An app tree written as `A.app` or zipped as `A.ipa` (Payload/A.app); its path.
        func write(_ tree: BundleTree, ipa: Bool) throws -> String {
            if ipa {
                try Data(RawZip(tree.prefixed("Payload/A.app")).bytes()).write(to: url.appendingPathComponent("A.ipa"))
                return path("A.ipa")
            }
            try tree.write(to: url.appendingPathComponent("A.app"))
            return path("A.app")
        }
    }

    /// Runs `atscheck app` with text unwrapped (`COLUMNS=1000`), so the tests find a long path on one line.
    static func app(_ arguments: [String]) async throws -> CLI.Result {
        try await CLI.offPool { try CLI.run(["app"] + arguments, environment: ["COLUMNS": "1000"]) }
    }

    /// A tree like the tests' minimal app: a binary Info.plist naming `App`, and `App`.
    static func tree(executable: [UInt8]) -> BundleTree {
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.acme.app", "CFBundleShortVersionString": "1.0", "CFBundleExecutable": "App",
            "MinimumOSVersion": "15.0",
        ]
        return BundleTree(files: ["Info.plist": BundleTree.binaryPlist(info), "App": Data(executable)])
    }

    /// Exit 65, no signal, stdout empty, stderr exactly one line `atscheck: PATH: reason` holding `words`.
    static func expectRefused(_ result: CLI.Result, path: String, _ words: String) {
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("atscheck: \(path): "), "\(result.stderr)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
    }

    @Test("row 1: ZIP64 locator offset ≥ 2^63 in a 400-byte .ipa")
    func row1() async throws {
        let folder = try Folder()
        let locator = RawZip.zip64Locator(recordOffset: (1 << 63) + 5)
        let end = RawZip.endRecord(entries: 0xFFFF, directorySize: 0xFFFF_FFFF, directoryOffset: 0xFFFF_FFFF)
        try Data([UInt8](repeating: 0, count: 400 - 42) + locator + end).write(
            to: folder.url.appendingPathComponent("A.ipa"))
        Self.expectRefused(
            try await Self.app([folder.path("A.ipa"), "--offline"]), path: folder.path("A.ipa"),
            "ZIP64 end-of-central-directory locator")
    }

    @Test("row 2: ZIP64 end record with a central-directory offset ≥ 2^63")
    func row2() async throws {
        let folder = try Folder()
        let padding = [UInt8](repeating: 0, count: 100)
        let bytes =
            padding + RawZip.zip64EndRecord(entries: 1, directorySize: 46, directoryOffset: (1 << 63) + 1)
            + RawZip.zip64Locator(recordOffset: 100)
            + RawZip.endRecord(entries: 0xFFFF, directorySize: 0xFFFF_FFFF, directoryOffset: 0xFFFF_FFFF)
        try Data(bytes).write(to: folder.url.appendingPathComponent("A.ipa"))
        Self.expectRefused(
            try await Self.app([folder.path("A.ipa"), "--offline"]), path: folder.path("A.ipa"),
            "the central directory (46 bytes at offset 9223372036854775809) lies outside")
    }

    @Test("row 3: a Mach-O string section at offset 1 with size 2^64 − 1", arguments: [false, true])
    func row3(ipa: Bool) async throws {
        let folder = try Folder()
        let executable = MachOWriter.executable(
            sectionTable: [MachOWriter.SectionHeader(offset: 1, size: .max)], body: [UInt8](repeating: 0, count: 64))
        let path = try folder.write(Self.tree(executable: executable), ipa: ipa)
        Self.expectRefused(
            try await Self.app([path, "--offline"]), path: path,
            "App: malformed Mach-O: section __TEXT,__cstring (18446744073709551615 bytes at offset 1) lies outside")
    }

    @Test("row 4: a link under itself (Contents -> Contents/x)", arguments: [false, true])
    func row4(ipa: Bool) async throws {
        let folder = try Folder()
        var tree = Self.tree(executable: MachOWriter.executable(sections: [.cstrings(["https://api.acme.com"])]))
        tree.symlinks["Contents"] = "Contents/x"
        let path = try folder.write(tree, ipa: ipa)
        Self.expectRefused(
            try await Self.app([path, "--offline"]), path: path,
            "symbolic link \(ipa ? "Payload/A.app/" : "")Contents loops")
    }

    @Test("an .ipa path that is a FIFO is refused at once, not waited on")
    func fifo() async throws {
        let folder = try Folder()
        #expect(mkfifo(folder.path("A.ipa"), 0o600) == 0)
        Self.expectRefused(
            try await Self.app([folder.path("A.ipa"), "--offline"]), path: folder.path("A.ipa"), "not a regular file")
    }

    @Test("row 11: a deflated symbolic link is followed like a stored one")
    func row11() async throws {
        let folder = try Folder()
        var tree = Self.tree(executable: MachOWriter.executable(sections: [.cstrings(["https://linked.acme.com/v1"])]))
        tree.files["bin/App"] = tree.files.removeValue(forKey: "App")
        tree.symlinks["App"] = "bin/App"
        try Data(RawZip(tree.prefixed("Payload/A.app"), deflateLinks: true).bytes())
            .write(to: folder.url.appendingPathComponent("A.ipa"))
        let result = try await Self.app([folder.path("A.ipa"), "--offline"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("https://linked.acme.com  from \(folder.path("A.ipa"))/Payload/A.app/bin/App@0x"))
    }

    @Test("rows 5–7: overlapping sections, a repeated URL and 30,000 distinct URLs are read, the caps said")
    func caps() async throws {
        let folder = try Folder()
        let urls: [UInt8] = (0..<30_000).flatMap { Array("https://h\($0).acme.com/x".utf8) + [0] }
        let repeated: [UInt8] = (0..<1000).flatMap { _ in Array("https://api.acme.com/v1".utf8) + [0] }
        let body = urls + repeated
        let start = MachOWriter.bodyOffset(sectionCount: 100)
        let table = (0..<100).map { _ in MachOWriter.SectionHeader(offset: UInt32(start), size: UInt64(body.count)) }
        let path = try folder.write(
            Self.tree(executable: MachOWriter.executable(sectionTable: table, body: body)), ipa: false)
        let text = try await Self.app([path, "--offline"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Harvested endpoints (10000)"))
        #expect(
            text.stdout.contains("  … and 20001 more endpoint(s) not shown (the harvest keeps the first ones found)"))
        let json = try await Self.app([path, "--offline", "--format", "json"])
        let app = try #require((json.json as? [String: Any])?["app"] as? [String: Any])
        #expect((app["harvestedEndpoints"] as? [Any])?.count == 10_000)
        #expect(app["harvestedEndpointsNotShown"] as? Int == 20_001)
        #expect(app["harvestedEndpointsNotShownIsLowerBound"] == nil)
    }

    @Test("a URL found more often than the places kept: the JSON says how many more")
    func sourcesNotShown() async throws {
        let folder = try Folder()
        let strings = Array(repeating: "https://api.acme.com/v1", count: 500)
        let path = try folder.write(
            Self.tree(executable: MachOWriter.executable(sections: [.cstrings(strings)])), ipa: true)
        let text = try await Self.app([path, "--offline"])
        #expect(text.stdout.contains("/Payload/A.app/App@0x130 and 497 more"), "\(text.stdout)")
        let json = try await Self.app([path, "--offline", "--format", "json"])
        let app = try #require((json.json as? [String: Any])?["app"] as? [String: Any])
        let endpoint = try #require((app["harvestedEndpoints"] as? [[String: Any]])?.first)
        #expect((endpoint["sources"] as? [Any])?.count == 20)
        #expect(endpoint["sourcesNotShown"] as? Int == 480)
    }
}
