import AppBundle
import AppBundleFixtures
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The zip reader against archives written field by field (`RawZip`): every offset and size the archive states is
/// checked against the file before it is used, and what a legal archive holds is read right.
@Suite("Zip directory: offsets and sizes checked against the file")
struct ZipDirectoryTests {
    /// Writes bytes as `A.ipa` and opens it.
    static func open(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> AppBundleContents {
        let path = folder.path("A.ipa")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try AppBundle.open(path: path)
    }

    /// The refusal of bytes as `A.ipa`: its code and reason, after checking the one-line `FILE: reason` shape.
    static func refusal(_ bytes: [UInt8]) throws -> AppBundleError {
        let folder = try TemporaryFolder()
        do {
            _ = try open(bytes, in: folder)
        } catch let error as AppBundleError {
            #expect(error.description.hasPrefix(folder.path("A.ipa") + ": "))
            #expect(!error.description.contains("\n"))
            return error
        }
        Issue.record("the archive was accepted")
        return AppBundleError(.unreadable, file: "", reason: "")
    }

    static var app: RawZip { RawZip(Fixtures.app().prefixed("Payload/A.app")) }

    @Test("issue 25 row 1: a 400-byte archive whose ZIP64 locator points at 2^63 + 5")
    func locatorPastTheFile() throws {
        let locator = RawZip.zip64Locator(recordOffset: (1 << 63) + 5)
        let end = RawZip.endRecord(entries: 0xFFFF, directorySize: 0xFFFF_FFFF, directoryOffset: 0xFFFF_FFFF)
        let bytes = [UInt8](repeating: 0, count: 400 - locator.count - end.count) + locator + end
        #expect(bytes.count == 400)
        let error = try Self.refusal(bytes)
        #expect(error.code == .corruptArchive)
        #expect(error.reason.contains("ZIP64 end-of-central-directory locator"))
        #expect(error.reason.contains("9223372036854775813"))
    }

    @Test(
        "issue 25 row 2: a ZIP64 end record whose directory offset or size is 2^63 or more",
        arguments: [((1 as UInt64) << 63 + 1, 46), (0, .max), (.max, .max)] as [(UInt64, UInt64)])
    func directoryPastTheFile(offset: UInt64, size: UInt64) throws {
        let padding = [UInt8](repeating: 0, count: 100)
        let record = RawZip.zip64EndRecord(entries: 1, directorySize: size, directoryOffset: offset)
        let bytes =
            padding + record + RawZip.zip64Locator(recordOffset: UInt64(padding.count))
            + RawZip.endRecord(entries: 0xFFFF, directorySize: 0xFFFF_FFFF, directoryOffset: 0xFFFF_FFFF)
        let error = try Self.refusal(bytes)
        #expect(error.code == .corruptArchive)
        #expect(error.reason.contains("central directory (\(size) bytes at offset \(offset)) lies outside"))
    }

    @Test("a ZIP64 locator whose record is not there, and more declared entries than the directory's bytes hold")
    func inconsistentEndRecords() throws {
        let padding = [UInt8](repeating: 0, count: 100)
        let noRecord =
            padding + RawZip.zip64Locator(recordOffset: 10)
            + RawZip.endRecord(entries: 0xFFFF, directorySize: 0xFFFF_FFFF, directoryOffset: 0xFFFF_FFFF)
        #expect(try Self.refusal(noRecord).reason.contains("corrupt ZIP64 end-of-central-directory record"))
        // 1,000 entries declared in a 46-byte directory: refused before reading or reserving anything for them.
        let many = padding + RawZip.endRecord(entries: 1000, directorySize: 46, directoryOffset: 10)
        #expect(try Self.refusal(many).reason.contains("declares 1000 entries, more than its 46 bytes can hold"))
    }

    @Test("an entry whose local header offset (ZIP64 or not) lies past the directory")
    func localHeaderPastTheData() throws {
        var bytes = Self.app.bytes()
        // The first directory entry's local header offset (46-byte header: offset field at 42) set past the file.
        let directory = try #require(Self.firstDirectoryEntry(bytes))
        bytes.replaceSubrange(directory + 42..<directory + 46, with: [0xF0, 0xFF, 0xFF, 0x7F])
        let error = try Self.refusal(bytes)
        #expect(error.code == .corruptArchive)
        #expect(error.reason.contains("lies outside the archive's data"))
    }

    @Test("a legal ZIP64 archive reads the same as the plain one")
    func zip64Archive() throws {
        let folder = try TemporaryFolder()
        let plain = try Self.open(Self.app.bytes(), in: folder)
        let other = try TemporaryFolder()
        let zip64 = try Self.open(Self.app.bytes(zip64: true), in: other)
        #expect(zip64.info == plain.info)
        #expect(zip64.files.entries == plain.files.entries)
        #expect(
            EndpointHarvester.harvest(zip64).endpoints.map(\.target)
                == EndpointHarvester.harvest(plain).endpoints.map(\.target))
    }

    @Test("issue 25 row 11: a deflated symbolic link is inflated and followed like a stored one")
    func deflatedLink() throws {
        var tree = Fixtures.app(strings: ["https://linked.acme.com/v1"])
        // The executable lives in bin/, reached through a link named as CFBundleExecutable says.
        tree.files["bin/App"] = tree.files.removeValue(forKey: "App")
        tree.symlinks["App"] = "bin/App"
        tree.symlinks["Alias.plist"] = "Info.plist"
        for deflate in [false, true] {
            let folder = try TemporaryFolder()
            let bundle = try Self.open(
                RawZip(tree.prefixed("Payload/A.app"), deflateLinks: deflate).bytes(), in: folder)
            #expect(bundle.files.entries["Payload/A.app/App"] == .symlink(target: "Payload/A.app/bin/App"))
            #expect(bundle.files.isFile("Payload/A.app/Alias.plist"))
            #expect(bundle.executables == ["Payload/A.app/bin/App"])
            let harvest = EndpointHarvester.harvest(bundle)
            #expect(harvest.endpoints.map(\.target) == ["https://linked.acme.com"], "deflate: \(deflate)")
        }
        // The deflated target really is stored compressed (method 8), not as the raw text.
        let link = RawZip(entries: [.symlink("Payload/A.app/App", to: "bin/App", deflate: true)]).bytes()
        #expect(!Self.contains(link, Array("bin/App".utf8)))
    }

    @Test("a FIFO given as the .ipa is refused at once (opened without blocking, checked with fstat)")
    func fifo() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("A.ipa")
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: AppBundleError(.unreadable, file: "", reason: "")) { try AppBundle.open(path: path) }
        do { _ = try AppBundle.open(path: path) } catch let error as AppBundleError {
            #expect(error.reason.contains("not a regular file"))
        }
    }

    @Test("a file of an .app folder replaced by a FIFO is refused, not waited on")
    func fifoInFolder() throws {
        let folder = try TemporaryFolder()
        try Fixtures.app(extra: ["config.json": Data("{}".utf8)]).write(to: folder.url.appendingPathComponent("A.app"))
        let json = folder.path("A.app/config.json")
        try FileManager.default.removeItem(atPath: json)
        #expect(mkfifo(json, 0o600) == 0)
        // Listed as neither file nor folder: left out, never opened.
        let bundle = try AppBundle.open(path: folder.path("A.app"))
        #expect(bundle.files.entries["config.json"] == nil)
    }

    static func firstDirectoryEntry(_ bytes: [UInt8]) -> Int? {
        (0..<bytes.count - 4).first { bytes[$0..<$0 + 4] == [0x50, 0x4B, 0x01, 0x02] }
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }
}
