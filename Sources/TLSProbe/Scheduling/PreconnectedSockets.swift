import Foundation
import Synchronization

/// TCP connections to one endpoint opened ahead of the handshakes that will use them (issue 10).
///
/// A handshake on a fresh connection costs two round trips: the TCP handshake, then the ClientHello and
/// the server's first flight. A connection opened while the step before is still in flight has its TCP
/// handshake done by the time the step is sent, so the step costs one round trip.
///
/// **Within the per-host cap.** Each connection opened ahead holds one of its address's ``HostLimiter``
/// permits from its connect until the step that takes it ends, so `--per-host` bounds every open
/// connection, ahead or in use. One is opened only on a permit that is free and that no handshake waits
/// for: never at the expense of a handshake, never with `--per-host 1`.
///
/// **Which steps.** For each chain step in flight, the connections its answer will likely want
/// (``EnumerationQueue``): its chain's next step, and the order probe too while its version has one suite found,
/// once an answer has shown the server serving two connections at once (``ConnectionLedger/provenConcurrent``;
/// none before the lead's answer, issue 34). A first offer gets none: a refused one (TLS 1.0 and 1.1 on a modern
/// server) has no next step.
///
/// **Servers that serve few connections at once** (issue 20): an idle connection opened ahead holds such a
/// server's worker. Each connection is in the endpoint's ``ConnectionLedger``; when a step stalls behind idle
/// ones, ``EndpointSession/watch()`` closes them with ``closeIdle()``, and from then on the endpoint
/// keeps at most what the server has shown it serves, less one.
///
/// **The price**: the connections opened for the steps after a chain's last, closed unused without a
/// byte sent, and counted (``unused``; the report's `unusedConnections`): about one per supported
/// version with two or more suites, two for one with a single suite. Off with `--no-preconnect`, and
/// whenever `--delay` paces connections (a connection opened ahead would break the spacing).
final class PreconnectedSockets: Sendable {
    /// A connection opened ahead, holding a permit of the per-host cap. One owner at a time: the store
    /// until taken, then the step it was taken for, which gives the permit back when it ends.
    struct Ready: @unchecked Sendable {
        let socket: TCPSocket
        let opened: ContinuousClock.Instant
        /// The per-host cap's key of the permit it holds.
        let key: String
        /// Its entry in the endpoint's ``ConnectionLedger``, from before its connect until it is closed.
        let ticket: ConnectionLedger.Ticket
    }

    private struct State {
        var ready: [Ready] = []
        var unused = 0
        var closed = false
    }

    /// A connection older than this is closed unused rather than handed out: a server may close an idle
    /// connection that has not sent its ClientHello (the handshake would then be a drop).
    static let maximumAge: Duration = .seconds(2)

    let enabled: Bool
    private let limiter: HostLimiter
    /// The endpoint's open connections (idle ones included: they hold a worker of a server that serves few).
    let ledger: ConnectionLedger
    private let state = Mutex(State())
    /// Counts the connections steps took, over every endpoint of a prober.
    private let taken: Counter?

    /// A count shared by the endpoints of one prober.
    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    init(enabled: Bool, limiter: HostLimiter, ledger: ConnectionLedger = ConnectionLedger(), taken: Counter? = nil) {
        self.enabled = enabled
        self.limiter = limiter
        self.ledger = ledger
        self.taken = taken
    }

    /// Connections opened ahead and closed without being used.
    var unused: Int { state.withLock { $0.unused } }

    /// Opens connections to `address` until `count` are ready, each on a free permit of `key` (a
    /// non-blocking connect each: no thread waits).
    func keep(_ count: Int, to address: SocketAddress, key: String) {
        guard enabled else { return }
        let missing = state.withLock { $0.closed ? 0 : max(0, count - $0.ready.count) }
        var opened: [Ready] = []
        for _ in 0..<missing {
            guard limiter.tryAcquire(key) else { break }
            let ticket = ledger.open(idle: true)
            guard let socket = try? TCPSocket.startConnect(to: address) else {
                ledger.close(ticket)
                limiter.release(key)
                break
            }
            opened.append(Ready(socket: socket, opened: .now, key: key, ticket: ticket))
        }
        guard !opened.isEmpty else { return }
        let late = state.withLock { state -> [Ready] in
            if state.closed { return opened }
            state.ready.append(contentsOf: opened)
            return []
        }
        for ready in late {  // closed meanwhile: never counted as opened
            ready.socket.descriptor.close()
            ledger.close(ready.ticket)
            limiter.release(key)
        }
    }

    /// The oldest ready connection that is young enough, with its permit; older ones are closed unused.
    /// Taken when a step is sent, not when its job runs, so that it goes to the step sent first.
    func take() -> Ready? {
        let (taken, stale) = state.withLock { state -> (Ready?, [Ready]) in
            let now = ContinuousClock.now
            var stale: [Ready] = []
            while !state.ready.isEmpty {
                let first = state.ready.removeFirst()
                if now - first.opened < Self.maximumAge { return (first, stale) }
                stale.append(first)
            }
            return (nil, stale)
        }
        discard(stale)
        if let taken {
            ledger.activate(taken.ticket)
            self.taken?.add()
        }
        return taken
    }

    /// Closes every connection not taken, giving back their permits; later ``keep(_:to:key:)`` calls open nothing.
    func closeAll() {
        let left = state.withLock { state -> [Ready] in
            state.closed = true
            defer { state.ready = [] }
            return state.ready
        }
        discard(left)
    }

    /// Closes the connections not taken now (a server that serves few connections may be holding a worker for
    /// each, waiting for a hello that is not coming); later ``keep(_:to:key:)`` calls may open others.
    func closeIdle() {
        discard(
            state.withLock { state -> [Ready] in
                defer { state.ready = [] }
                return state.ready
            })
    }

    /// Connections opened ahead and not taken yet.
    var idle: Int { state.withLock { $0.ready.count } }

    /// Marks in the ledger the idle connections whose TCP handshake has completed (the server's accept queue
    /// holds them), so that an answer on a later connection counts them.
    func noteEstablished() {
        for ready in state.withLock({ $0.ready }) where ready.socket.isEstablished { ledger.established(ready.ticket) }
    }

    /// Closes a connection that was taken but not used (its connect failed, or the endpoint's deadline
    /// passed): it counts as unused. Its permit stays with the step that took it.
    func giveUp(_ ready: Ready) {
        let established = Self.close(ready.socket)
        ledger.close(ready.ticket)
        if established { state.withLock { $0.unused += 1 } }
    }

    /// Closes `sockets` and gives back their permits. Only those whose TCP handshake completed count as
    /// unused: a connect still in progress (a server whose listen queue is full does not answer the SYN)
    /// never reached the server.
    private func discard(_ sockets: [Ready]) {
        guard !sockets.isEmpty else { return }
        var established = 0
        for ready in sockets {
            if Self.close(ready.socket) { established += 1 }
            ledger.close(ready.ticket)
            limiter.release(ready.key)
        }
        state.withLock { $0.unused += established }
    }

    /// Closes `socket` unused; true when its TCP handshake had completed (the server saw a connection).
    private static func close(_ socket: TCPSocket) -> Bool {
        let established = socket.isEstablished
        socket.descriptor.close()
        return established
    }
}
