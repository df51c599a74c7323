import Foundation
import Synchronization
import TLSModel

/// Shared state of one endpoint scan: the handshake count, the attempt log and the address that
/// answered. Version chains run concurrently (each handshake a job on the probe pool) and report here.
final class EndpointSession: Sendable {
    private struct State {
        var startedDeadline: Deadline?
        var addresses: [SocketAddress]
        var handshakeCount = 0
        var retryCount = 0
        var dropCount = 0
        var attemptLog: [ProbeAttempt] = []
        /// Set once the lead step was closed silently on every attempt: the server is not dropping at
        /// random but closing on everything, so later steps are retried once, not `retry.maxRetries` times.
        var closesEverything = false
        /// Steps sent that wait for a per-host permit (``claimSlot()``).
        var stepsWaitingForPermit = 0
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
    /// Connections that ended without a TLS answer (closed, reset, cut off or timed out).
    var drops: Int { state.withLock { $0.dropCount } }
    /// Connections opened ahead of a step and closed unused (``PreconnectedSockets``).
    var unusedConnections: Int { preconnected.unused }
    /// Every attempt so far, in completion order.
    var attempts: [ProbeAttempt] { state.withLock { $0.attemptLog } }

    init(
        request: ProbeRequest, addresses: [SocketAddress], pool: ProbeThreadPool, limiter: HostLimiter,
        retry: RetryPolicy = .standard, pacer: ConnectionPacer = .none, preconnect: Bool = true,
        preconnectsTaken: PreconnectedSockets.Counter? = nil
    ) {
        self.pacer = pacer
        self.preconnected = PreconnectedSockets(enabled: preconnect && pacer.interval == .zero, limiter: limiter,
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
    func keepPreconnected(_ count: Int) {
        guard let address = connectedAddress, !endpointDeadline.hasPassed,
              state.withLock({ $0.stepsWaitingForPermit == 0 }) else { return }
        preconnected.keep(count, to: address, key: address.description)
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
    /// once one has).
    var limitKey: String { connectAddresses.first?.description ?? request.target.hostPort }

    /// The deadline of the next connection: the per-connection timeout, capped by the endpoint's deadline.
    func nextDeadline() -> Deadline {
        Deadline.earliest(Deadline.after(seconds: request.timeout), endpointDeadline)
    }

    /// Runs one handshake on a probe thread and records it. The connection's timeout starts when the thread takes the job; the endpoint's
    /// deadline is absolute, so a job that waited still ends on time.
    /// Scan steps go through ``step(context:version:legacy:tls13:)``, which retries drops.
    /// - Parameters:
    ///   - isRetry: whether this connection retries a dropped one (counted in ``retries``).
    ///   - ready: a connection opened ahead for this handshake (``PreconnectedSockets``); nil: connect now.
    func handshake(
        context: ClientContext, version: TLSVersion, legacy: [OfferedSuite], tls13: [CipherSuite], isRetry: Bool = false,
        ready: PreconnectedSockets.Ready? = nil
    ) async -> HandshakeResult {
        let turn = await pacer.takeTurn(limitKey)
        let ran = await pool.run { [self] () -> HandshakeResult? in
            if endpointDeadline.hasPassed {
                if let ready { preconnected.giveUp(ready.socket) }
                turn.skip()
                return nil
            }
            turn.started()
            let deadline = nextDeadline()
            var connected: TCPSocket?
            if let ready = ready?.socket {
                do {
                    try ready.finishConnect(deadline: deadline)
                    connected = ready
                } catch let failure as ProbeFailure where failure.kind == .closed {
                    // Reset at once, as a fresh connection would have been: the same drop.
                    ready.descriptor.close()
                    let result = HandshakeResult(outcome: .closed(failure.reason), address: ready.address, connected: true)
                    record(result, version: version, offered: legacy.count + tls13.count, isRetry: isRetry)
                    return result
                } catch {
                    preconnected.giveUp(ready)  // never connected: connect afresh below
                }
            }
            let handshaker = Handshaker(sni: request.effectiveSNI)
            let result = handshaker.run(context: context, legacySuites: legacy, tls13Suites: tls13,
                                        addresses: connectAddresses, deadline: deadline, connected: connected)
            record(result, version: version, offered: legacy.count + tls13.count, isRetry: isRetry)
            return result
        }
        return ran ?? HandshakeResult(outcome: .timeout("the endpoint's overall deadline passed"), address: nil, connected: false)
    }

    private func record(_ result: HandshakeResult, version: TLSVersion, offered: Int, isRetry: Bool) {
        state.withLock { state in
            if result.connected {
                state.handshakeCount += 1
                if isRetry { state.retryCount += 1 }
                if result.isDrop { state.dropCount += 1 }
            }
            if let address = result.address, state.addresses.count > 1 { state.addresses = [address] }  // stick to the one that answered
            state.attemptLog.append(ProbeAttempt(version: version, offered: offered,
                                                 outcome: result.outcome.attemptOutcome, detail: result.outcome.detail))
        }
    }
}

// An `SSL_CTX` is configured once, before any handshake, and only read afterwards (`SSL_new`), which
// OpenSSL allows from any thread: a version chain hands its context from one probe-pool job to the next.
extension ClientContext: @unchecked Sendable {}

extension HandshakeResult.Outcome {
    var attemptOutcome: ProbeAttempt.Outcome {
        switch self {
        case .accepted: return .accepted
        case .rejected: return .rejected
        case .closed: return .closed
        case .timeout: return .timeout
        case .unreachable: return .unreachable
        case .protocolError: return .protocolError
        case .notRun: return .notRun
        }
    }

    var detail: String? {
        switch self {
        case .accepted(let a): return "\(a.version) \(a.suite.ianaName)"
        case .rejected(let s), .closed(let s), .timeout(let s), .unreachable(let s), .protocolError(let s), .notRun(let s):
            return s
        }
    }
}
