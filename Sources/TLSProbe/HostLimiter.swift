import Foundation

/// Caps simultaneous handshakes per host, so a batch scan is fast without hammering one server.
///
/// Waiting happens on atscheck's own probe threads (never on Swift's cooperative pool), so a
/// blocking condition variable is the right tool: a busy pool in the host process can never delay
/// a probe past its deadline.
final class HostLimiter: @unchecked Sendable {  // state guarded by `condition`
    private let limit: Int
    private let condition = NSCondition()
    private var inUse: [String: Int] = [:]

    init(limit: Int) { self.limit = max(1, limit) }

    func withPermit<T>(_ host: String, _ body: () -> T) -> T {
        condition.lock()
        while inUse[host, default: 0] >= limit { condition.wait() }
        inUse[host, default: 0] += 1
        condition.unlock()
        defer {
            condition.lock()
            inUse[host, default: 1] -= 1
            if inUse[host] == 0 { inUse[host] = nil }
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }
}

/// Runs blocking work (sockets, OpenSSL) on threads of atscheck's own, never on Swift's cooperative pool.
enum BlockingThread {
    /// Runs `work` on a new thread and resumes the caller with its result.
    static func run<T: Sendable>(_ name: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start(name) { continuation.resume(returning: work()) }
        }
    }

    /// Runs each closure on a thread of its own and waits for all of them (called from a probe thread).
    static func all(_ name: String, _ works: [@Sendable () -> Void]) {
        let group = DispatchGroup()
        for work in works {
            group.enter()
            start(name) {
                work()
                group.leave()
            }
        }
        group.wait()
    }

    private static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }
}
