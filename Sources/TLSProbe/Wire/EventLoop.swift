internal import CLinux
import Foundation
import Glibc
import Synchronization

/// One thread that waits on sockets with epoll and runs the async work of the endpoints given to it (issue 34).
///
/// A TLS scanner's work is waiting: a handshake is a few hundred microseconds of CPU between round trips. So no
/// thread waits for a socket. A step's code (connect, send the ClientHello, feed the server's bytes to OpenSSL)
/// runs as async code on a loop, and where it would wait it registers its socket with the loop's epoll and
/// suspends (``wait(for:events:until:)``); the loop resumes it when the socket is ready or its deadline passes.
/// Each loop is a `TaskExecutor`: an endpoint's scan runs with a loop as its executor preference, so its jobs
/// and its socket waits stay on that one thread, without hops between threads.
///
/// A process has one ``EventLoopGroup/shared`` group, one loop per core: the threads of a scan do not grow with
/// `--concurrency`, only the registered sockets do.
final class EventLoop: TaskExecutor, @unchecked Sendable {
    /// How a wait ended.
    enum Readiness: Sendable {
        /// The socket is ready for what was asked, or has an error or a hang-up that the next call will read.
        case ready
        /// The deadline passed first.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
    }

    private struct Waiter {
        let fd: Int32
        let continuation: CheckedContinuation<Readiness, Never>
    }

    private struct State {
        var jobs: [UnownedJob] = []
        var waiters: [UInt64: Waiter] = [:]
        /// Tokens whose task was cancelled before their wait was registered.
        var cancelledEarly: Set<UInt64> = []
        var timers = DeadlineHeap()
        var nextToken: UInt64 = 1
        /// The loop is in (or about to enter) `epoll_wait`: new work must wake it.
        var sleeping = false
    }

    /// The token of the wake-up descriptor in the epoll set; socket waits use tokens from 1.
    private static let wakeToken: UInt64 = 0
    private let epollFD: Int32
    private let wakeFD: Int32
    private let state = Mutex(State())
    private let threadID = Mutex<pthread_t?>(nil)

    init(name: String) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll_create1/eventfd: \(String(cString: strerror(errno)))")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeToken
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Whether the calling thread is this loop's.
    var isCurrent: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = state.withLock { state -> Bool in
            state.jobs.append(job)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake { self.wake() }
    }

    /// Suspends the calling task until `fd` is ready for `events` (`EPOLLIN`, `EPOLLOUT`), `deadline` passes, or the
    /// task is cancelled. Any thread may call it; the resumption runs on the task's executor.
    func wait(for fd: Int32, events: UInt32, until deadline: Deadline) async -> Readiness {
        let token = state.withLock { state -> UInt64 in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (immediate, wake) = state.withLock { state -> (Readiness?, Bool) in
                    if state.cancelledEarly.remove(token) != nil { return (.cancelled, false) }
                    if deadline.hasPassed { return (.timedOut, false) }
                    var event = epoll_event()
                    event.events = events | EPOLLONESHOT.rawValue
                    event.data.u64 = token
                    // A descriptor epoll refuses (closed already): the caller's next call reads the error itself.
                    guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { return (.ready, false) }
                    state.waiters[token] = Waiter(fd: fd, continuation: continuation)
                    state.timers.push(deadline.uptimeNanoseconds, token)
                    defer { state.sleeping = false }
                    return (nil, state.sleeping)
                }
                if let immediate { continuation.resume(returning: immediate) }
                if wake { self.wake() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: token) else {
                    state.cancelledEarly.insert(token)
                    return nil
                }
                epoll_ctl(epollFD, EPOLL_CTL_DEL, waiter.fd, nil)
                return waiter
            }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    private func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// The loop: run the queued jobs, wait for sockets until the nearest deadline, resume who is ready or late.
    private func run() {
        threadID.withLock { $0 = pthread_self() }
        let executor = asUnownedTaskExecutor()
        let capacity = 256
        var events = [epoll_event](repeating: epoll_event(), count: capacity)
        while true {
            let jobs = state.withLock { state -> [UnownedJob] in
                defer { state.jobs = [] }
                return state.jobs
            }
            for job in jobs { job.runSynchronously(on: executor) }
            let timeout = state.withLock { state -> Int32 in
                if !state.jobs.isEmpty { return 0 }
                state.sleeping = true
                guard let next = state.timers.earliest else { return -1 }
                let now = DispatchTime.now().uptimeNanoseconds
                guard next > now else { return 0 }
                return Int32(min((next - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            }
            let count = epoll_wait(epollFD, &events, Int32(capacity), timeout)
            var resumed: [(CheckedContinuation<Readiness, Never>, Readiness)] = []
            state.withLock { state in
                state.sleeping = false
                for index in 0..<max(0, Int(count)) {
                    let token = events[index].data.u64
                    if token == Self.wakeToken {
                        var drained: UInt64 = 0
                        _ = Glibc.read(wakeFD, &drained, MemoryLayout<UInt64>.size)
                        continue
                    }
                    guard let waiter = state.waiters.removeValue(forKey: token) else { continue }
                    epoll_ctl(epollFD, EPOLL_CTL_DEL, waiter.fd, nil)
                    resumed.append((waiter.continuation, .ready))
                }
                let now = DispatchTime.now().uptimeNanoseconds
                while let token = state.timers.popDue(now: now) {
                    guard let waiter = state.waiters.removeValue(forKey: token) else { continue }
                    epoll_ctl(epollFD, EPOLL_CTL_DEL, waiter.fd, nil)
                    resumed.append((waiter.continuation, .timedOut))
                }
            }
            for (continuation, readiness) in resumed { continuation.resume(returning: readiness) }
        }
    }
}

/// The event loops of a process: one per core (``EventLoop``). Endpoints are handed out in turn.
final class EventLoopGroup: Sendable {
    let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// The process's loops, started on first use and kept for its life (idle, they cost a blocked thread each).
    static let shared = EventLoopGroup(count: ProcessInfo.processInfo.activeProcessorCount)

    init(count: Int) {
        loops = (0..<max(1, count)).map { EventLoop(name: "atscheck.loop.\($0)") }
    }

    /// The loop for the next endpoint.
    func next() -> EventLoop {
        loops[nextIndex.add(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// The loop the calling thread runs, else the first (a wait from elsewhere still works, with a hop).
    var current: EventLoop { loops.first { $0.isCurrent } ?? loops[0] }
}

/// A min-heap of (deadline, token): the loop's timers. A token whose wait ended earlier stays until its deadline and
/// is skipped then.
struct DeadlineHeap {
    private var items: [(UInt64, UInt64)] = []

    var earliest: UInt64? { items.first?.0 }

    mutating func push(_ deadline: UInt64, _ token: UInt64) {
        items.append((deadline, token))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].0 < items[parent].0 else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the earliest entry if it is due at `now`, and returns its token.
    mutating func popDue(now: UInt64) -> UInt64? {
        guard let first = items.first, first.0 <= now else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && items[left].0 < items[smallest].0 { smallest = left }
                if right < items.count && items[right].0 < items[smallest].0 { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.1
    }
}
