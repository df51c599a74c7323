import Foundation
import Testing

@Suite("scan --shard, atscheck merge and --format jsonl (CLI)")
struct ShardMergeCommandTests {
    /// `http://` endpoints are judged without a connection: the runs need no server.
    static let list = (0..<12).map { "http://h\($0).test/" }.joined(separator: "\n") + "\nnot a target here\n"

    static func timeless(_ text: String) throws -> String {
        let pattern = try NSRegularExpression(
            pattern: #"("(scannedAt|durationSeconds|verifiedAt)" : )("[^"]*"|[0-9.eE+-]+)"#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1T")
    }

    @Test("three shards merged equal the single run's JSON modulo timings, with the same exit status")
    func mergeEqualsSingleRun() async throws {
        let file = try CLI.temporaryFile(Self.list)
        let whole = try await CLI.offPool { try CLI.run(["scan", "--targets", file, "--format", "json"]) }
        let paths = (1...3).map { file + ".shard\($0).json" }
        for (index, path) in zip(1...3, paths) {
            let run = try await CLI.offPool {
                try CLI.run(["scan", "--targets", file, "--shard", "\(index)/3", "--format", "json", "--output", path])
            }
            #expect(run.status == whole.status)
        }
        let merged = try await CLI.offPool { try CLI.run(["merge", paths[2], paths[0], paths[1], "--format", "json"]) }
        #expect(merged.status == whole.status)
        #expect(try Self.timeless(merged.stdout) == Self.timeless(whole.stdout))
        let missing = try await CLI.offPool { try CLI.run(["merge", paths[0], paths[1]]) }
        #expect(missing.status == 65)
        let bad = try await CLI.offPool { try CLI.run(["scan", "--targets", file, "--shard", "4/3"]) }
        #expect(bad.status == 64)
        let text = try await CLI.offPool { try CLI.run(["scan", "--targets", file, "--shard", "1/3"]) }
        #expect(text.stdout.hasPrefix("shard 1/3: "))
        #expect(text.stdout.contains(" of 12 endpoints"))
    }

    @Test("--format jsonl: every line parses, endpoints then one summary line, the set of the JSON report's")
    func jsonLines() async throws {
        let file = try CLI.temporaryFile(Self.list)
        let lines = try await CLI.offPool { try CLI.run(["scan", "--targets", file, "--format", "jsonl"]) }
        let json = try await CLI.offPool { try CLI.run(["scan", "--targets", file, "--format", "json"]) }
        let objects = try lines.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let endpoints = try #require(report["endpoints"] as? [[String: Any]])
        #expect(objects.count == endpoints.count + 1)
        #expect(objects.last?["summary"] != nil && objects.last?["findings"] != nil)
        func targets(_ list: [[String: Any]]) -> [String] { list.compactMap { $0["target"] as? String }.sorted() }
        #expect(targets(Array(objects.dropLast())) == targets(endpoints))
        #expect(lines.status == json.status)
    }
}
