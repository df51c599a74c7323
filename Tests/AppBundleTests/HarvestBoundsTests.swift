import AppBundle
import AppBundleFixtures
import Foundation
import Testing

/// What a hostile executable costs the harvest: each byte scanned at most once, every offset checked without
/// overflow, endpoints merged in O(1) and capped. Asserted by counts (bytes scanned, endpoints kept and left out,
/// places kept and counted), never by time.
@Suite("Harvest bounds: hostile executables")
struct HarvestBoundsTests {
    /// An `.app` folder whose executable is `executable`, opened.
    static func open(executable: [UInt8], in folder: TemporaryFolder) throws -> AppBundleContents {
        var tree = Fixtures.app()
        tree.files["App"] = Data(executable)
        let app = folder.url.appendingPathComponent("A.app")
        try tree.write(to: app)
        return try AppBundle.open(path: app.path)
    }

    /// NUL-terminated URLs `https://hN.acme.com/x`, N from 0.
    static func urls(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { (index: Int) -> [UInt8] in Array("https://h\(index).acme.com/x".utf8) + [0] }
    }

    @Test(
        "issue 25 row 3: a section whose offset + size overflows (or only passes the end) is a malformed Mach-O",
        arguments: [(UInt32(1), UInt64.max), (UInt32(0), UInt64(1) << 63), (UInt32(200), UInt64(4096))])
    func sectionOutsideTheFile(offset: UInt32, size: UInt64) throws {
        let folder = try TemporaryFolder()
        let bytes = MachOWriter.executable(
            sectionTable: [MachOWriter.SectionHeader(offset: offset, size: size)],
            body: [UInt8](repeating: 0, count: 64))
        #expect(throws: AppBundleError(.corruptExecutable, file: "", reason: "")) {
            try Self.open(executable: bytes, in: folder)
        }
        do { _ = try Self.open(executable: bytes, in: folder) } catch let error as AppBundleError {
            #expect(error.description.hasPrefix(folder.path("A.app") + ": App: malformed Mach-O: "))
            #expect(error.reason.contains("section __TEXT,__cstring (\(size) bytes at offset \(offset)) lies outside"))
        }
    }

    @Test("issue 25 row 5: 1,000 overlapping __cstring sections over one region scan it once")
    func overlappingSections() throws {
        let body = Self.urls(2000)
        let start = MachOWriter.bodyOffset(sectionCount: 1000)
        // The same range 998 times, plus two halves that overlap each other and it.
        var table = (0..<998).map { _ in MachOWriter.SectionHeader(offset: UInt32(start), size: UInt64(body.count)) }
        table.append(MachOWriter.SectionHeader(offset: UInt32(start), size: UInt64(body.count / 2 + 100)))
        table.append(MachOWriter.SectionHeader(offset: UInt32(start + body.count / 2), size: UInt64(body.count / 2)))
        let folder = try TemporaryFolder()
        let bundle = try Self.open(executable: MachOWriter.executable(sectionTable: table, body: body), in: folder)
        let harvest = EndpointHarvester.harvest(bundle)
        // The Info.plist is binary (parsed, not scanned): the bytes scanned are the region, once.
        #expect(harvest.scannedBytes == body.count)
        #expect(harvest.endpoints.count == 2000)
        #expect(harvest.endpoints.allSatisfy { $0.sources.count == 1 && $0.moreSources == 0 })
        #expect(harvest.notShown == 0)
    }

    @Test("issue 25 row 6: one URL repeated 100,000 times is one endpoint: 20 places kept, the rest counted")
    func repeatedURL() throws {
        let one = Array("https://api.acme.com/v1".utf8) + [0]
        let bytes = MachOWriter.executable(
            sections: [
                MachOWriter.Section(
                    segment: "__TEXT", name: "__cstring", bytes: Array((0..<100_000).map { _ in one }.joined()),
                    type: 0x2)
            ])
        let folder = try TemporaryFolder()
        let harvest = EndpointHarvester.harvest(try Self.open(executable: bytes, in: folder))
        let endpoint = try #require(harvest.endpoints.first)
        #expect(harvest.endpoints.count == 1)
        #expect(endpoint.sources.count == HarvestLimits.default.maxSourcesPerEndpoint)
        #expect(endpoint.moreSources == 100_000 - HarvestLimits.default.maxSourcesPerEndpoint)
        #expect(endpoint.sourceCount == 100_000)
        // Kept in order: the first places found.
        #expect(endpoint.sources.compactMap(\.offset) == endpoint.sources.compactMap(\.offset).sorted())
        let text = EndpointListWriter.text(harvest.endpoints, input: "A.app")
        #expect(text.contains("# … and 99997 more\nhttps://api.acme.com\n"))
    }

    @Test("issue 25 row 7: 30,000 distinct URLs keep the first 10,000 and count the other 20,000")
    func distinctURLs() throws {
        let bytes = MachOWriter.executable(sections: [.cstrings((0..<30_000).map { "https://h\($0).acme.com/x" })])
        let folder = try TemporaryFolder()
        let bundle = try Self.open(executable: bytes, in: folder)
        let harvest = EndpointHarvester.harvest(bundle)
        #expect(harvest.endpoints.count == HarvestLimits.default.maxEndpoints)
        #expect(harvest.notShown == 20_000)
        #expect(!harvest.notShownIsLowerBound)
        // The first found are the ones kept.
        #expect(Set(harvest.endpoints.map(\.host)) == Set((0..<10_000).map { "h\($0).acme.com" }))
        let list = EndpointListWriter.text(harvest.endpoints, input: "A.app", notShown: harvest.notShown)
        #expect(list.contains("# 20000 more endpoint(s) were found and left out: the harvest keeps the first ones"))
    }

    @Test("past the cap, a bare name whose URL is kept still joins it; repeats of one left out count once")
    func capEdges() throws {
        let strings = [
            "https://kept.acme.com/a", "https://other.acme.com/b", "https://left.acme.com/c",
            "https://left.acme.com/d", "kept.acme.com", "left.acme.com",
        ]
        let folder = try TemporaryFolder()
        let bundle = try Self.open(executable: MachOWriter.executable(sections: [.cstrings(strings)]), in: folder)
        let harvest = EndpointHarvester.harvest(bundle, limits: HarvestLimits(maxEndpoints: 2))
        #expect(harvest.endpoints.map(\.target) == ["https://kept.acme.com", "https://other.acme.com"])
        #expect(harvest.endpoints.first?.sources.count == 2)
        // left.acme.com as a URL and as a bare name: two endpoints left out.
        #expect(harvest.notShown == 2)
    }
}
