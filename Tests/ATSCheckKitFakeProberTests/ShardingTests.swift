import ATSCheckKit
import Foundation
import Judging
import TLSModel
import Testing

@Suite("--shard I/N and atscheck merge")
struct ShardingTests {
    static let names = (0..<1_000).map { "host\($0).example.test" }

    @Test("I/N parses only with 1 ≤ I ≤ N")
    func parsing() throws {
        #expect(try Shard(parsing: "2/4") == Shard(index: 2, count: 4))
        #expect(try Shard(parsing: "1/1").count == 1)
        for bad in ["0/3", "4/3", "1/0", "-1/2", "a/b", "1", "1/2/3", "", "/2"] {
            #expect(throws: ShardError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test("every endpoint is in exactly one shard, the same whatever the order of the list")
    func stableUnderShuffling() throws {
        let targets = try Self.names.map { try Target(parsing: $0) }
        let shards = try (1...4).map { try Shard(index: $0, count: 4) }
        func split(_ list: [Target]) -> [Set<String>] {
            shards.map { shard in Set(list.filter { shard.contains($0) }.map(\.hostPort)) }
        }
        let ordered = split(targets)
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<3 { #expect(split(targets.shuffled(using: &generator)) == ordered) }
        for target in targets {
            #expect(ordered.filter { $0.contains(target.hostPort) }.count == 1)
        }
        // Roughly even: 250 each expected; FNV + mix keeps every shard within ±20 %.
        #expect(ordered.allSatisfy { (200...300).contains($0.count) }, "\(ordered.map(\.count))")
    }

    @Test("the identity is the normalised scheme://host:port plus resolve and sni")
    func identity() throws {
        let a = try Target(parsing: "API.Example.test")
        let b = try Target(parsing: "https://api.example.test:443/path")
        #expect(Shard.identity(of: a) == Shard.identity(of: b))
        #expect(Shard.identity(of: a) == "https://api.example.test:443")
        #expect(Shard.identity(of: a, resolve: "10.0.0.1") != Shard.identity(of: a))
        #expect(Shard.identity(of: a, sni: "x.test") == "https://api.example.test:443 sni=x.test")
        #expect(
            Shard.shardIndex(of: "https://api.example.test:443", count: 7)
                == Shard.shardIndex(of: "https://api.example.test:443", count: 7))
    }

    static let listText = """
        # a list with a bad line, an http entry, resolve and sni
        e0.test
        e1.test:8443
        not a target at all
        http://plain.test/
        https://e2.test
        e3.test
        e4.test
        e5.test
        """

    @Test("three shards merged give the single run's JSON, byte for byte modulo timings")
    func mergeEqualsSingleRun() async throws {
        var list = try EndpointList.parse(text: Self.listText, file: "endpoints.txt")
        list.entries[1].resolve = "127.0.0.9"
        list.entries[3].sni = "other.test"
        let targets = try ["t0.test", "t1.test", "down.test", "t2.test:444", "http://t3.test/"].map {
            try Target(parsing: $0)
        }
        let pipeline = ScanPipeline(prober: FakeProber(statuses: ["down.test": .timeout, "e4.test": .unreachable]))
        let single = await pipeline.scan(targets, lists: [list], judge: PolicyJudge())
        var shardReports: [ScanReport] = []
        for index in 1...3 {
            let report = await pipeline.scan(
                targets, lists: [list], shard: try Shard(index: index, count: 3), judge: PolicyJudge())
            #expect(report.shard?.total == targets.count + list.entries.count)
            #expect(report.shard?.positions.count == report.endpoints.count)
            // Round-trip through JSON as `scan --format json` and `merge` do.
            shardReports.append(try Self.decoder().decode(ScanReport.self, from: try Self.encoder().encode(report)))
        }
        #expect(shardReports.map(\.endpoints.count).reduce(0, +) == single.endpoints.count)
        #expect(shardReports.filter { !$0.endpoints.isEmpty }.count >= 2)
        let merged = try ReportMerge.merge(shardReports.reversed())
        #expect(merged.shard == nil)
        #expect(try Self.timeless(merged) == Self.timeless(single))
        #expect(merged.summary == single.summary)
        #expect(ExitStatus.of(merged) == ExitStatus.of(single))
        #expect(merged.findings.filter { $0.rule.rawValue == "endpoints.invalid" }.count == 1)
    }

    @Test("an interrupted shard leaves the merged report partial, with every shard's endpoints not scanned")
    func mergeKeepsPartial() async throws {
        let targets = try Self.names.prefix(12).map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: FakeProber(statuses: [:]))
        var reports: [ScanReport] = []
        for index in 1...2 {
            reports.append(
                await pipeline.scan(targets, lists: [], shard: try Shard(index: index, count: 2), judge: PolicyJudge()))
        }
        #expect(try ReportMerge.merge(reports).partial == nil)
        reports[1].partial = PartialScan(signal: "SIGTERM", notScanned: 3, graceSeconds: 2)
        let merged = try ReportMerge.merge(reports)
        #expect(merged.partial == PartialScan(signal: "SIGTERM", notScanned: 3, graceSeconds: 2))
    }

    @Test("merge refuses a missing, doubled or foreign shard")
    func mergeRefuses() async throws {
        let targets = try Self.names.prefix(20).map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: FakeProber(statuses: [:]))
        var reports: [ScanReport] = []
        for index in 1...3 {
            reports.append(
                await pipeline.scan(targets, lists: [], shard: try Shard(index: index, count: 3), judge: PolicyJudge()))
        }
        #expect(throws: MergeError("shard 2/3 missing; given: report 1 (1/3), report 2 (3/3)")) {
            try ReportMerge.merge([reports[0], reports[2]])
        }
        #expect(throws: MergeError("a.json and b.json are both shard 1/3")) {
            try ReportMerge.merge([reports[0], reports[0], reports[1]], names: ["a.json", "b.json", "c.json"])
        }
        let whole = await pipeline.scan(targets, lists: [], judge: PolicyJudge())
        #expect(throws: MergeError.self) { try ReportMerge.merge([whole, reports[0]]) }
        #expect(throws: MergeError.self) { try ReportMerge.merge([]) }
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        return decoder
    }

    /// The report's JSON text with the values of `scannedAt`, `durationSeconds` and `verifiedAt` blanked.
    static func timeless(_ report: ScanReport) throws -> String {
        let text = String(decoding: try encoder().encode(report), as: UTF8.self)
        let pattern = try NSRegularExpression(
            pattern: #"("(scannedAt|durationSeconds|verifiedAt)" : )("[^"]*"|[0-9.eE+-]+)"#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1T")
    }
}

/// A deterministic generator for shuffles (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
