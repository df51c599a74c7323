import Dispatch
import Foundation
import Synchronization

/// One bounded pool of OS threads for atscheck's blocking work: name resolution, TCP connects and
/// handshakes. Swift's cooperative pool never runs any of it.
///
/// Callers `await` one job at a time (``run(_:)``); a job never waits for another job, for a
/// per-host permit or for a task, so a full pool can never deadlock: it only queues. Threads are
/// started when a job is queued and no thread is idle, up to ``size``, and end after
/// ``idleTimeout`` without work, so a pool costs nothing between scans.
final class ProbeThreadPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var threads = 0
        /// Threads waiting on `wakeups` that no submitted job has claimed yet.
        var unclaimedIdle = 0
        /// The most threads alive at once (tests state their bounds against it).
        var peakThreads = 0

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// The most threads this pool runs at once.
    let size: Int
    /// How long an idle thread waits for work before it ends.
    let idleTimeout: Double
    private let state = Mutex(State())
    /// Counts claimed wake-ups: one signal per job handed to an idle thread. (`Mutex` has no
    /// condition variable; the semaphore is only the sleeping place, the state is under `state`.)
    private let wakeups = DispatchSemaphore(value: 0)

    init(size: Int, idleTimeout: Double = 2) {
        self.size = max(1, size)
        self.idleTimeout = idleTimeout
    }

    /// Threads alive now.
    var threadCount: Int { state.withLock { $0.threads } }
    /// The most threads that were alive at once.
    var peakThreadCount: Int { state.withLock { $0.peakThreads } }

    /// Runs `work` on a pool thread and resumes the caller with its result.
    ///
    /// > Warning: `work` blocks a pool thread; it must not wait for another pool job.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` on a pool thread, but resumes the caller with nil once `deadline` passes, whether
    /// or not the job has started or finished (for calls with no timeout of their own, such as
    /// `getaddrinfo`). A job still queued at its deadline does not run.
    func run<T: Sendable>(until deadline: Deadline, _ work: @escaping @Sendable () -> T) async -> T? {
        let once = ResumeOnce<T?>()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            submit {
                guard !deadline.hasPassed else { return once.resume(nil) }
                once.resume(work())
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(deadline.remainingMilliseconds)) {
                once.resume(nil)
            }
        }
    }

    /// Queues `job` for a pool thread.
    func submit(_ job: @escaping Job) {
        enum Action { case none, wake, spawn }
        let action = state.withLock { state -> Action in
            state.jobs.append(job)
            if state.unclaimedIdle > 0 {
                state.unclaimedIdle -= 1
                return .wake
            }
            guard state.threads < size else { return .none }  // a busy thread takes it when free
            state.threads += 1
            state.peakThreads = max(state.peakThreads, state.threads)
            return .spawn
        }
        switch action {
        case .none: break
        case .wake: wakeups.signal()
        case .spawn:
            let thread = Thread { [self] in work() }
            thread.name = "atscheck.probe"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// A pool thread: run queued jobs; sleep when there are none; end after `idleTimeout` of sleep.
    private func work() {
        while true {
            let job = state.withLock { state -> Job? in
                if let job = state.pop() { return job }
                state.unclaimedIdle += 1
                return nil
            }
            if let job {
                job()
                continue
            }
            if wakeups.wait(timeout: .now() + idleTimeout) == .success { continue }
            // Timed out. If some idle thread is still unclaimed, count this one as it and end;
            // otherwise a submitter has claimed this thread and its signal is on the way: take it.
            let ends = state.withLock { state -> Bool in
                guard state.unclaimedIdle > 0 else { return false }
                state.unclaimedIdle -= 1
                state.threads -= 1
                return true
            }
            if ends { return }
            wakeups.wait()
        }
    }
}

/// A continuation resumed by whichever of several parties comes first (a job or its deadline).
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<T, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(_ value: T) {
        let taken = continuation.withLock { slot -> CheckedContinuation<T, Never>? in
            defer { slot = nil }
            return slot
        }
        taken?.resume(returning: value)
    }
}
