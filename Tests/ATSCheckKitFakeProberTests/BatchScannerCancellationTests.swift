import ATSCheckKit
import Foundation
import Judging
import Reporting
import Synchronization
import TLSModel
import Testing

/// A prober whose hosts say how they behave: `fast*` answer at once, `stall*` never answer in time and ignore
/// cancellation (a prober blocked in a socket call), `late*` take `lateSeconds` and ignore cancellation too. It
/// records which hosts it was asked to scan.
final class StallingProber: EndpointProber, Sendable {
    let started = Mutex<[String]>([])
    let lateSeconds: Double
    /// When set, `late*` hosts finish when the test opens it rather than after `lateSeconds`: under a full parallel
    /// test run a test task may be resumed seconds late, and a timed probe would finish before the cancellation.
    let lateGate: Gate?

    init(lateSeconds: Double = 0.2, lateGate: Gate? = nil) {
        self.lateSeconds = lateSeconds
        self.lateGate = lateGate
    }

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        let host = request.target.host
        started.withLock { $0.append(host) }
        if host.hasPrefix("late"), let lateGate {
            await lateGate.wait()
        } else {
            let wait = host.hasPrefix("stall") ? 60 : host.hasPrefix("late") ? lateSeconds : 0.005
            // Not Task.sleep: that would honour cancellation, and these probes must not.
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + wait) { continuation.resume() }
            }
        }
        return ServerProfile(
            target: request.target.hostPort, host: host, port: request.target.port, status: .completed, handshakes: 3)
    }
}

/// A gate tasks wait at until it is opened (it ignores cancellation, as a probe blocked in a socket call would).
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// A prober that honours cancellation as the event-driven prober does: `honour*` hosts wait for a minute unless
/// cancelled, then return what a cancelled probe knows (an error, one handshake made); `fast*` answer at once.
final class HonouringProber: EndpointProber, Sendable {
    let inFlight = ResultCounter()

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        let host = request.target.host
        guard host.hasPrefix("honour") else {
            return ServerProfile(
                target: request.target.hostPort, host: host, port: request.target.port, status: .completed)
        }
        inFlight.increment()
        let finished = (try? await Task.sleep(for: .seconds(60))) != nil
        return ServerProfile(
            target: request.target.hostPort, host: host, port: request.target.port,
            status: finished ? .completed : .error, error: finished ? nil : "the scan was cancelled", handshakes: 1)
    }
}

/// Counts a batch's results and wakes a test at the n-th, without polling a clock: under a full parallel test run the
/// cooperative pool can be busy for tens of seconds, and a wall-clock deadline would fail for reasons of its own.
final class ResultCounter: Sendable {
    private let state = Mutex<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

