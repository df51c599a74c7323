import Synchronization

/// Caps simultaneous connections per connect address (IP and port): handshakes in flight and connections
/// opened ahead of one (``PreconnectedSockets``), so a batch scan is fast
/// without hammering one server, however many names point at it (many names on one CDN address
/// are capped together).
///
/// Waiting for a permit suspends the task; it never holds a thread, of the probe pool or of Swift's
/// cooperative pool. Permits are handed to waiters in the order they asked.
final class HostLimiter: Sendable {
    private struct State {
        var inUse: [String: Int] = [:]
        var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    /// The most permits of one address held at once.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `body` holding one of the permits of `address`.
    /// - Parameter address: the connect address, e.g. `127.0.0.1:443` or `[::1]:443`.
    func withPermit<T>(_ address: String, _ body: () async -> T) async -> T {
        await acquire(address)
        defer { release(address) }
        return await body()
    }

    /// Takes a permit of `address` only if one is free and nobody waits for it (a connection opened ahead
    /// never goes before a handshake that is waiting). Give it back with ``release(_:)``.
    func tryAcquire(_ address: String) -> Bool {
        state.withLock { state in
            guard state.inUse[address, default: 0] < limit, state.waiters[address]?.isEmpty ?? true else { return false }
            state.inUse[address, default: 0] += 1
            return true
        }
    }

    /// Runs `body` with a permit of `address` that the caller already holds (from ``tryAcquire(_:)``), and
    /// gives it back at the end.
    func withHeldPermit<T>(_ address: String, _ body: () async -> T) async -> T {
        defer { release(address) }
        return await body()
    }

    private func acquire(_ address: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.inUse[address, default: 0] < limit {
                    state.inUse[address, default: 0] += 1
                    return true
                }
                state.waiters[address, default: []].append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives back a permit taken by ``acquire(_:)`` or ``tryAcquire(_:)``.
    func release(_ address: String) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if var queue = state.waiters[address], !queue.isEmpty {
                let first = queue.removeFirst()  // the permit passes straight to the longest waiter
                state.waiters[address] = queue.isEmpty ? nil : queue
                return first
            }
            state.inUse[address, default: 1] -= 1
            if state.inUse[address] == 0 { state.inUse[address] = nil }
            return nil
        }
        next?.resume()
    }
}
