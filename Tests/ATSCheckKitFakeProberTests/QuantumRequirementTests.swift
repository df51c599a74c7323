import ATSCheckKit
import Foundation
import Judging
import Reporting
import TLSModel
import Testing

/// ``TableProber``'s modern endpoints, with Apple clients simulated as the host name says: `pq*` negotiate
/// X25519MLKEM768 with iOS 26, `classic*` x25519, `reset*` drop iOS 26's ClientHello; other hosts simulate nothing.
struct SimulatingProber: EndpointProber {
    func scan(_ request: ProbeRequest) async -> ServerProfile {
        var profile = await TableProber(table: [:]).scan(request)
        let host = request.target.host
        func ios26(_ group: NamedGroup?) -> ClientSimulation {
            guard let group else {
                return ClientSimulation(
                    client: "iOS 26 (URLSession)", profile: "ios26", osVersion: "26", evidence: "exact",
                    outcome: .dropped, failure: "the connection is reset after the first segment of the ClientHello")
            }
            return ClientSimulation(
                client: "iOS 26 (URLSession)", profile: "ios26", osVersion: "26", evidence: "exact",
                outcome: .negotiated, version: .tls1_3, suite: AcceptedCipherSuite(suite: .TLS_AES_256_GCM_SHA384),
                group: AcceptedGroup(group: group), quantumSecure: group.isPostQuantum)
        }
        if host.hasPrefix("pq") { profile.simulations = [ios26(.X25519MLKEM768)] }
        if host.hasPrefix("classic") { profile.simulations = [ios26(.x25519)] }
        if host.hasPrefix("reset") { profile.simulations = [ios26(nil)] }
        return profile
    }
}

/// `--require-pq` through the pipeline (``ScanSettings/requireQuantumSecure``): the whole report, the streamed scan
/// and the audit add the same `required.quantum-secure` findings and fail the same way.
@Suite("--require-pq in the scan and audit pipelines (fake prober)")
struct QuantumRequirementTests {
    static func pipeline(require: Bool) -> ScanPipeline {
        var settings = ScanSettings()
        settings.now = TableProber.now
        settings.requireQuantumSecure = require
        return ScanPipeline(settings: settings, prober: SimulatingProber())
    }

    static let targets = ["pq.test", "classic.test", "reset.test", "plain.test"]

    @Test("scan: an error for the classical endpoint, notes where unknown; exit 1 only with --require-pq")
    func scan() async throws {
        let targets = try Self.targets.map { try Target(parsing: $0) }
        let required = await Self.pipeline(require: true).scan(targets, judge: PolicyJudge())
        let findings = required.findings.filter { $0.rule == RuleID.Required.quantumSecure }
        #expect(findings.map(\.severity) == [.error, .note, .note])
        #expect(findings[0].message.hasPrefix("classic.test:443: iOS 26 connections are not quantum-secure"))
        #expect(findings[1].message.contains("reset.test:443") && findings[2].message.contains("plain.test:443"))
        #expect(ExitStatus.of(required) == .policyFailure)
        let plain = await Self.pipeline(require: false).scan(targets, judge: PolicyJudge())
        #expect(!plain.findings.contains { $0.rule == RuleID.Required.quantumSecure })
        // Without the option only reset.test fails: iOS 26, whose ClientHello is reset, cannot connect, which fails
        // that era's ATS verdict (ats.tls.simulated-handshake-failed); with it, classic.test fails too.
        #expect(ExitStatus.of(plain) == .policyFailure)
        #expect(plain.endpoints.filter { $0.ats.verdict == .fail }.map(\.profile.host) == ["reset.test"])
        #expect(required.endpoints.filter { $0.ats.verdict == .fail }.map(\.profile.host) == ["reset.test"])
        #expect(plain.summary.quantumSecure == 1 && plain.summary.notQuantumSecure == 1)
        #expect(plain.summary.quantumUnknown == 1, "reset.test; plain.test simulated nothing and is not counted")
    }

    @Test("a streamed scan has the same findings, summary and exit status as the whole report")
    func streamed() async throws {
        let targets = try Self.targets.map { try Target(parsing: $0) }
        let list = try EndpointList.parse(text: "classic2.test\npq2.test\n", file: "endpoints.txt")
        let whole = await Self.pipeline(require: true).scan(targets, lists: [list], shard: nil, judge: PolicyJudge())
        let streamed = await Self.pipeline(require: true).scanStreaming(
            targets, lists: [list], shard: nil, judge: PolicyJudge(), onEndpoint: { _ in })
        #expect(streamed.report.findings == whole.findings)
        #expect(streamed.report.summary == whole.summary && whole.summary.quantumSecure == 2)
        #expect(streamed.status == .policyFailure && streamed.status == ExitStatus.of(whole))
        // The list entry's error is at its line.
        let listed = whole.findings.first { $0.rule == RuleID.Required.quantumSecure && $0.file == "endpoints.txt" }
        #expect(listed?.line == 1 && listed?.severity == .error)
    }

    @Test("audit: the error fails the audit (exit 1) with the list line; without the option it passes")
    func audit() async throws {
        let directory = NSTemporaryDirectory() + "atscheck-require-pq-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let list = directory + "/endpoints.txt"
        try "pq.test\nclassic.test\n".write(toFile: list, atomically: true, encoding: .utf8)
        let required = try await Self.pipeline(require: true).audit(
            plistPath: nil, endpointsPath: list, now: TableProber.now)
        let error = try #require(required.report.findings.first { $0.rule == RuleID.Required.quantumSecure })
        #expect(error.severity == .error && error.file == list && error.line == 2)
        #expect(required.exitStatus == .policyFailure)
        #expect(required.exitReason?.contains("[required.quantum-secure]") == true)
        let plain = try await Self.pipeline(require: false).audit(
            plistPath: nil, endpointsPath: list, now: TableProber.now)
        #expect(plain.exitStatus == .success)
    }
}
