import ATSCheckKit
import Foundation
import Judging
import Reporting
import Synchronization
import TLSModel
import Testing

/// A batch for ``StreamedScanTests``: targets, lists, which hosts are down, which fail ATS, the options.
struct StreamedBatch: Sendable, CustomTestStringConvertible {
    var name: String
    var targets: [String]
    var list: String
    var down: Set<String> = []
    var failing: Set<String> = []
    var warnDays: Int?
    var shard: String?
    var testDescription: String { name }

    static let cases: [StreamedBatch] = [
        StreamedBatch(name: "every endpoint passes", targets: ["a.test", "b.test:8443"], list: "c.test\nd.test\n"),
        StreamedBatch(
            name: "seven fail (more than the reason names), two down, http, a bad line, expiry warnings",
            targets: ["f0.test", "ok.test", "down0.test", "http://plain.test/", "f1.test:444"],
            list:
                "# fleet\nf2.test\nnot a "
                + "target\nf3.test\nok2.test\ndown1.test\nf4.test\nf5.test\nf6.test\nhttp://p2.test/\n",
            down: ["down0.test", "down1.test"],
            failing: ["f0.test", "f1.test", "f2.test", "f3.test", "f4.test", "f5.test", "f6.test"],
            warnDays: 90),
        StreamedBatch(
            name: "nothing fails, one down: incomplete", targets: ["a.test", "z.test", "down.test"],
            list: "down2.test\nb.test\n",
            down: ["down.test", "down2.test"]),
        StreamedBatch(
            name: "a shard of a failing batch", targets: (0..<12).map { "h\($0).test" },
            list: "f0.test\nf1.test\nok.test\n",
            down: ["h3.test"], failing: ["h1.test", "h5.test", "f0.test", "f1.test"], warnDays: 90, shard: "1/2"),
    ]
}

/// The fake fleet: TLS 1.0 only for failing hosts, a leaf expiring 60 days after ``TableProber/now``, and fixed
/// dates, so two runs give the same bytes.
struct FleetProber: EndpointProber {
    var batch: StreamedBatch

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        let table = Dictionary(uniqueKeysWithValues: batch.failing.map { ($0, TableProber.tls10) })
        var profile = await TableProber(table: table, down: batch.down).scan(request)
        profile.scannedAt = TableProber.now
        profile.durationSeconds = 0
        try? await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000))  // finish in any order
        return profile
    }
}

@Suite("Streamed scans keep only the summary and the exit status (scan --format jsonl)")
struct StreamedScanTests {
    static func pipeline(_ batch: StreamedBatch) -> ScanPipeline {
        var settings = ScanSettings()
        settings.now = TableProber.now
        settings.expiryWarningDays = batch.warnDays
        settings.concurrency = 4
        return ScanPipeline(settings: settings, prober: FleetProber(batch: batch))
    }

    @Test("the same lines, summary line, exit status and reason as the whole report", arguments: StreamedBatch.cases)
    func sameOutputs(batch: StreamedBatch) async throws {
        let targets = try batch.targets.map { try Target(parsing: $0) }
        let lists = [try EndpointList.parse(text: batch.list, file: "endpoints.txt")]
        let shard = try batch.shard.map { try Shard(parsing: $0) }
        let full = await Self.pipeline(batch).scan(targets, lists: lists, shard: shard, judge: PolicyJudge())
        let lines = Mutex<[String]>([])
        let progressed = Mutex<[ServerProfile]>([])
        let streamed = await Self.pipeline(batch).scanStreaming(
            targets, lists: lists, shard: shard, judge: PolicyJudge(),
            progress: { _, _, profile in progressed.withLock { $0.append(profile) } },
            onEndpoint: { endpoint in lines.withLock { $0.append((try? JSONLinesRendering.line(endpoint)) ?? "") } })

        #expect(streamed.report.endpoints.isEmpty)
        #expect(try JSONLinesRendering.summaryLine(streamed.report) == JSONLinesRendering.summaryLine(full))
        #expect(streamed.report.summary == full.summary)
        #expect(streamed.report.findings == full.findings)
        #expect(streamed.status == Judging.ExitStatus.of(full))
        #expect(streamed.reason == Judging.ExitStatus.reason(for: full))
        #expect(lines.withLock { $0 }.sorted() == (try full.endpoints.map(JSONLinesRendering.line)).sorted())
        // What the batch kept of each probe until the end: no protocols, no certificate.
        let kept = progressed.withLock { $0 }
        #expect(kept.count == full.endpoints.filter { $0.profile.scheme != "http" }.count)
        #expect(kept.allSatisfy { $0.certificate == nil && $0.protocols.isEmpty })
    }

    @Test("the cases cover what the outcome folds: failures past the named five, incomplete runs, warnings")
    func casesCoverTheFold() async throws {
        var statuses: [Judging.ExitStatus] = []
        var warned = false
        for batch in StreamedBatch.cases {
            let targets = try batch.targets.map { try Target(parsing: $0) }
            let lists = [try EndpointList.parse(text: batch.list, file: "endpoints.txt")]
            let streamed = await Self.pipeline(batch).scanStreaming(
                targets, lists: lists, shard: try batch.shard.map { try Shard(parsing: $0) }, judge: PolicyJudge(),
                onEndpoint: { _ in })
            statuses.append(streamed.status)
            warned = warned || streamed.report.findings.contains { $0.rule == RuleID.Trust.expirySoon }
            if batch.failing.count > 5 && batch.shard == nil {
                // Seven TLS 1.0 hosts and two http:// endpoints fail: five are named, in report order.
                #expect(
                    streamed.reason?.hasPrefix(
                        "atscheck: 9 endpoint(s) fail ATS: f0.test:443, plain.test:80, f1.test:444,") == true)
                #expect(streamed.reason?.contains(" and 4 more") == true)
            }
        }
        #expect(Array(statuses.prefix(3)) == [.success, .policyFailure, .incomplete])
        #expect(warned)
    }
}
