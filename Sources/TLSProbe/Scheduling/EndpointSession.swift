import Foundation
import Synchronization
import TLSModel

/// Shared state of one endpoint scan: the handshake count, the drops and retries and the address that
/// answered. Version chains run concurrently (each handshake a job on the probe pool) and report here.
final class EndpointSession: Sendable {
    private struct State {
        var startedDeadline: Deadline?
        var addresses: [SocketAddress]
        var handshakeCount = 0
        var retryCount = 0
        /// Connections that asked how the server refuses (``refusesByClosing()``).
        var refusalProbeCount = 0
        var dropCount = 0
        /// Set once the lead step was closed silently on every attempt: the server is not dropping at
        /// random but closing on everything, so later steps are retried once, not `retry.maxRetries` times.
        var closesEverything = false
        /// Steps sent that wait for a per-host permit (``claimSlot()``).
        var stepsWaitingForPermit = 0
        /// How many connections at once the scan was held to because the server showed it serves no more
        /// (issue 20): what it had shown when a connection stalled behind idle ones opened ahead (1 for a server
        /// that serves one at a time), or the narrowed window after a drop of a connection made while others were
        /// open. Nil: the server showed no limit.
        var limitedTo: Int?
        /// How long the first fresh connection's TCP connect took (a round trip: ``watch()`` scales with it).
        var firstConnectTime: Duration?
        /// The running ``watch()``, while connections opened ahead are idle.
        var watchdog: Task<Void, Never>?
        /// The scan has ended: no watchdog is started again.
        var finished = false
        /// A connection of the endpoint got a TLS answer (a ServerHello, a HelloRetryRequest or an alert): the
        /// server speaks TLS, so a silent close may be how it says no (``refusesByClosing()``).
        var sawTLS = false
        /// How the server answers a ClientHello it cannot serve, asked once (``refusesByClosing()``).
        var refusalStyle: Task<Bool, Never>?
        /// The answer, once known.
        var refusesByClosing: Bool?
        /// The first exchange the server answered with a ServerHello: the control of ``refusesByClosing()``.
        var answeredExchange: Exchange?
    }

    let request: ProbeRequest
    let pool: ProbeThreadPool
    /// The per-host cap: a chain of handshakes holds one of its address's permits while it runs.
    let limiter: HostLimiter
    /// When a step that got no TLS answer is tried again (see ``effectiveRetry``).
    let retry: RetryPolicy
    /// Spaces connection starts to one address (`--delay`).
    let pacer: ConnectionPacer
    /// Connections opened ahead of enumeration steps (off with `--no-preconnect` or `--delay`).
    let preconnected: PreconnectedSockets
    /// The endpoint's open connections: which overlapped, and how many the server has shown it serves at once.
    var ledger: ConnectionLedger { preconnected.ledger }
    private let state: Mutex<State>

    /// The retry policy for the next step: the prober's, or at most one retry once the server has closed
    /// every attempt of the lead step without a byte (a peer that closes everything would otherwise cost
    /// `maxRetries + 1` connections per version; one retry per version still catches a version-intolerant
    /// server that closes only the lead's offer).
    var effectiveRetry: RetryPolicy {
        guard state.withLock({ $0.closesEverything }) else { return retry }
        var reduced = retry
        reduced.maxRetries = min(retry.maxRetries, 1)
        reduced.maxTimeoutRetries = min(retry.maxTimeoutRetries, reduced.maxRetries)
        return reduced
    }

    /// Records that the lead step was closed silently on all of its attempts.
    func noteClosesEverything() { state.withLock { $0.closesEverything = true } }

    /// TCP connections made so far.
    var handshakes: Int { state.withLock { $0.handshakeCount } }
    /// Connections made to retry a step whose earlier connection was dropped.
    var retries: Int { state.withLock { $0.retryCount } }
    /// Connections that asked how the server refuses (``refusesByClosing()``).
    var refusalProbes: Int { state.withLock { $0.refusalProbeCount } }
    /// Connections that ended without a TLS answer (closed, reset, cut off or timed out).
    var drops: Int { state.withLock { $0.dropCount } }
    /// Connections opened ahead of a step and closed unused (``PreconnectedSockets``).
    var unusedConnections: Int { preconnected.unused }
    /// How many connections at once the server showed it serves, when that held the scan back (nil: no limit seen).
    var limitedTo: Int? { state.withLock { $0.limitedTo } }
    /// How many connections of the endpoint's address may be open at once now (the per-host cap until the
    /// server shows it serves fewer).
    var window: Int { limiter.window(limitKey) }

