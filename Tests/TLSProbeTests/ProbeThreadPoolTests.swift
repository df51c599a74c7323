import Foundation
import Synchronization
import Testing

@testable import TLSProbe

/// Counts jobs running at once.
final class RunningGauge: Sendable {
    private let counts = Mutex((current: 0, peak: 0))
    var peak: Int { counts.withLock { $0.peak } }

    func around<T>(_ body: () -> T) -> T {
        counts.withLock {
            $0.current += 1
            $0.peak = max($0.peak, $0.current)
        }
        defer { counts.withLock { $0.current -= 1 } }
        return body()
    }
}

@Suite("The bounded pool of probe threads")
struct ProbeThreadPoolTests {
    @Test("never runs more jobs or threads than its size, and runs every job")
    func bounded() async {
        let pool = ProbeThreadPool(size: 4, idleTimeout: 0.2)
        let gauge = RunningGauge()
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    await pool.run {
                        gauge.around {
                            usleep(10_000); return index
                        }
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == Array(0..<40))
        #expect(gauge.peak == 4)
        #expect(pool.peakThreadCount <= 4)
        // Idle threads end: a pool costs nothing between scans.
        for _ in 0..<100 where pool.threadCount > 0 { try? await Task.sleep(for: .milliseconds(50)) }
        #expect(pool.threadCount == 0)
    }

    @Test("a job with a deadline resumes its caller at the deadline even while the pool is busy")
    func deadline() async {
        let pool = ProbeThreadPool(size: 1)
        let release = DispatchSemaphore(value: 0)
        let started = Mutex(false)
        async let blocker: Void = pool.run {
            started.withLock { $0 = true }
            release.wait()
        }
        while !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        let ran = Mutex(false)
        let answer: Int? = await pool.run(until: Deadline.after(seconds: 0.2)) {
            ran.withLock { $0 = true }
            return 1
        }
        #expect(answer == nil)
        release.signal()
        await blocker
        _ = await pool.run { () }  // the queued job has had its turn by now
        #expect(ran.withLock { $0 } == false)  // it was still queued at its deadline, so it never ran
    }

    @Test("a prober's thread pool has the same size whatever the per-host cap: handshakes run on the event loops")
    func proberPoolSize() {
        #expect(TLSProber(perHostLimit: 32).probeThreadLimit == TLSProber.probeThreads)
        #expect(TLSProber(perHostLimit: 1).probeThreadLimit == TLSProber.probeThreads)
        #expect(TLSProber.probeThreads == ProcessInfo.processInfo.activeProcessorCount + 2)
    }
}
