import Synchronization

/// Caps simultaneous connections per connect address (IP and port): handshakes in flight and connections
/// opened ahead of one (``PreconnectedSockets``), so a batch scan is fast
/// without hammering one server, however many names point at it (many names on one CDN address
/// are capped together).
///
/// **An adaptive window** (issue 20). Each address starts with the whole cap (`--per-host`); when the server
/// drops a connection that was made while others to it were open, ``narrow(_:to:)`` lowers that address's
/// window to what it has shown it serves, and the step is tried again alone (``withSolo(_:_:)``: no other
/// connection to the address open, none let in meanwhile). A server that serves one connection at a time, or
/// caps connections per client address, is then scanned within what it serves.
///
/// Waiting for a permit suspends the task; it never holds a thread, of the probe pool or of Swift's
/// cooperative pool. Permits are handed to waiters in the order they asked.
final class HostLimiter: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        /// Waits for the address to itself (``withSolo(_:_:)``).
        let solo: Bool
    }

    private struct Address {
        var inUse = 0
        var waiters: [Waiter] = []
        /// The address's window: at most this many permits held at once (the cap until narrowed).
        var window: Int
        /// A solo step holds the address: no other permit is given until it ends.
        var soloHeld = false
    }

    /// The most permits of one address held at once (`--per-host`), before any narrowing.
    let limit: Int
    private let state = Mutex([String: Address]())

    init(limit: Int) { self.limit = max(1, limit) }

    /// The window of `address`: how many permits it may hold at once now (``limit`` until narrowed).
    func window(_ address: String) -> Int { state.withLock { $0[address]?.window ?? limit } }

    /// Whether a step waits for a permit (or a solo turn) of `address` (read by tests).
    func hasWaiters(_ address: String) -> Bool { state.withLock { !($0[address]?.waiters.isEmpty ?? true) } }

    /// Lowers the window of `address` to `count` (at least 1; never raised): the server dropped a connection
    /// made while others were open. Permits already held are not taken back; new ones wait.
    func narrow(_ address: String, to count: Int) {
        state.withLock { state in
            var entry = state[address] ?? Address(window: limit)
            entry.window = max(1, min(entry.window, count))
            state[address] = entry
        }
    }

    /// Runs `body` holding one of the permits of `address`.
    /// - Parameter address: the connect address, e.g. `127.0.0.1:443` or `[::1]:443`.
    func withPermit<T>(_ address: String, _ body: () async -> T) async -> T {
        await acquire(address, solo: false)
        defer { release(address) }
        return await body()
    }

    /// Runs `body` with `address` to itself: it waits until no other permit of the address is held (a permit
    /// the caller holds must be given back first), and no other is given until `body` ends.
    func withSolo<T>(_ address: String, _ body: () async -> T) async -> T {
        await acquire(address, solo: true)
        defer { release(address) }
        return await body()
    }

    /// Takes a permit of `address` only if one is free and nobody waits for it (a connection opened ahead
    /// never goes before a handshake that is waiting). Give it back with ``release(_:)``.
    func tryAcquire(_ address: String) -> Bool {
        state.withLock { state in
            var entry = state[address] ?? Address(window: limit)
            guard entry.waiters.isEmpty, Self.canGrant(entry, solo: false) else { return false }
            entry.inUse += 1
            state[address] = entry
            return true
        }
    }

    /// Takes a permit of `address`, waiting for one in turn. Give it back with ``release(_:)``.
    func acquire(_ address: String) async { await acquire(address, solo: false) }

    /// Runs `body` with a permit of `address` that the caller already holds (from ``tryAcquire(_:)``), and
    /// gives it back at the end.
    func withHeldPermit<T>(_ address: String, _ body: () async -> T) async -> T {
        defer { release(address) }
        return await body()
    }

    private static func canGrant(_ entry: Address, solo: Bool) -> Bool {
        if entry.soloHeld { return false }
        return solo ? entry.inUse == 0 : entry.inUse < entry.window
    }

    private func acquire(_ address: String, solo: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                var entry = state[address] ?? Address(window: limit)
                defer { state[address] = entry }
                if entry.waiters.isEmpty, Self.canGrant(entry, solo: solo) {
                    entry.inUse += 1
                    entry.soloHeld = solo
                    return true
                }
                entry.waiters.append(Waiter(continuation: continuation, solo: solo))
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives back a permit taken by ``acquire(_:)``, ``tryAcquire(_:)`` or a solo turn, and lets in the waiters
    /// that now fit, in the order they asked (a solo waiter at the head waits for the address to empty).
    func release(_ address: String) {
        let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard var entry = state[address] else { return [] }
            entry.inUse = max(0, entry.inUse - 1)
            entry.soloHeld = false
            var woken: [CheckedContinuation<Void, Never>] = []
            while let first = entry.waiters.first, Self.canGrant(entry, solo: first.solo) {
                entry.waiters.removeFirst()
                entry.inUse += 1
                entry.soloHeld = first.solo
                woken.append(first.continuation)
            }
            if entry.inUse == 0, entry.waiters.isEmpty, entry.window == limit {
                state[address] = nil
            } else {
                state[address] = entry
            }
            return woken
        }
        for continuation in next { continuation.resume() }
    }
}