    init(
        request: ProbeRequest, addresses: [SocketAddress], pool: ProbeThreadPool, limiter: HostLimiter,
        retry: RetryPolicy = .standard, pacer: ConnectionPacer = .none, preconnect: Bool = true,
        preconnectsTaken: PreconnectedSockets.Counter? = nil
    ) {
        self.pacer = pacer
        self.preconnected = PreconnectedSockets(
            enabled: preconnect && pacer.interval == .zero, limiter: limiter,
            taken: preconnectsTaken)
        self.request = request
        self.pool = pool
        self.limiter = limiter
        self.retry = retry
        self.state = Mutex(State(addresses: addresses))
    }

    /// Keeps `count` connections opened ahead to the endpoint's one address (none while a name has several
    /// and none has answered yet), each on a free permit of the per-host cap. None while a step of this
    /// endpoint waits for a permit: a connection opened ahead is taken only by a step sent later, so it
    /// must never hold the permit a step already sent is waiting for.
    ///
    /// An idle connection holds a worker of a server that serves few connections at once (issue 20). Once a
    /// step has stalled while idle ones were open (``watch()``), or a connection was dropped while
    /// others were open, at most the server's shown concurrency less one are kept (``ConnectionLedger``).
    func keepPreconnected(_ count: Int) {
        guard let address = connectedAddress, !endpointDeadline.hasPassed,
            state.withLock({ $0.stepsWaitingForPermit == 0 })
        else { return }
        let allowed = ledger.stalled ? min(count, ledger.shownConcurrency - 1) : count
        guard allowed > 0 else { return }
        preconnected.keep(allowed, to: address, key: limitKey)
        if preconnected.idle > 0 { ensureWatched() }
    }

    /// Starts ``watch()`` unless it runs (or the scan has ended).
    private func ensureWatched() {
        state.withLock { state in
            guard state.watchdog == nil, !state.finished else { return }
            state.watchdog = Task { [self] in await watch() }
        }
    }

    /// Stops ``watch()`` for good: the scan has ended.
    func stopWatching() {
        state.withLock { state in
            state.finished = true
            state.watchdog?.cancel()
            state.watchdog = nil
        }
    }

    /// The least time a connection that has sent its hello waits, while connections opened ahead are idle,
    /// before the server is taken to be serving those instead (``watch()``).
    static let stallFloor = 1.0
    /// The stall time in TCP-connect round trips, when that is longer than ``stallFloor``.
    static let stallRoundTrips = 8.0
    /// How often ``watch()`` looks.
    static let watchInterval: Duration = .milliseconds(50)