    /// One more result.
    func increment() {
        let ready = state.withLock { state in
            state.count += 1
            let count = state.count
            defer { state.waiters.removeAll { $0.0 <= count } }
            return state.waiters.filter { $0.0 <= count }.map(\.1)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `value` results are in.
    func wait(for value: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.count >= value { return true }
                state.waiters.append((value, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

@Suite(
    "A cancelled batch reports what completed, the rest cancelled, within the grace (issue 34)", .timeLimit(.minutes(2))
)
struct BatchScannerCancellationTests {
    static func pipeline(_ prober: any EndpointProber, grace: Duration, concurrency: Int = 2) -> ScanPipeline {
        var settings = ScanSettings()
        settings.concurrency = concurrency
        settings.cancellationGrace = grace
        return ScanPipeline(settings: settings, prober: prober)
    }

    @Test("endpoints that never finish are abandoned at the grace deadline; those never started are not probed")
    func stallsAbandoned() async throws {
        let prober = StallingProber()
        let hosts = ["fast0.test", "fast1.test", "stall0.test", "stall1.test", "next0.test", "next1.test"]
        let targets = try hosts.map { try Target(parsing: $0) }
        let done = ResultCounter()
        let grace = Duration.milliseconds(500)
        let task = Task {
            await Self.pipeline(prober, grace: grace).scan(
                targets, lists: [], judge: PolicyJudge(), progress: { _, _, _ in done.increment() })
        }
        await done.wait(for: 2)
        // Both slots now hold a stalled probe: nothing else can start until the batch ends.
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = ContinuousClock.now
        task.cancel()
        let report = await task.value
        let elapsed = ContinuousClock.now - cancelled
        print("cancelled batch returned \(elapsed) after cancellation (grace \(grace))")

        #expect(report.endpoints.map(\.profile.host) == hosts)
        #expect(
            report.endpoints.map(\.profile.status) == [.completed, .completed] + Array(repeating: .cancelled, count: 4))
        #expect(report.partial == PartialScan(notScanned: 4, graceSeconds: 0.5))
        // Cancelled endpoints are not scanned, never "not supported", and no verdict is claimed for them.
        for endpoint in report.endpoints.dropFirst(2) {
            #expect(endpoint.profile.protocols.isEmpty)
            #expect(endpoint.ats.verdict == .unknown)
        }
        // The fake's profiles have no protocol results: the two completed endpoints are judged, verdict unknown.
        #expect(report.summary.unknown == 2)
        #expect(report.summary.unreachable == 4)
        #expect(prober.started.withLock { Set($0) } == ["fast0.test", "fast1.test", "stall0.test", "stall1.test"])
        // The stalled probes held the batch for the grace, and were then abandoned: far less than their 60 s (the
        // bound is loose because a loaded test run can delay any task; no speed is asserted).
        #expect(elapsed >= .milliseconds(450))
        #expect(elapsed < .seconds(30))
        #expect(ExitStatus.of(report) == .incomplete)
    }

    @Test("a probe in flight that finishes within the grace is reported, not cancelled")
    func lateProbeKept() async throws {
        let gate = Gate()
        let prober = StallingProber(lateGate: gate)
        // Two slots: late0 and fast0 start; fast0's slot then takes late1; next0 waits for a slot. The late probes
        // finish only once the batch is cancelled, within the grace.
        let targets = try ["late0.test", "fast0.test", "late1.test", "next0.test"].map { try Target(parsing: $0) }
        let done = ResultCounter()
        let task = Task {
            await Self.pipeline(prober, grace: .seconds(20)).scan(
                targets, lists: [], judge: PolicyJudge(), progress: { _, _, _ in done.increment() })
        }
        await done.wait(for: 1)
        let cancelled = ContinuousClock.now
        task.cancel()
        gate.open()
        let report = await task.value
        let elapsed = ContinuousClock.now - cancelled
        #expect(report.endpoints.map(\.profile.status) == [.completed, .completed, .completed, .cancelled])
        #expect(prober.started.withLock { !$0.contains("next0.test") })
        #expect(report.partial?.notScanned == 1)
        // The batch ended when its last probe did, without waiting for the grace to run out.
        #expect(elapsed < .seconds(15))
    }

    @Test("a prober that honours cancellation returns at once; what it says then is not taken for the server's answer")
    func honouringProber() async throws {
        let prober = HonouringProber()
        let targets = try ["fast0.test", "honour0.test", "honour1.test"].map { try Target(parsing: $0) }
        let done = ResultCounter()
        let task = Task {
            await Self.pipeline(prober, grace: .seconds(20)).scan(
                targets, lists: [], judge: PolicyJudge(), progress: { _, _, _ in done.increment() })
        }
        await done.wait(for: 1)
        // fast0's slot has taken honour1: both are in flight.
        await prober.inFlight.wait(for: 2)
        let cancelled = ContinuousClock.now
        task.cancel()
        let report = await task.value
        let elapsed = ContinuousClock.now - cancelled
        #expect(report.endpoints.map(\.profile.status) == [.completed, .cancelled, .cancelled])
        // The probes' own 'error' after the cancellation is not reported as the server's.
        #expect(report.endpoints.dropFirst().allSatisfy { $0.profile.error?.contains("interrupted") == true })
        #expect(report.endpoints[1].profile.handshakes == 1)
        #expect(report.partial?.notScanned == 2)
        // They returned at once: the 20 s grace was not waited for.
        #expect(elapsed < .seconds(15))
    }

    @Test("a batch that is not cancelled is not partial")
    func notCancelled() async throws {
        let prober = StallingProber(lateSeconds: 0.01)
        let targets = try ["fast0.test", "late0.test"].map { try Target(parsing: $0) }
        let report = await Self.pipeline(prober, grace: .seconds(2)).scan(targets, lists: [], judge: PolicyJudge())
        #expect(report.partial == nil)
        #expect(report.endpoints.allSatisfy { $0.profile.status == .completed })
        #expect(!(try JSONRendering.render(report, pretty: true)).contains("\"partial\""))
    }

    @Test("a streamed batch writes the endpoints not scanned as cancelled, and its summary line says partial")
    func streamedCancelled() async throws {
        // late0 is abandoned at the 0.2 s grace and finishes later (when the gate opens): it must write nothing then.
        let gate = Gate()
        let prober = StallingProber(lateGate: gate)
        let hosts = ["fast0.test", "late0.test", "next0.test", "next1.test"]
        let targets = try hosts.map { try Target(parsing: $0) }
        let lines = Mutex<[String]>([])
        let done = ResultCounter()
        let task = Task {
            await Self.pipeline(prober, grace: .milliseconds(200), concurrency: 1).scanStreaming(
                targets, lists: [], shard: nil, judge: PolicyJudge(),
                progress: { _, _, _ in done.increment() },
                onEndpoint: { endpoint in lines.withLock { $0.append((try? JSONLinesRendering.line(endpoint)) ?? "") } }
            )
        }
        await done.wait(for: 1)
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let streamed = await task.value
        let written = lines.withLock { $0 }
        #expect(written.count == 4)
        #expect(written[0].contains("\"host\":\"fast0.test\"") && written[0].contains("\"status\":\"completed\""))
        #expect(written.dropFirst().allSatisfy { $0.contains("\"status\":\"cancelled\"") })
        #expect(streamed.report.partial?.notScanned == 3)
        #expect(streamed.report.summary.unreachable == 3)
        let summary = try JSONLinesRendering.summaryLine(streamed.report)
        #expect(summary.contains("\"partial\":{\"graceSeconds\":0.2,\"notScanned\":3}"))
        // The abandoned probe finishing later writes nothing after the summary.
        gate.open()
        try await Task.sleep(for: .seconds(1))
        #expect(prober.started.withLock { $0.contains("late0.test") })
        #expect(lines.withLock { $0.count } == 4)
    }
}
