import Foundation
import Synchronization

/// Spaces the connections to one connect address (IP and port) at least ``interval`` apart (`--delay`),
/// across every endpoint and version chain of a prober, retries included: a scan stays polite to a
/// server that rate-limits new connections.
///
/// Each address has one turn at a time. ``takeTurn(_:)`` suspends the task until its turn comes and the
/// interval since the previous connection to that address has passed; the caller then connects on a
/// probe thread and calls ``Turn/started()`` just before `connect`, which stamps the time the next
/// turn is measured from and hands the turn on. Measuring from the real start (not from when the turn
/// was granted) keeps every gap at least the interval even when a probe thread is slow to pick the job up.
/// Waiting never holds a thread: turns are continuations, the pause is `Task.sleep`.
final class ConnectionPacer: Sendable {
    private struct Lane {
        /// When the last connection to this address started.
        var lastStart: ContinuousClock.Instant?
        /// Whether a turn is out (granted and not yet started or given back).
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The least time between two connection starts to one address; zero: no pacing.
    let interval: Duration
    private let lanes = Mutex([String: Lane]())

    /// - Parameter interval: seconds between connection starts to one address (0: none).
    init(interval: Double) {
        self.interval = interval > 0 ? .nanoseconds(Int64((interval * 1e9).rounded())) : .zero
    }

    /// A pacer that never waits.
    static let none = ConnectionPacer(interval: 0)

    /// One address's turn to connect. Give it back exactly once: ``started()`` when the connection
    /// starts, or ``skip()`` when none is made.
    struct Turn: Sendable {
        fileprivate let pacer: ConnectionPacer?
        fileprivate let key: String

        /// The connection starts now: the next turn for this address comes `interval` from now.
        func started() { pacer?.handOn(key, stamp: true) }

        /// No connection is made (the endpoint's deadline passed): the next turn keeps the previous stamp.
        func skip() { pacer?.handOn(key, stamp: false) }
    }

    /// Waits for the turn of `address` and for the interval since its previous connection start.
    /// - Parameter address: the connect address, e.g. `127.0.0.1:443`.
    func takeTurn(_ address: String) async -> Turn {
        guard interval > .zero else { return Turn(pacer: nil, key: address) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = lanes.withLock { lanes -> Bool in
                if !lanes[address, default: Lane()].busy {
                    lanes[address, default: Lane()].busy = true
                    return true
                }
                lanes[address, default: Lane()].waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
        // The turn is ours: nobody else connects to this address until we start or skip.
        if let last = lanes.withLock({ $0[address]?.lastStart }) {
            let due = last.advanced(by: interval)
            if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
        }
        return Turn(pacer: self, key: address)
    }

    private func handOn(_ address: String, stamp: Bool) {
        let next = lanes.withLock { lanes -> CheckedContinuation<Void, Never>? in
            guard var lane = lanes[address] else { return nil }
            if stamp { lane.lastStart = .now }
            if lane.waiters.isEmpty {
                lane.busy = false
                lanes[address] = lane
                return nil
            }
            let first = lane.waiters.removeFirst()  // the turn passes straight to the longest waiter
            lanes[address] = lane
            return first
        }
        next?.resume()
    }
}
