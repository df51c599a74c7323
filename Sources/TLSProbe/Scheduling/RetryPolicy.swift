import Foundation
import TLSModel

/// When a handshake that got no TLS answer is tried again (docs/architecture.md#the-probe: a drop is not a refusal).
///
/// A FIN, an RST, a handshake cut off mid-way or a timeout says nothing about what the server supports:
/// rate limiters, WAFs and overloaded load balancers do it to connections they would otherwise serve.
/// Such a step is retried after an exponential back-off with jitter (by default 50 ms, 100 ms, 200 ms,
/// 400 ms, each up to half as long again), never past the endpoint's deadline. A step that never gets an
/// answer is unknown (`supported: null`, or an incomplete suite list), never "not supported".
package struct RetryPolicy: Sendable, Hashable {
    /// Retries of one step after a close, reset or truncated handshake (so at most `maxRetries + 1` connections).
    package var maxRetries: Int
    /// Retries of one step after a timeout: each costs a whole per-connection timeout, so fewer.
    package var maxTimeoutRetries: Int
    /// The pause before the first retry, in seconds; each later pause doubles it.
    package var initialDelay: Double
    /// The most a pause is lengthened at random, as a share of it (0.5: up to half as long again), so
    /// chains that were dropped together do not come back together.
    package var jitter: Double

    /// A policy.
    /// - Parameters:
    ///   - maxRetries: retries of one step after a close, reset or truncation (default 4).
    ///   - maxTimeoutRetries: retries of one step after a timeout (default 1).
    ///   - initialDelay: the first pause, seconds (default 0.05); it doubles for each later retry.
    ///   - jitter: the random lengthening of each pause, as a share of it (default 0.5).
    package init(maxRetries: Int = 4, maxTimeoutRetries: Int = 1, initialDelay: Double = 0.05, jitter: Double = 0.5) {
        self.maxRetries = max(0, maxRetries)
        self.maxTimeoutRetries = max(0, min(maxTimeoutRetries, maxRetries))
        self.initialDelay = max(0, initialDelay)
        self.jitter = max(0, jitter)
    }

    /// The default: 4 retries (1 after a timeout), from 50 ms, doubling, with up to 50% jitter.
    package static let standard = RetryPolicy()

    /// No retries: every drop ends its step as unknown at once.
    package static let never = RetryPolicy(maxRetries: 0)

    /// The pause before retry number `retry` (1 for the first), jitter included.
    func delay(beforeRetry retry: Int) -> Double {
        let base = initialDelay * Double(1 << min(max(0, retry - 1), 16))
        return base * (1 + Double.random(in: 0...1) * jitter)
    }
}

extension HandshakeResult {
    /// No TLS answer: closed, reset, cut off mid-handshake or timed out. Not evidence of anything,
    /// so the step is retried; never read as a refusal.
    var isDrop: Bool {
        switch outcome {
        case .dropped, .silent: return true
        case .answered, .refused, .unreachable, .notTLS, .broken, .notRun, .proxyFailed: return false
        }
    }

    /// The proxy did not open the tunnel for a reason that may pass (a 502, 503 or 504, or a close before it
    /// answered): the step is tried again under the same policy as a drop, but it is not counted as one, since the
    /// server never saw the connection.
    var isRetryableProxyFailure: Bool {
        if case .proxyFailed(_, retryable: true) = outcome { return true }
        return false
    }

    /// A connect the server refused (or never answered) before any connection was made.
    var isRefusedConnect: Bool {
        if case .unreachable = outcome { return true }
        return false
    }

    /// Closed (FIN or RST) before the server sent a single byte.
    var closedSilently: Bool {
        if case .dropped(let drop) = outcome { return drop.isSilent }
        return false
    }

    /// Closed in order (FIN), not reset, after the ClientHello was sent and before the server sent a byte: how
    /// some servers refuse (``EndpointSession/refusesByClosing()``).
    var closedWithoutAnswer: Bool {
        if case .dropped(let drop) = outcome {
            return drop.isSilent && drop.signal == .closed && drop.phase == .handshake
        }
        return false
    }
}

