import ATSCheckKit
import Foundation
import Judging
import Synchronization
import TLSModel
import Testing

@Suite("Streaming endpoint results (scan --format jsonl)")
struct EndpointStreamTests {
    @Test("every endpoint is handed on once as it finishes, and the lines equal the report's endpoints as a set")
    func streamEqualsReport() async throws {
        var list = try EndpointList.parse(text: ShardingTests.listText, file: "endpoints.txt")
        list.entries[1].resolve = "127.0.0.9"
        let targets = try ["t0.test", "t0.test:443", "down.test", "http://t3.test/"].map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: FakeProber(statuses: ["down.test": .timeout]))
        let streamed = Mutex<[EndpointResult]>([])
        let report = await pipeline.scan(
            targets, lists: [list], shard: nil, judge: PolicyJudge(),
            onEndpoint: { endpoint in
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

    @Test("a profile whose address the scan filled in (no --resolve) is still handed on: matched by its request")
    func resolvedAddressStillStreamed() async throws {
        let list = try EndpointList.parse(text: "a.test\nb.test:8443\nhttps://c.test/x\n", file: "endpoints.txt")
        let targets = try ["d.test", "a.test"].map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: ResolvingProber())
        let streamed = Mutex<[EndpointResult]>([])
        let report = await pipeline.scan(
            targets, lists: [list], shard: nil, judge: PolicyJudge(),
            onEndpoint: { endpoint in
                streamed.withLock { $0.append(endpoint) }
            })
        let got = streamed.withLock { $0 }
        #expect(report.endpoints.count == 5)
        #expect(got.count == report.endpoints.count)
        #expect(got.map(\.profile.target).sorted() == report.endpoints.map(\.profile.target).sorted())
        #expect(got.allSatisfy { $0.profile.address == "127.0.0.1" })
    }
}

extension EndpointStreamTests {
    @Test("streamOnly: the lines carry the DER, the report kept for the summary does not, and judges alike")
    func streamOnlyDropsDER() async throws {
        let targets = try ["a.test", "b.test:8443", "http://c.test/"].map { try Target(parsing: $0) }
        let pipeline = ScanPipeline(prober: DERProber())
        let streamed = Mutex<[EndpointResult]>([])
        let slim = await pipeline.scan(
            targets, lists: [], shard: nil, judge: PolicyJudge(),
            onEndpoint: { endpoint in
                streamed.withLock { $0.append(endpoint) }
            }, streamOnly: true)
        let full = await pipeline.scan(targets, lists: [], shard: nil, judge: PolicyJudge(), onEndpoint: { _ in })
        let lines = streamed.withLock { $0 }.filter { $0.profile.certificate != nil }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.profile.certificate?.chain.first?.der == DERProber.der })
        let kept = slim.endpoints.compactMap(\.profile.certificate)
        #expect(kept.count == 2)
        #expect(kept.allSatisfy { $0.chain.allSatisfy(\.der.isEmpty) && $0.verifiedChain.allSatisfy(\.der.isEmpty) })
        #expect(full.endpoints.compactMap(\.profile.certificate).allSatisfy { $0.chain.first?.der == DERProber.der })
        #expect(slim.endpoints.map(\.ats) == full.endpoints.map(\.ats))
        #expect(slim.summary == full.summary)
        #expect(slim.findings == full.findings)
    }
}

/// Answers with a completed TLS 1.2 profile whose chain carries DER bytes.
struct DERProber: EndpointProber {
    static let der = Data(repeating: 0x30, count: 512)

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        var profile = await TableProber(table: [:]).scan(request)
        if var certificate = profile.certificate {
            certificate.chain = certificate.chain.map {
                var c = $0; c.der = Self.der; return c
            }
            certificate.verifiedChain = certificate.verifiedChain.map {
                var c = $0; c.der = Self.der; return c
            }
            profile.certificate = certificate
        }
        return profile
    }
}

/// Like the OpenSSL prober: the profile's address is the one it connected to, even when none was planned.
struct ResolvingProber: EndpointProber {
    func scan(_ request: ProbeRequest) async -> ServerProfile {
        ServerProfile(
            target: request.target.hostPort, host: request.target.host, port: request.target.port,
            address: request.connectAddress ?? "127.0.0.1", sni: request.effectiveSNI, status: .completed,
            handshakes: 1)
    }
}
