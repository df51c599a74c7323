internal import CLinux
import Glibc
import Synchronization

/// The connections of one endpoint that are open now, in the order they were started, and what they showed
/// of how many connections the server serves at once (issue 20).
///
/// **Overlap.** A connection *overlapped* when another connection of the endpoint was open at any moment of
/// its life. A drop on such a connection (a close, a reset, a timeout, a refused connect) may be the server
/// refusing one connection too many, so it is not evidence about the TLS offer until the step has been tried
/// again alone (``EndpointSession/step(context:version:legacy:tls13:ready:permit:)``).
///
/// **What the server serves at once.** A server that serves one connection at a time (`openssl s_server`,
/// Python's `HTTPServer`) or a fixed number of workers takes connections from its accept queue in order and
/// keeps each until the client closes it. So a connection answered while `n` idle connections seen established
/// before its connect started are still open shows the server serving at least `n + 1` at once (``shownConcurrency``).
///
/// **Stalls.** A connection opened ahead and still idle (``PreconnectedSockets``) holds such a server's worker
/// without sending anything. When a connection that has sent its hello waits past the stall time while idle
/// ones are open (``longestWait(now:)``), the endpoint closes them and from then on keeps at most
/// ``shownConcurrency`` − 1 idle (``stalled``).
final class ConnectionLedger: Sendable {
    /// One open connection.
    struct Ticket: Sendable {
        /// Its place in the order connections were started (``State/started`` once it was): a later count means
        /// another connection started since.
        let sequence: Int
        /// Connections started before this one and still open when it started.
        let openAtStart: Int
    }

    private struct Entry {
        /// Opened ahead and not yet taken by a step: it has sent nothing.
        var idle: Bool
        /// When its connect started (its SYN was sent).
        let openedAt: ContinuousClock.Instant = .now
        /// Since when it has waited for the server: its TCP handshake completed (and, for one opened ahead, a
        /// step took it). Nil while its connect is in progress.
        var waitingSince: ContinuousClock.Instant?
        /// When its TCP handshake was first seen completed: the server's accept queue holds it from then on.
        var establishedAt: ContinuousClock.Instant?
        /// Its socket once connected and sending (read by ``closingServed(_:)``).
        var fd: Int32?
    }

    private struct State {
        var started = 0
        var open: [Int: Entry] = [:]
        /// The most connections the server was seen serving at once (1 until one is answered with others open).
        var shown = 1
        var stalled = false
        /// An answer was seen that a server serving one connection at a time could not have sent
        /// (``closingServed(_:)``).
        var provenConcurrent = false
    }

    private let state = Mutex(State())

    /// How long before a connection's connect another must have been seen established to count as ahead of it.
    static let queueMargin: Duration = .milliseconds(10)

    /// Records a connection about to be started (before its connect); `idle`: opened ahead of a step.
    func open(idle: Bool = false) -> Ticket {
        state.withLock { state in
            state.started += 1
            let sequence = state.started
            let ticket = Ticket(sequence: sequence, openAtStart: state.open.count)
            state.open[sequence] = Entry(idle: idle)
            return ticket
        }
    }

    /// Records that `ticket`'s TCP handshake has completed; `fd`: its socket, once a step sends on it.
    func established(_ ticket: Ticket, fd: Int32? = nil) {
        state.withLock { state in
            guard var entry = state.open[ticket.sequence] else { return }
            if let fd { entry.fd = fd }
            guard entry.establishedAt == nil else {
                state.open[ticket.sequence] = entry
                return
            }
            entry.establishedAt = .now
            if !entry.idle { entry.waitingSince = entry.establishedAt }
            state.open[ticket.sequence] = entry
        }
    }

    /// Records that a step took `ticket`'s connection, opened ahead: it sends its hello now.
    func activate(_ ticket: Ticket) {
        state.withLock { state in
            guard var entry = state.open[ticket.sequence] else { return }
            entry.idle = false
            entry.waitingSince = entry.establishedAt == nil ? nil : .now
            state.open[ticket.sequence] = entry
        }
    }

