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
    }

    let request: ProbeRequest
    let pool: ProbeThreadPool
    /// The per-host cap: a chain of handshakes holds one of its address's permits while it runs.
    let limiter: HostLimiter
    /// When a step that got no TLS answer is tried again (see ``effectiveRetry``).
    let retry: RetryPolicy
    /// Spaces connection starts to one address (`--delay`).
    let pacer: ConnectionPacer
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
    /// Every attempt so far, in completion order.
    var attempts: [ProbeAttempt] { state.withLock { $0.attemptLog } }

    init(
        request: ProbeRequest, addresses: [SocketAddress], pool: ProbeThreadPool, limiter: HostLimiter,
        retry: RetryPolicy = .standard, pacer: ConnectionPacer = .none
    ) {
        self.pacer = pacer
        self.request = request
        self.pool = pool
        self.limiter = limiter
        self.retry = retry
        self.state = Mutex(State(addresses: addresses))
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
    /// - Parameter isRetry: whether this connection retries a dropped one (counted in ``retries``).
    func handshake(
        context: ClientContext, version: TLSVersion, legacy: [OfferedSuite], tls13: [CipherSuite], isRetry: Bool = false
    ) async -> HandshakeResult {
        let turn = await pacer.takeTurn(limitKey)
        let ran = await pool.run { [self] () -> HandshakeResult? in
            if endpointDeadline.hasPassed {
                turn.skip()
                return nil
            }
            turn.started()
            let handshaker = Handshaker(sni: request.effectiveSNI)
            let result = handshaker.run(context: context, legacySuites: legacy, tls13Suites: tls13,
                                        addresses: connectAddresses, deadline: nextDeadline())
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