    /// Watches the endpoint's connections while connections opened ahead are idle (started by
    /// ``keepPreconnected(_:)``; it ends when none is, and is started again with the next). A server that serves one
    /// connection at a time (or a
    /// few) takes connections in order: one opened ahead and idle holds it while a later connection's hello
    /// waits in its queue. When a connection has waited for an answer `max(1 s, 8 TCP-connect round trips)` (at
    /// most half the connection timeout) while idle ones are open, they are closed, the server is taken to
    /// serve what it has shown (``ConnectionLedger/shownConcurrency``; 1 when the lead stalled), and no more
    /// than that less one are opened ahead again.
    func watch() async {
        let timeout = request.timeout
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.watchInterval)
            // Ends when nothing is idle; checked under the session's lock, so a connection opened ahead after it
            // starts another (``ensureWatched()``).
            let idle = state.withLock { state -> Bool in
                if preconnected.idle > 0 { return true }
                state.watchdog = nil
                return false
            }
            guard idle else { return }
            guard let wait = ledger.longestWait() else { continue }
            let connect = state.withLock { $0.firstConnectTime } ?? .zero
            let stall = min(
                .seconds(max(0.05, timeout / 2)), max(.seconds(Self.stallFloor), connect * Self.stallRoundTrips))
            guard wait >= stall else { continue }
            preconnected.closeIdle()
            ledger.noteStall()
            noteLimit(ledger.shownConcurrency)
        }
    }

    /// Records that the scan was held to `count` connections at once (the lowest such limit is reported).
    private func noteLimit(_ count: Int) {
        state.withLock { $0.limitedTo = min($0.limitedTo ?? count, count) }
    }

    /// A connection made while others were open was dropped (``step(context:version:legacy:tls13:ready:permit:)``):
    /// the server may serve fewer at once. The address's window is narrowed to the connections still open (they
    /// are being served), and idle connections opened ahead are closed.
    func noteOverlappedDrop() {
        let others = ledger.openCount
        limiter.narrow(limitKey, to: max(1, others))
        let window = limiter.window(limitKey)
        ledger.noteStall(serving: window)
        preconnected.closeIdle()
        noteLimit(window)
    }

    /// Closes the connections opened ahead that no step took.
    func closePreconnected() { preconnected.closeAll() }

    /// A step's place under the per-host cap, claimed when the step is sent (see ``claimSlot()``).
    enum Slot: Sendable {
        /// A connection opened ahead, with its permit.
        case ready(PreconnectedSockets.Ready)
        /// A permit taken at once.
        case reserved(key: String)
        /// No permit free: the step waits for one when it runs.
        case waiting(key: String)

        var ready: PreconnectedSockets.Ready? {
            if case .ready(let ready) = self { return ready }
            return nil
        }

        /// The per-host cap's key of the permit the step holds while it runs.
        var key: String {
            switch self {
            case .ready(let ready): return ready.key
            case .reserved(let key), .waiting(let key): return key
            }
        }
    }

    /// The place of a step sent now: the oldest connection opened ahead (opened in an earlier round, so its
    /// connect has had time), else a free permit, else a wait for one. Claimed synchronously when the step is
    /// sent, so connections opened ahead afterwards (``keepPreconnected(_:)``) never take a permit first.
    func claimSlot() -> Slot {
        if let ready = preconnected.take() { return .ready(ready) }
        let key = limitKey
        if limiter.tryAcquire(key) { return .reserved(key: key) }
        state.withLock { $0.stepsWaitingForPermit += 1 }
        return .waiting(key: key)
    }

    /// Runs `body` within the per-host cap, on the permit `slot` holds or on one waited for; gives it back at the end.
    func withSlot<T>(_ slot: Slot, _ body: () async -> T) async -> T {
        switch slot {
        case .ready(let ready): return await limiter.withHeldPermit(ready.key, body)
        case .reserved(let key): return await limiter.withHeldPermit(key, body)
        case .waiting(let key):
            return await limiter.withPermit(key) {
                state.withLock { $0.stepsWaitingForPermit -= 1 }
                return await body()
            }
        }
    }

    /// The endpoint's overall deadline. Its clock starts at the first connection, i.e. once a
    /// per-host permit is held and a probe thread runs it: time spent waiting for other endpoints
    /// of the same address does not count.
    var endpointDeadline: Deadline {
        state.withLock { state in
            if let started = state.startedDeadline { return started }
            let deadline = Deadline.after(seconds: request.deadline)
            state.startedDeadline = deadline
            return deadline
        }
    }

    var connectAddresses: [SocketAddress] { state.withLock { $0.addresses } }

    var connectedAddress: SocketAddress? { state.withLock { $0.addresses.count == 1 ? $0.addresses[0] : nil } }

    /// The per-host cap's key: the address the next connection goes to first (the one that answered,
    /// once one has). Through a proxy, what the proxy is asked to connect to: the cap (and `--delay`) is per
    /// server, not one for every endpoint behind the proxy.
    var limitKey: String {
        if request.proxy != nil { return "CONNECT \(request.tunnelAuthority)" }
        return connectAddresses.first?.description ?? request.target.hostPort
    }

    /// The CONNECT tunnel each connection opens before its handshake (nil: direct).
    var tunnel: ProxyTunnel? { request.proxy.map { ProxyTunnel(proxy: $0, authority: request.tunnelAuthority) } }

    /// The deadline of the next connection: the per-connection timeout, capped by the endpoint's deadline.
    func nextDeadline() -> Deadline {
        Deadline.earliest(Deadline.after(seconds: request.timeout), endpointDeadline)
    }

    /// Runs one handshake on the endpoint's event loop and records it. The connection's timeout starts when its
    /// turn comes (``ConnectionPacer``); the endpoint's deadline is absolute.
    /// Scan steps go through ``step(context:version:legacy:tls13:)``, which retries drops.
    /// - Parameters:
    ///   - isRetry: whether this connection retries a dropped one (counted in ``retries``).
    ///   - ready: a connection opened ahead for this handshake (``PreconnectedSockets``); nil: connect now.
    /// - Parameter isRefusalProbe: a connection of ``refusesByClosing()`` (counted in ``refusalProbes``).
    func handshake(
        _ exchange: Exchange, isRetry: Bool = false, isRefusalProbe: Bool = false,
        ready: PreconnectedSockets.Ready? = nil
    ) async -> HandshakeResult {
        let turn = await pacer.takeTurn(limitKey)
        let ran = await { [self] () async -> HandshakeResult? in
            if endpointDeadline.hasPassed {
                if let ready { preconnected.giveUp(ready) }
                turn.skip()
                return nil
            }
            turn.started()
            let deadline = nextDeadline()
            var connected: TCPSocket?
            var ticket: ConnectionLedger.Ticket?
            if let ready {
                do {
                    try await ready.socket.finishConnect(deadline: deadline)
                    connected = ready.socket
                    ticket = ready.ticket
                    ledger.established(ready.ticket)
                } catch let failure as ProbeFailure where failure.kind == .closed {
                    // Reset at once, as a fresh connection would have been: the same drop (the proxy's, through one).
                    ready.socket.descriptor.close()
                    let outcome: HandshakeResult.Outcome =
                        tunnel.map { .proxyFailed("\($0.name): \(failure.reason)", retryable: true) }
                        ?? .dropped(.init(signal: .reset, afterBytes: 0, phase: .connect(failure.reason)))
                    var result = HandshakeResult(outcome: outcome, address: ready.socket.address, connected: true)
                    result.overlapped = ledger.close(ready.ticket)
                    record(result, exchange: exchange, isRetry: isRetry, isRefusalProbe: isRefusalProbe)
                    return result
                } catch {
                    preconnected.giveUp(ready)  // never connected: connect afresh below
                }
            }
            if ticket == nil { preconnected.noteEstablished() }  // those established now are ahead of this one
            let own = ticket ?? ledger.open()
            let connectStarted = ContinuousClock.now
            let fresh = connected == nil
            let handshaker = Handshaker(sni: request.effectiveSNI, tunnel: tunnel)
            var overlapped: Bool?
            var result = await handshaker.run(
                exchange, addresses: connectAddresses, deadline: deadline, connected: connected,
                onConnected: { [self] fd in
                    ledger.established(own, fd: fd)
                    if fresh { noteConnect(took: ContinuousClock.now - connectStarted) }
                },
                beforeClose: { [self] answered, serverWaiting in
                    if answered { ledger.answered(own) }
                    if serverWaiting { ledger.closingServed(own) }
                    overlapped = ledger.close(own)
                })
            result.overlapped = overlapped ?? ledger.close(own)  // no connection was made: closed here
            record(result, exchange: exchange, isRetry: isRetry, isRefusalProbe: isRefusalProbe)
            return result
        }()
        return ran
            ?? HandshakeResult(
                outcome: .silent(.init(phase: .endpointDeadline)), address: nil, connected: false)
    }

    /// Keeps the first fresh connection's TCP-connect time: the stall time of ``watch()`` scales with it.
    private func noteConnect(took: Duration) {
        state.withLock { if $0.firstConnectTime == nil { $0.firstConnectTime = took } }
    }

    private func record(_ result: HandshakeResult, exchange: Exchange, isRetry: Bool, isRefusalProbe: Bool) {
        state.withLock { state in
            switch result.outcome {
            case .answered:
                state.sawTLS = true
                if state.answeredExchange == nil { state.answeredExchange = exchange }
            case .refused(.alert): state.sawTLS = true
            default: break
            }
            if result.connected {
                state.handshakeCount += 1
                if isRetry { state.retryCount += 1 }
                if isRefusalProbe { state.refusalProbeCount += 1 }
                if result.isDrop { state.dropCount += 1 }
            }
            // stick to the one that answered
            if let address = result.address, state.addresses.count > 1 { state.addresses = [address] }
        }
    }
}

