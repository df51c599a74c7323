import ATSCheckKit
import Foundation
import Judging
import TLSModel
import Testing

/// A prober that answers from a table and records how many scans ran at once.
actor ConcurrencyGauge {
    var current = 0
    var peak = 0
    func enter() { current += 1; peak = max(peak, current) }
    func leave() { current -= 1 }
}

struct FakeProber: EndpointProber {
    let gauge = ConcurrencyGauge()
    var statuses: [String: ScanStatus]

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        await gauge.enter()
        try? await Task.sleep(nanoseconds: 20_000_000)
        await gauge.leave()
        let status = statuses[request.target.host] ?? .completed
        return ServerProfile(
            target: request.target.hostPort, host: request.target.host, port: request.target.port,
            address: request.connectAddress, sni: request.effectiveSNI, status: status,
            error: status == .completed ? nil : "fake \(status.rawValue)", handshakes: 1)
    }
}

@Suite("Orchestration with a fake prober")
struct BatchScannerTests {
    @Test("every endpoint is reported, in order, whatever happens to the others")
    func everyEndpointReported() async throws {
        let hosts = (0..<12).map { "h\($0).test" }
        let prober = FakeProber(statuses: ["h3.test": .timeout, "h7.test": .unreachable, "h8.test": .error])
        var settings = ScanSettings()
        settings.concurrency = 4
        let pipeline = ScanPipeline(settings: settings, prober: prober)
        let profiles = await pipeline.probe(try hosts.map { try Target(parsing: $0) })
        #expect(profiles.map(\.host) == hosts)
        #expect(profiles.filter { $0.status == .completed }.count == 9)
        let peak = await prober.gauge.peak
        #expect(peak <= 4)
        #expect(peak >= 2)
    }

    @Test("identical requests are probed once and every endpoint still gets its profile")
    func duplicatesProbedOnce() async throws {
        let prober = CountingProber()
        let targets = try ["https://a.test/x", "https://a.test/y", "b.test", "a.test:443"].map {
            try Target(parsing: $0)
        }
        let profiles = await ScanPipeline(settings: ScanSettings(), prober: prober).probe(targets)
        #expect(profiles.map(\.host) == ["a.test", "a.test", "b.test", "a.test"])
        #expect(await prober.count == 2)
    }

    @Test("--resolve connects to the given address and keeps the name for SNI")
    func resolveRule() async throws {
        var settings = ScanSettings()
        settings.resolve = [try ResolveRule(parsing: "api.example.com:443:127.0.0.1")]
        let plan = await ScanPlanner.plan([try Target(parsing: "api.example.com")], settings: settings)
        #expect(plan.count == 1)
        #expect(plan[0].request.connectAddress == "127.0.0.1")
        #expect(plan[0].request.effectiveSNI == "api.example.com")
    }

    @Test(
        "--resolve rejects malformed rules",
        arguments: ["api.example.com:443", "a:b:127.0.0.1", "a:443:not-an-ip", ":443:127.0.0.1"])
    func badResolve(_ text: String) {
        #expect(throws: TargetError.self) { try ResolveRule(parsing: text) }
    }

    @Test("--resolve takes IPv6 addresses with or without brackets")
    func resolveIPv6() throws {
        #expect(try ResolveRule(parsing: "a.test:443:[::1]").address == "::1")
        #expect(try ResolveRule(parsing: "a.test:443:::1").address == "::1")
    }

    @Test("exit status follows docs/usage.md#exit-status")
    func exitStatus() {
        func report(_ items: [(ScanStatus, ATSEvaluation.Verdict)], findings: [Finding] = []) -> ScanReport {
            ScanReport(
                endpoints: items.map {
                    EndpointResult(
                        profile: ServerProfile(target: "x:1", host: "x", port: 1, status: $0.0),
                        ats: ATSEvaluation(verdict: $0.1))
                }, findings: findings)
        }
        #expect(ExitStatus.of(report([(.completed, .pass)])) == .success)
        #expect(ExitStatus.of(report([(.completed, .pass), (.completed, .fail)])) == .policyFailure)
        #expect(ExitStatus.of(report([(.completed, .pass), (.timeout, .unknown)])) == .incomplete)
        #expect(ExitStatus.of(report([(.completed, .fail), (.timeout, .unknown)])) == .policyFailure)
        #expect(ExitStatus.of(report([(.completed, .ambiguous)])) == .policyFailure)
        let error = Finding(rule: "plist.key.unknown", severity: .error, message: "x")
        #expect(ExitStatus.of(report([(.completed, .pass)], findings: [error])) == .policyFailure)
        let note = Finding(rule: "plist.review", severity: .note, message: "x")
        #expect(ExitStatus.of(report([(.completed, .pass)], findings: [note])) == .success)
    }
}

@Suite("--all-addresses against loopback")
struct AllAddressesTests {
    @Test("one planned endpoint per address of the name, each keeping the name for SNI")
    func planPerAddress() async throws {
        var settings = ScanSettings()
        settings.allAddresses = true
        let plan = await ScanPlanner.plan([try Target(parsing: "localhost:8443")], settings: settings)
        let addresses = plan.compactMap(\.request.connectAddress)
        #expect(!addresses.isEmpty)
        #expect(addresses.count == plan.count)
        #expect(addresses.allSatisfy { IPAddress($0)?.isLoopback == true })
        #expect(Set(addresses).count == addresses.count)
        #expect(plan.allSatisfy { $0.request.effectiveSNI == "localhost" && $0.target.host == "localhost" })
    }

    @Test("an IP literal is not resolved again")
    func literal() async throws {
        var settings = ScanSettings()
        settings.allAddresses = true
        let plan = await ScanPlanner.plan([try Target(parsing: "127.0.0.1:8443")], settings: settings)
        #expect(plan.count == 1)
        #expect(plan[0].request.connectAddress == nil)
    }
}

actor CountingProber: EndpointProber {
    var count = 0
    func scan(_ request: ProbeRequest) async -> ServerProfile {
        count += 1
        return ServerProfile(
            target: request.target.hostPort, host: request.target.host, port: request.target.port,
            status: .completed, handshakes: 1)
    }
}
