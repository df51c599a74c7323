import Foundation
import TLSModel

/// Scans many endpoints with bounded concurrency; every endpoint gets a profile, whatever
/// happens to the others.
///
/// Cancelling the task that runs ``scan(_:progress:)`` (Ctrl-C in the CLI) interrupts the batch: no endpoint starts
/// after it, the probes in flight are cancelled (a prober that honours it stops opening connections) and given
/// ``grace`` to return, and every endpoint without a profile by then is reported ``ScanStatus/cancelled``. A probe
/// that ignores cancellation cannot hold the report: it runs in a task of its own, raced against the grace deadline,
/// and is abandoned (its late result is dropped).
package struct BatchScanner: Sendable {
    package var prober: any EndpointProber
    package var concurrency: Int
    /// How long the probes in flight may still take once the batch is cancelled.
    package var grace: Duration

    /// The grace of a cancelled batch unless told otherwise: the "within 2 s".
    package static let defaultGrace = Duration.seconds(2)

    package init(prober: any EndpointProber, concurrency: Int, grace: Duration = BatchScanner.defaultGrace) {
        self.prober = prober
        self.concurrency = max(1, concurrency)
        self.grace = grace
    }

    /// Scans every planned endpoint, at most `concurrency` at once, and returns profiles in plan order.
    /// Endpoints whose requests are identical (the same host and port under two URL paths, say) are
    /// probed once and share the profile. When the task is cancelled, the endpoints not scanned by the end of the
    /// grace have ``ServerProfile/cancelled(_:)`` profiles.
    /// - Parameter progress: called after each distinct probe finishes with (done, total, profile).
    package func scan(
        _ plan: [PlannedEndpoint], progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [ServerProfile] {
        var distinct: [ProbeRequest] = []
        var slot: [ProbeRequest: Int] = [:]
        for planned in plan where slot[Self.identity(planned.request)] == nil {
            slot[Self.identity(planned.request)] = distinct.count
            distinct.append(planned.request)
        }
        var results = [ServerProfile?](repeating: nil, count: distinct.count)
        var done = 0
        let (prober, grace) = (self.prober, self.grace)
        await withTaskGroup(of: (Int, ServerProfile?).self) { group in
            var next = 0
            func launch() {
                // Once cancelled, nothing new starts: the endpoints left are reported cancelled below.
                guard next < distinct.count, !Task.isCancelled else { return }
                let index = next
                let request = distinct[index]
                next += 1
                group.addTask { (index, await Self.probe(request, with: prober, grace: grace)) }
            }
            for _ in 0..<min(concurrency, distinct.count) { launch() }
            for await (index, profile) in group {
                guard let profile else { continue }
                results[index] = profile
                done += 1
                progress?(done, distinct.count, profile)
                launch()
            }
        }
        let profiles = results.indices.map { results[$0] ?? ServerProfile.cancelled(distinct[$0]) }
        return plan.compactMap { slot[Self.identity($0.request)].map { profiles[$0] } }
    }

    /// One probe, abandoned `grace` after its task is cancelled: the profile, or nil when abandoned.
    ///
    /// The prober runs in an unstructured task so that a child of the batch's group never waits on it past the
    /// grace: a task group waits for all its children, and a prober blocked in a socket call would hold the
    /// report. Cancellation is passed on to that task, so a prober that honours it returns early; a profile it
    /// returns after the cancellation without having completed (a timeout, an error, a step not run) is the
    /// cancellation's doing, not the server's, and is reported ``ScanStatus/cancelled``.
    static func probe(_ request: ProbeRequest, with prober: any EndpointProber, grace: Duration) async
        -> ServerProfile?
    {
        let race = ProbeRace()
        let work = Task { race.settle(await prober.scan(request)) }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { race.wait($0) }
        } onCancel: {
            race.cancel()
            work.cancel()
            Task {
                // An unstructured task: it is not cancelled with the probe, so the deadline holds.
                try? await Task.sleep(for: grace)
                race.settle(nil)
            }
        }
        guard let profile = outcome.profile else { return nil }
        guard outcome.afterCancel, profile.status != .completed else { return profile }
        var cancelled = ServerProfile.cancelled(request, now: profile.scannedAt)
        cancelled.handshakes = profile.handshakes
        cancelled.durationSeconds = profile.durationSeconds
        return cancelled
    }

    /// What a probe depends on: the URL's path and the text the user wrote do not change it.
    static func identity(_ request: ProbeRequest) -> ProbeRequest {
        var key = request
        key.target = Target(scheme: request.target.scheme, host: request.target.host, port: request.target.port)
        return key
    }
}

/// The first of a probe's profile and its grace deadline, handed once to whoever waits for it, with whether it came
/// after the probe was cancelled.
private final class ProbeRace: @unchecked Sendable {
    // @unchecked: every field is read and written under `lock`.
    private let lock = NSLock()
    private var cancelled = false
    private var outcome: Outcome?
    private var waiter: CheckedContinuation<Outcome, Never>?

    /// How the race ended: the profile (nil: abandoned at the grace deadline), and whether the probe had been
    /// cancelled by then.
    struct Outcome: Sendable {
        var profile: ServerProfile?
        var afterCancel: Bool
    }

    /// Notes that the probe was cancelled: a profile settled from now on came after it.
    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// Settles the race with `profile` (nil: abandoned); a later call does nothing.
    func settle(_ profile: ServerProfile?) {
        lock.lock()
        guard outcome == nil else { return lock.unlock() }
        let settled = Outcome(profile: profile, afterCancel: cancelled)
        outcome = settled
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume(returning: settled)
    }

    /// Hands the outcome to `continuation`, now if the race is settled, else when it is.
    func wait(_ continuation: CheckedContinuation<Outcome, Never>) {
        lock.lock()
        if let outcome {
            lock.unlock()
            continuation.resume(returning: outcome)
        } else {
            waiter = continuation
            lock.unlock()
        }
    }
}

extension ServerProfile {
    /// The profile of an endpoint the interrupted run did not scan: status ``ScanStatus/cancelled``, nothing learnt.
    package static func cancelled(_ request: ProbeRequest, now: Date = Date()) -> ServerProfile {
        ServerProfile(
            target: request.target.hostPort, host: request.target.host, port: request.target.port,
            address: request.connectAddress, sni: request.effectiveSNI, status: .cancelled,
            error: "the run was interrupted before this endpoint was scanned", scannedAt: now)
    }
}
