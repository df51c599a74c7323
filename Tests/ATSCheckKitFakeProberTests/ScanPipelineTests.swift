import ATSCheckKit
import Foundation
import Judging
import TLSModel
import Testing

/// A resolver that answers from a table after a pause, and records how many look-ups ran at once.
final class FakeResolver: AddressResolver {
    let gauge = ConcurrencyGauge()
    let answers: [String: [String]]
    let pause: Duration

    init(_ answers: [String: [String]], pause: Duration = .milliseconds(100)) {
        self.answers = answers
        self.pause = pause
    }

    func addresses(of host: String, port: Int, timeout: Double) async throws -> [String] {
        await gauge.enter()
        // Not cancellable on purpose: a resolver that overstays must not hold the plan.
        await Task.detached { [pause] in try? await Task.sleep(for: pause) }.value
        await gauge.leave()
        guard let list = answers[host] else { throw ProbeFailure(.unreachable, "cannot resolve \(host)") }
        return list
    }
}

@Suite("The scan pipeline with fake probers and resolvers")
struct ScanPipelineTests {
    /// A whole second: saved JSON keeps dates to the second.
    static let savedAt = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("--all-addresses looks every name up at once and keeps target and resolver order")
    func concurrentLookups() async throws {
        let names = (0..<6).map { "n\($0).test" }
        let resolver = FakeResolver(
            Dictionary(
                uniqueKeysWithValues: names.enumerated().map { index, name in
                    (name, ["10.0.\(index).1", "10.0.\(index).2"])
                }))
        var settings = ScanSettings()
        settings.allAddresses = true
        // This test is about concurrency and order, not the look-up deadline (the next test is): a long timeout
        // keeps a test process whose cooperative threads are busy with other tests from falling back.
        settings.timeout = 120
        let targets = try names.map { try Target(parsing: $0) } + [try Target(parsing: "10.9.9.9")]
        let plan = await ScanPipeline(settings: settings, prober: CountingProber(), resolver: resolver).plan(targets)
        #expect(plan.map(\.target.host) == names.flatMap { [$0, $0] } + ["10.9.9.9"])
        #expect(plan.map(\.request.connectAddress) == (0..<6).flatMap { ["10.0.\($0).1", "10.0.\($0).2"] } + [nil])
        #expect(plan.allSatisfy { $0.request.effectiveSNI == ($0.target.isIPLiteral ? nil : $0.target.host) })
        #expect(await resolver.gauge.peak == names.count)
    }

    @Test("a look-up that outlives the timeout falls back to one endpoint, and the plan does not wait for it")
    func lookupDeadline() async throws {
        let resolver = FakeResolver(["slow.test": ["10.0.0.1"], "slower.test": ["10.0.0.2"]], pause: .seconds(30))
        var settings = ScanSettings()
        settings.allAddresses = true
        settings.timeout = 0.3
        let plan = await ScanPlanner.plan(
            try ["slow.test", "slower.test"].map { try Target(parsing: $0) },
            settings: settings, resolver: resolver)
        // Both look-ups started, and neither has answered: the plan went on without them.
        #expect(await resolver.gauge.peak == 2)
        #expect(await resolver.gauge.current == 2)
        #expect(plan.map(\.target.host) == ["slow.test", "slower.test"])
        #expect(plan.allSatisfy { $0.request.connectAddress == nil })
    }

    @Test("scan judges every profile: unscanned endpoints are unknown, http:// ones are not probed")
    func scanJudges() async throws {
        let prober = FakeProber(statuses: ["down.test": .timeout])
        let targets = try ["up.test", "down.test", "http://plain.test/"].map { try Target(parsing: $0) }
        let report = await ScanPipeline(prober: prober).scan(targets, judge: PolicyJudge())
        #expect(report.endpoints.map(\.profile.host) == ["up.test", "down.test", "plain.test"])
        #expect(report.endpoints[1].ats.verdict == .unknown)
        #expect(report.endpoints[2].profile.scheme == "http")
        #expect(report.endpoints[2].ats.verdict == .fail)  // ATS refuses cleartext by default
        #expect(report.profiles == report.endpoints.map(\.profile))
        #expect(await prober.gauge.peak >= 1)
        #expect(ExitStatus.of(report) == .policyFailure)
    }

    @Test("saved profiles round-trip; unreadable, malformed and empty files are input errors with one line")
    func profileFiles() throws {
        let dir = NSTemporaryDirectory() + "atscheck-pipeline-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = dir + "/saved.json"
        let profile = ServerProfile(
            target: "a.test:443", host: "a.test", port: 443, status: .timeout, error: "slow",
            scannedAt: Self.savedAt)
        try ProfileFile.save([profile], to: saved)
        #expect(try ProfileFile.load([saved, saved]) == [profile, profile])

        let missing = dir + "/none.json"
        #expect(throws: InputFileError.self) { try ProfileFile.load(missing) }
        let missingError = try #require(throws: InputFileError.self) { try ProfileFile.load(missing) }
        #expect(missingError.description == "\(missing): no such file")
        let malformed = dir + "/bad.json"
        try "{ \"not\": \"a profile\" }".write(toFile: malformed, atomically: true, encoding: .utf8)
        let malformedError = try #require(throws: InputFileError.self) { try ProfileFile.load(malformed) }
        #expect(malformedError.description.hasPrefix("\(malformed): not a saved profile: "))
        let broken = dir + "/broken.json"
        try "[\n{\"target\": \"a.test:443\",\n}\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let brokenError = try #require(throws: InputFileError.self) { try ProfileFile.load(broken) }
        #expect(brokenError.line == 3, "\(brokenError)")
        #expect(brokenError.description.hasPrefix("\(broken):3: malformed JSON"))
        let empty = dir + "/empty.json"
        try "[]".write(toFile: empty, atomically: true, encoding: .utf8)
        let target = try Target(parsing: "a.test")
        do { _ = try ScanPipeline.diagnose(target, url: "a.test", savedProfile: empty) } catch let error
            as InputFileError
        {
            #expect(error.description == "\(empty) holds no profile")
        }
        #expect(throws: OutputFileError.self) { try ProfileFile.save([profile], to: dir + "/no/such/dir/p.json") }
    }

    @Test("diagnose from a saved profile picks the target's host and port and reports why it cannot judge")
    func diagnoseSaved() throws {
        let path = NSTemporaryDirectory() + "atscheck-diagnose-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let other = ServerProfile(
            target: "b.test:443", host: "b.test", port: 443, status: .completed, scannedAt: Self.savedAt)
        let mine = ServerProfile(
            target: "a.test:8443", host: "a.test", port: 8443, status: .unreachable, error: "refused",
            scannedAt: Self.savedAt)
        try ProfileFile.save([other, mine], to: path)
        let diagnosis = try ScanPipeline.diagnose(
            try Target(parsing: "a.test:8443"), url: "https://a.test:8443/", savedProfile: path)
        #expect(diagnosis.profile == mine)
        #expect(diagnosis.exitStatus == .incomplete)
        #expect(diagnosis.exitReason == "a.test:8443 could not be scanned: refused")
        #expect(diagnosis.report.tests.count >= 13)
    }
}