// An `SSL_CTX` is configured once, before any handshake, and only read afterwards (`SSL_new`), which
// OpenSSL allows from any thread: a version chain hands its context from one probe-pool job to the next.
extension ClientContext: @unchecked Sendable {}

extension EndpointSession {
    /// Rounds of the refusal-style question that must each show a silent close of a hello no server accepts
    /// beside an answer to one the server accepted, before a silent close is taken as the server's "no".
    static let refusalStyleRounds = 3

    /// Whether this server refuses a ClientHello it cannot serve by closing the connection without an alert, as
    /// lighttpd's GnuTLS module does on every refusal (issue 35): then a silent close of a step is its "no", not a
    /// drop to retry. Asked once per endpoint, when a step of a server that has spoken TLS is first closed that
    /// way. Each round sends two hellos one after the other: the canary, a ClientHello of our own offering only a
    /// GREASE suite, which no server accepts (RFC 8701), and the control, the first exchange the server answered.
    /// A canary answered with an alert (or any TLS answer) says the server refuses with alerts: its silent closes
    /// stay drops. A round whose control was answered and whose canary was closed silently counts; a round whose
    /// control was dropped too says nothing (a rate limiter, an overloaded server). ``refusalStyleRounds`` such
    /// rounds say the server refuses by closing. The two go in alternating order, so a relay that closes every
    /// other connection never passes; one that drops at random passes only if it drops three canaries and none of
    /// their controls. Their connections are counted apart (``refusalProbes``), neither steps nor retries.
    func refusesByClosing() async -> Bool {
        let task: Task<Bool, Never>? = state.withLock { state in
            guard state.sawTLS, state.answeredExchange != nil else { return nil }
            if let task = state.refusalStyle { return task }
            let task = Task { await self.askRefusalStyle() }
            state.refusalStyle = task
            return task
        }
        return await task?.value ?? false
    }

