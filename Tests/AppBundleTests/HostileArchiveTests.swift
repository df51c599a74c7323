import AppBundle
import AppBundleFixtures
import Foundation
import Testing
import ZIPFoundation

@Suite("Hostile archives are refused with a reason")
struct HostileArchiveTests {
    /// A valid app plus the given raw entries, zipped with ZIPFoundation (which writes whatever path it is given).
    static func zip(_ extra: [(path: String, data: Data, type: Entry.EntryType)], at url: URL, app: Bool = true) throws
    {
        let archive = try Archive(url: url, accessMode: .create)
        var entries = extra
        if app {
            let tree = Fixtures.app().prefixed("Payload/A.app")
            entries = tree.files.sorted { $0.key < $1.key }.map { ($0.key, $0.value, Entry.EntryType.file) } + extra
        }
        for entry in entries {
            let data = entry.data
            try archive.addEntry(
                with: entry.path, type: entry.type, uncompressedSize: Int64(data.count),
                compressionMethod: entry.type == .file ? .deflate : .none,
                provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
        }
    }

    static func refusal(_ extra: [(path: String, data: Data, type: Entry.EntryType)], limits: ArchiveLimits = .default)
        throws -> AppBundleError
    {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("A.ipa")
        try zip(extra, at: url)
        do {
            _ = try AppBundle.open(path: url.path, limits: limits)
        } catch let error as AppBundleError {
            #expect(error.description.hasPrefix(url.path + ": "))
            return error
        }
        Issue.record("the archive was accepted")
        return AppBundleError(.unreadable, file: "", reason: "")
    }

    @Test("a bomb by ratio: 8 MB of zeros in one entry")
    func ratio() throws {
        let error = try Self.refusal([("Payload/A.app/big.json", Data(count: 8 << 20), .file)])
        #expect(error.code == .compressionRatio)
        #expect(error.reason.contains("Payload/A.app/big.json"))
        #expect(error.reason.contains("more than 200:1"))
    }

    @Test("a bomb by total: many entries each under the ratio cap, over the total")
    func total() throws {
        let chunk = Data((0..<(96 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let entries = (0..<8).map { ("Payload/A.app/part\($0).json", chunk, Entry.EntryType.file) }
        let error = try Self.refusal(entries, limits: ArchiveLimits(maxTotalBytes: 512 << 10))
        #expect(error.code == .totalTooLarge)
        #expect(error.reason.contains("512 KB"))
    }

    @Test("an entry whose header understates its size is caught while inflating")
    func lyingHeader() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("A.ipa")
        let payload = Data(repeating: 0x41, count: 300_000)
        try Self.zip([("Payload/A.app/lie.json", payload, .file)], at: url)
        // Patch the uncompressed size (300000 = 0x000493E0) to 1000 in the local and central headers.
        var bytes = [UInt8](try Data(contentsOf: url))
        let real: [UInt8] = [0xE0, 0x93, 0x04, 0x00]
        var patched = 0
        for i in 0..<(bytes.count - 4) where Array(bytes[i..<i + 4]) == real {
            bytes.replaceSubrange(i..<i + 4, with: [0xE8, 0x03, 0x00, 0x00])
            patched += 1
        }
        #expect(patched == 2)
        try Data(bytes).write(to: url)
        #expect(throws: AppBundleError(.corruptArchive, file: "", reason: "")) { try AppBundle.open(path: url.path) }
    }

    @Test(
        "'../' and absolute entry paths",
        arguments: [
            ("Payload/../../evil.sh", "climbs out"), ("Payload/A.app/..\\..\\evil.sh", "climbs out"),
            ("/etc/evil", "absolute"),
        ])
    func unsafePaths(path: String, words: String) throws {
        let error = try Self.refusal([(path, Data("x".utf8), .file)])
        #expect(error.code == .unsafePath)
        #expect(error.reason.contains(words))
    }

    @Test(
        "symbolic links leaving the archive or the app",
        arguments: [
            ("Payload/A.app/passwd", "/etc/passwd"), ("Payload/A.app/up", "../../../outside"),
            ("Payload/A.app/sibling", "../Other.txt"),
        ])
    func escapingLinks(link: String, target: String) throws {
        let error = try Self.refusal([(link, Data(target.utf8), .symlink)])
        #expect(error.code == .symlinkEscape)
        #expect(error.reason.contains(link))
    }

    @Test("a link inside the app is fine; one leaving an .app folder is refused")
    func folderLinks() throws {
        let folder = try TemporaryFolder()
        var tree = Fixtures.app()
        tree.symlinks["Alias.plist"] = "Info.plist"
        try tree.write(to: folder.url.appendingPathComponent("Good.app"))
        #expect(try AppBundle.open(path: folder.path("Good.app")).files.isFile("Alias.plist"))
        tree.symlinks["secrets"] = "../../etc"
        try tree.write(to: folder.url.appendingPathComponent("Bad.app"))
        #expect(throws: AppBundleError(.symlinkEscape, file: "", reason: "")) {
            try AppBundle.open(path: folder.path("Bad.app"))
        }
    }

    @Test("duplicate entries")
    func duplicates() throws {
        let error = try Self.refusal([("Payload/A.app/Info.plist", Data("x".utf8), .file)])
        #expect(error.code == .duplicateEntry)
        #expect(error.reason == "entry Payload/A.app/Info.plist appears more than once")
    }

    @Test("a truncated archive, and one with corrupt data")
    func truncatedAndCorrupt() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("A.ipa")
        try Self.zip([("Payload/A.app/data.json", Data((0..<20_000).map { UInt8($0 % 251) }), .file)], at: url)
        let whole = try Data(contentsOf: url)
        try whole.prefix(whole.count - 30).write(to: url)
        #expect(throws: AppBundleError(.corruptArchive, file: "", reason: "")) { try AppBundle.open(path: url.path) }
        try whole.prefix(whole.count / 2).write(to: url)
        #expect(throws: AppBundleError(.corruptArchive, file: "", reason: "")) { try AppBundle.open(path: url.path) }
        // Flip bytes inside the deflated data of data.json (the last file entry before the directory).
        var bytes = [UInt8](whole)
        let name = Array("Payload/A.app/data.json".utf8)
        let header = try #require((0..<bytes.count - name.count).first { Array(bytes[$0..<$0 + name.count]) == name })
        for i in (header + name.count + 40)..<(header + name.count + 60) { bytes[i] ^= 0xFF }
        try Data(bytes).write(to: url)
        #expect(throws: AppBundleError(.corruptArchive, file: "", reason: "")) { try AppBundle.open(path: url.path) }
    }

    @Test("too many entries, refused from the directory's count before any is read")
    func tooMany() throws {
        let entries = (0..<20).map { ("Payload/A.app/f\($0).txt", Data("x".utf8), Entry.EntryType.file) }
        let error = try Self.refusal(entries, limits: ArchiveLimits(maxEntries: 10))
        #expect(error.code == .tooManyEntries)
        #expect(error.reason.contains("more than the limit of 10"))
    }

    @Test("not a zip, no app, a missing path")
    func notABundle() throws {
        let folder = try TemporaryFolder()
        let junk = folder.url.appendingPathComponent("junk.ipa")
        try Data("not a zip".utf8).write(to: junk)
        #expect(throws: AppBundleError(.corruptArchive, file: "", reason: "")) { try AppBundle.open(path: junk.path) }
        let empty = folder.url.appendingPathComponent("empty.ipa")
        try Self.zip([("readme.txt", Data("x".utf8), .file)], at: empty, app: false)
        #expect(throws: AppBundleError(.notABundle, file: "", reason: "")) { try AppBundle.open(path: empty.path) }
        #expect(throws: AppBundleError(.unreadable, file: "", reason: "")) {
            try AppBundle.open(path: folder.path("nothing.ipa"))
        }
        let noPlist = folder.url.appendingPathComponent("NoPlist.app")
        try FileManager.default.createDirectory(at: noPlist, withIntermediateDirectories: true)
        #expect(throws: AppBundleError(.infoPlist, file: "", reason: "")) { try AppBundle.open(path: noPlist.path) }
    }
}
