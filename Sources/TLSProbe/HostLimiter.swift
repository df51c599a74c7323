/// Caps simultaneous handshakes per host, so a batch scan is fast without hammering one server.
/// An actor: waiters suspend (they never block a cooperative thread).
actor HostLimiter {
    private let limit: Int
    private var inUse: [String: Int] = [:]
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(limit: Int) { self.limit = max(1, limit) }

    func acquire(_ host: String) async {
        if inUse[host, default: 0] < limit {
            inUse[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiters[host, default: []].append($0) }
    }

    func release(_ host: String) {
        if var queue = waiters[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[host] = queue
            next.resume()  // the permit passes straight to the next waiter
        } else {
            inUse[host, default: 1] -= 1
        }
    }

    func withPermit<T: Sendable>(_ host: String, _ body: () async -> T) async -> T {
        await acquire(host)
        let result = await body()
        release(host)
        return result
    }
}

import Foundation

/// Runs blocking work (sockets, OpenSSL) on a thread of its own, never on Swift's cooperative pool.
enum BlockingThread {
    static func run<T: Sendable>(_ name: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: work())
            }
            thread.name = name
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