    /// ``refusesByClosing()`` for a step that holds `permit` among other connections: the question is asked with the
    /// address to itself (a server that serves few connections at once closes the ones beyond, which would read as
    /// its refusals), unless it is already answered.
    func refusesByClosing(holding permit: String) async -> Bool {
        let known = state.withLock { state -> Bool? in
            guard state.sawTLS, state.answeredExchange != nil else { return false }
            return state.refusesByClosing
        }
        if let known { return known }
        return await alone(permit) { await refusesByClosing() }
    }

    private func askRefusalStyle() async -> Bool {
        let answer = await askedRefusalStyle()
        state.withLock { $0.refusesByClosing = answer }
        return answer
    }

    private func askedRefusalStyle() async -> Bool {
        guard let control = state.withLock({ $0.answeredExchange }) else { return false }
        let canary = Exchange.hello(.refusalCanary(sni: request.effectiveSNI))
        var shown = 0
        for round in 0..<(Self.refusalStyleRounds + 2) {
            var canaryAnswer: HandshakeResult
            var controlAnswer: HandshakeResult
            if round % 2 == 0 {
                controlAnswer = await handshake(control, isRefusalProbe: true)
                canaryAnswer = await handshake(canary, isRefusalProbe: true)
            } else {
                canaryAnswer = await handshake(canary, isRefusalProbe: true)
                if !canaryAnswer.closedWithoutAnswer && !canaryAnswer.isDrop { return false }
                controlAnswer = await handshake(control, isRefusalProbe: true)
            }
            switch canaryAnswer.outcome {
            case .answered, .refused: return false  // it answers what it cannot serve in TLS
            default: break
            }
            if canaryAnswer.closedWithoutAnswer && controlAnswer.accepted != nil {
                shown += 1
                if shown == Self.refusalStyleRounds { return true }
            } else {
                try? await Task.sleep(nanoseconds: UInt64(retry.delay(beforeRetry: round + 1) * 1e9))
            }
        }
        return false
    }
}
