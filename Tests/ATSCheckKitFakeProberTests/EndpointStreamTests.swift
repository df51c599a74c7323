import ATSCheckKit
import Foundation
import Synchronization
import Testing
import TLSModel

@Suite("Streaming endpoint results (scan --format jsonl)")
struct EndpointStreamTests {
    @Test("every endpoint is handed on once as it finishes, and the lines equal the report's endpoints as a set")
    func streamEqualsReport() async throws {
        var list = try EndpointList.parse(text: ShardingTests.listText, file: "endpoints.txt")
        list.entries[1].resolve = "127.0.0.9"
        let targets = try ["t0.test", "t0.test:443", "down.test", "http://t3.test/"].map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: FakeProber(statuses: ["down.test": .timeout]))
        let streamed = Mutex<[EndpointResult]>([])
        let report = await pipeline.scan(targets, lists: [list], shard: nil, judge: PolicyJudge(), onEndpoint: { endpoint in
            streamed.withLock { $0.append(endpoint) }
        })
        #expect(report.shard == nil)
        let encoder = ShardingTests.encoder()
        encoder.outputFormatting = [.sortedKeys]
        func lines(_ endpoints: [EndpointResult]) throws -> [String] {
            try endpoints.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.sorted()
        }
        let got = streamed.withLock { $0 }
        #expect(got.count == report.endpoints.count)
        #expect(try lines(got) == lines(report.endpoints))
        for line in try lines(got) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["ats"] != nil && object?["host"] != nil)
            #expect(!line.contains("\n"))
        }
    }
}
