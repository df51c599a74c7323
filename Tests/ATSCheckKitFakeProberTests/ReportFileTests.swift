import Foundation
import Judging
import TLSModel
import Testing

@testable import ATSCheckKit

/// The `merge` reader (issue 25, row 12): the skim finds every value's end and count in constant memory, and a report
/// read piece by piece is the report `JSONDecoder` reads whole.
@Suite("JSONSkim and ReportFile")
struct ReportFileTests {
    /// Runs `body` over the skim of `text` (with the NUL the skim needs after it).
    static func skim<T>(_ text: String, _ body: (JSONSkim) throws -> T) rethrows -> T {
        var bytes = Array(text.utf8)
        bytes.append(0)
        return try bytes.withUnsafeBytes { try body(JSONSkim(terminated: $0)) }
    }

    /// (JSON, where the first value ends, how many values it holds: values, nested values and keys)
    static let valid: [(String, Int, Int)] = [
        (#"{"a":[1,2,{"b":null}]}"#, 22, 8),
        ("  [ ]  ", 5, 1),
        (#""a\"b\\""#, 8, 1),
        ("-12.5e+3,", 8, 1),
        (#"{"k" : "}\"{" , "l":[[],{}]}"#, 28, 7),
        ("true]", 4, 1),
    ]

    @Test("a value's end and count", arguments: valid)
    func spans(_ text: String, _ end: Int, _ values: Int) throws {
        let span = try Self.skim(text) { try $0.value(at: 0) }
        #expect(span.end == end)
        #expect(span.values == values)
        #expect(try Self.skim(text) { try $0.skip(at: 0) } == end)
    }

    /// (JSON, the offset of the failure)
    static let malformed: [(String, Int)] = [
        (#"{"a" 1}"#, 5),
        ("[1,]", 3),
        (#"{"a":"x}"#, 5),
        ("[1 2]", 3),
        ("{1:2}", 1),
        ("", 0),
        ("[", 1),
        (#"{"a":1"#, 6),
        ("[@]", 1),
    ]

    @Test("structure that is not JSON fails where it goes wrong", arguments: malformed)
    func failures(_ text: String, _ offset: Int) {
        #expect(throws: JSONSkim.Failure.self) { try Self.skim(text) { try $0.value(at: 0) } }
        let failure = Self.skim(text) { skim -> JSONSkim.Failure? in
            do {
                _ = try skim.value(at: 0)
                return nil
            } catch let error as JSONSkim.Failure { return error } catch { return nil }
        }
        #expect(failure?.offset == offset, "\(failure.map(\.reason) ?? "")")
    }

    @Test("nesting past 512 levels fails; a limit stops the walk at the first value past it")
    func limits() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSkim.Failure.self) { try Self.skim(deep) { try $0.value(at: 0) } }
        #expect(throws: JSONSkim.Failure.self) { try Self.skim(deep) { try $0.skip(at: 0) } }
        let list = "[" + Array(repeating: "1", count: 100).joined(separator: ",") + "]"
        #expect(try Self.skim(list) { try $0.value(at: 0, limit: 101) }.values == 101)
        #expect(throws: JSONSkim.Failure(offset: 0, reason: JSONSkim.Failure.tooManyValues)) {
            try Self.skim(list) { try $0.value(at: 0, limit: 100) }
        }
        #expect(throws: JSONSkim.Failure.self) { try Self.skim("[1,2}") { try $0.skip(at: 0) } }
    }

    @Test("a sharded report read piece by piece equals the report decoded whole, compact or pretty")
    func sameAsDecoder() async throws {
        let targets = try ShardingTests.names.prefix(30).map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: FakeProber(statuses: ["host3.example.test": .timeout]))
        var report = await pipeline.scan(
            targets, lists: [], shard: try Shard(index: 2, count: 3), judge: PolicyJudge())
        #expect(report.shard != nil && !report.endpoints.isEmpty)
        // The trust data the run judged with is read too (a merge keeps it).
        report.trustData = TrustDataInfo(
            ctLogList: TrustDataSource(
                source: .updated, name: "Apple's CT log list", version: "901", date: "2026-11-20",
                location: "https://valid.apple.com/ct/log_list/current_log_list.json",
                fetchedAt: Date(timeIntervalSince1970: 1_800_000_000), sha256: "ab"))
        // So is the marker of an interrupted shard (issue 34).
        report.partial = PartialScan(signal: "SIGINT", notScanned: 2, graceSeconds: 2)
        for pretty in [true, false] {
            let encoder = ShardingTests.encoder()
            if !pretty { encoder.outputFormatting = [] }
            let data = try encoder.encode(report)
            let whole = try ShardingTests.decoder().decode(ScanReport.self, from: data)
            let file = try ReportFile.parse(data, file: "shard.json")
            #expect(file.report == whole)
            #expect(file.report.trustData == report.trustData)
            #expect(file.report.partial == report.partial)
            #expect(!file.isAudit && file.inputs == nil)
        }
    }

    @Test("the refusals name the file and the line of the first wrong value")
    func refusals() {
        let cases: [(String, String)] = [
            ("\n\n[1,2]", "x.json:3: not an atscheck scan or audit report (--format json): the top level is an array"),
            (
                "{\"endpoints\": [\n{},\n7]}",
                "x.json:2: not an atscheck scan or audit report (--format json): 'endpoints[0]': missing"
            ),
            (
                "{\"endpoints\": [\n7]}",
                "x.json:2: not an atscheck scan or audit report (--format json): 'endpoints[0]' is a number"
            ),
            (
                "{\"endpoints\": []}",
                "x.json:1: not an atscheck scan or audit report (--format json): no 'findings' key"
            ),
            (
                "{\"a\": 1, \"a\": 2}",
                "x.json:1: not an atscheck scan or audit report (--format json): the key 'a' is given twice"
            ),
            ("{\"a\": 1} x", "x.json:1: malformed JSON: more data after the report"),
            ("{\"a\": [1,\n}", "x.json:2: malformed JSON: "),
        ]
        for (text, prefix) in cases {
            #expect {
                _ = try ReportFile.parse(Data(text.utf8), file: "x.json")
            } throws: { error in
                let description = (error as? InputFileError)?.description ?? "\(error)"
                return description.hasPrefix(prefix)
            }
        }
    }
}