    /// Records that `ticket`'s connection got a TLS answer (a ServerHello or an alert) while still open: the
    /// server served it while every idle connection seen established before its connect started (so ahead of it
    /// in the server's accept queue, whatever order the threads ran in) held a worker. Only idle ones count: a
    /// connection that has sent its hello may already be finished on the server's side (an alert and a close,
    /// not yet read here) while it still looks open.
    ///
    /// "Before" means by ``queueMargin`` at least: under load the kernel can queue two connections in the other
    /// order than the client saw them established (their packets handled on different CPUs), and a proof that
    /// counts too many would let idle connections hold every worker of the server.
    func answered(_ ticket: Ticket) {
        state.withLock { state in
            guard let mine = state.open[ticket.sequence]?.openedAt else { return }
            let cutoff = mine - Self.queueMargin
            let ahead = state.open.values.filter { $0.idle && ($0.establishedAt.map { $0 < cutoff } ?? false) }.count
            state.shown = max(state.shown, ahead + 1)
            if ahead > 0 { state.provenConcurrent = true }  // served while an idle one held a worker: two at once
        }
    }

    /// Records that `ticket`'s connection is closed, and says whether it overlapped another of the endpoint's.
    @discardableResult
    func close(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            state.open[ticket.sequence] = nil
            return ticket.openAtStart > 0 || state.started != ticket.sequence || !state.open.isEmpty
        }
    }

    /// Records that `ticket`'s connection is about to be closed after the server's first flight was read, with the
    /// server waiting for the client's next flight: a server that serves one connection at a time is busy with this
    /// connection until it sees the close. So if another connection of the endpoint that has sent its hello already
    /// has the server's answer waiting to be read, the server answered it meanwhile: it serves two at once at least
    /// (``provenConcurrent``). No timer and no idle connection is needed to learn it (issue 34); a one-at-a-time
    /// server never gives that proof. A refused connection proves nothing (the server ended it itself).
    func closingServed(_ ticket: Ticket) {
        let others = state.withLock { state -> [Int32] in
            guard !state.provenConcurrent else { return [] }
            return state.open.compactMap { $0.key != ticket.sequence && !$0.value.idle ? $0.value.fd : nil }
        }
        guard !others.isEmpty else { return }
        // Readable and not closed by the server: an answer it is still serving. A refusal (an alert, then the server's
        // close) is not counted: a one-at-a-time server ends it itself before it takes the next connection.
        let readable = Int16(POLLIN)
        let closed = Int16(ATSC_POLLRDHUP) | Int16(POLLHUP)
        var polled = others.map { pollfd(fd: $0, events: readable | Int16(ATSC_POLLRDHUP), revents: 0) }
        guard poll(&polled, nfds_t(polled.count), 0) > 0 else { return }
        guard polled.contains(where: { ($0.revents & readable) != 0 && ($0.revents & closed) == 0 }) else { return }
        state.withLock { state in
            state.provenConcurrent = true
            state.shown = max(state.shown, 2)
        }
    }

    /// Whether an answer showed the server serving two connections at once (``closingServed(_:)``, or
    /// ``answered(_:)`` with an idle connection ahead of it).
    var provenConcurrent: Bool { state.withLock { $0.provenConcurrent } }

    /// Connections open now.
    var openCount: Int { state.withLock { $0.open.count } }

    /// The longest a connection that is not idle has waited for the server so far (nil: none is waiting).
    func longestWait(now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { state in
            state.open.values.compactMap { $0.idle ? nil : $0.waitingSince.map { now - $0 } }.max()
        }
    }

    /// The most connections the server has been seen serving at once (at least 1).
    var shownConcurrency: Int { state.withLock { $0.shown } }

    /// Whether a step stalled, or a connection was dropped, while others were open: idle connections are then
    /// held to ``shownConcurrency`` − 1.
    var stalled: Bool { state.withLock { $0.stalled } }

    /// Records a stall or an overlapped drop; what the server is taken to serve at once is lowered to `count`.
    func noteStall(serving count: Int? = nil) {
        state.withLock { state in
            state.stalled = true
            if let count { state.shown = max(1, min(state.shown, count)) }
        }
    }
}