extension EndpointSession {
    /// One step of a scan: a handshake, retried under the prober's ``RetryPolicy`` while it ends in a
    /// drop, within the endpoint's deadline. Returns the first TLS answer, or the last drop with a
    /// reason that says how many attempts were made.
    ///
    /// A drop (or a refused connect) of a connection made while others to the endpoint were open is not
    /// evidence (issue 20): the server may serve fewer connections at once. The address's window is narrowed
    /// (``noteOverlappedDrop()``) and the step is tried again alone (``HostLimiter/withSolo(_:_:)``), as are
    /// its later retries; only drops of connections that had the server to themselves count toward the policy.
    /// - Parameter permit: the per-host cap's key of the permit the caller holds (given back while the step
    ///   waits for its solo turn); nil: the endpoint's ``limitKey``.
    func step(
        context: ClientContext, version: TLSVersion, legacy: [OfferedSuite], tls13: [CipherSuite],
        ready: PreconnectedSockets.Ready? = nil, permit: String? = nil
    ) async -> HandshakeResult {
        await step(.openSSL(context, legacy: legacy, tls13: tls13), ready: ready, permit: permit)
    }

    /// One step carrying `exchange` (see the overload above).
    func step(
        _ exchange: Exchange, ready: PreconnectedSockets.Ready? = nil, permit: String? = nil
    ) async -> HandshakeResult {
        let permit = permit ?? limitKey
        var attempts = 0
        var counted = 0
        var silentCloses = 0
        var timeouts = 0
        var solo = false
        let retry = effectiveRetry
        while true {
            let isRetry = attempts > 0
            var result =
                solo
                ? await alone(permit) { await handshake(exchange, isRetry: isRetry) }
                : await handshake(exchange, isRetry: isRetry, ready: isRetry ? nil : ready)
            attempts += 1
            // A server that answers every ClientHello it cannot serve with a silent close has said no (issue 35),
            // whether or not other connections were open.
            if result.closedWithoutAnswer, await (solo ? refusesByClosing() : refusesByClosing(holding: permit)) {
                result.outcome = .refused(.closedWithoutAlert)
                return result
            }
            if !solo, result.overlapped, result.isDrop || result.isRefusedConnect {
                noteOverlappedDrop()
                solo = true
                continue
            }
            guard result.isDrop || result.isRetryableProxyFailure else { return result }
            counted += 1
            if result.closedSilently { silentCloses += 1 }
            if case .silent = result.outcome { timeouts += 1 }
            let retries = counted - 1
            let delay = retry.delay(beforeRetry: retries + 1)
            let exhausted = retries >= retry.maxRetries || timeouts > retry.maxTimeoutRetries
            // A retry must leave time for a handshake before the endpoint's deadline.
            let pastDeadline = Double(endpointDeadline.remainingMilliseconds) / 1000 <= delay + 0.01
            if exhausted || pastDeadline {
                result.outcome = Self.gaveUp(result.outcome, attempts: counted, silentCloses: silentCloses)
                return result
            }
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        }
    }

    /// Runs `body` with the endpoint's address to itself: the caller's permit (`permit`) is given back while it
    /// waits for every other connection to the address to end, and taken again after.
    func alone<T>(_ permit: String, _ body: () async -> T) async -> T {
        limiter.release(permit)
        let result = await limiter.withSolo(limitKey, body)
        await limiter.acquire(permit)
        return result
    }

    /// The last drop of a step that never got an answer, saying how often it was tried (and, for a drop, whether
    /// every attempt was closed before the server sent a byte: `silentCloses` of them).
    static func gaveUp(_ outcome: HandshakeResult.Outcome, attempts: Int, silentCloses: Int) -> HandshakeResult.Outcome
    {
        guard attempts > 1 else { return outcome }
        switch outcome {
        case .dropped(var drop):
            drop.attempts = attempts
            drop.everyAttemptSilent = silentCloses == attempts
            return .dropped(drop)
        case .silent(var silence):
            silence.attempts = attempts
            return .silent(silence)
        case .proxyFailed(let why, let retryable):
            return .proxyFailed("\(why) (\(attempts) attempts)", retryable: retryable)
        default: return outcome
        }
    }
}
