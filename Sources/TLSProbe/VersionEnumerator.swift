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
    }

    let request: ProbeRequest
    let pool: ProbeThreadPool
    /// When a step that got no TLS answer is tried again.
    let retry: RetryPolicy
    private let state: Mutex<State>

    /// TCP connections made so far.
    var handshakes: Int { state.withLock { $0.handshakeCount } }
    /// Connections made to retry a step whose earlier connection was dropped.
    var retries: Int { state.withLock { $0.retryCount } }
    /// Connections that ended without a TLS answer (closed, reset, cut off or timed out).
    var drops: Int { state.withLock { $0.dropCount } }
    /// Every attempt so far, in completion order.
    var attempts: [ProbeAttempt] { state.withLock { $0.attemptLog } }

    init(request: ProbeRequest, addresses: [SocketAddress], pool: ProbeThreadPool, retry: RetryPolicy = .standard) {
        self.request = request
        self.pool = pool
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

    /// Runs one handshake on a probe thread and records it. The connection's timeout starts when the
    /// thread takes the job; the endpoint's deadline is absolute, so a job that waited still ends on time.
    /// Scan steps go through ``step(context:version:legacy:tls13:)``, which retries drops.
    /// - Parameter isRetry: whether this connection retries a dropped one (counted in ``retries``).
    func handshake(
        context: ClientContext, version: TLSVersion, legacy: [OfferedSuite], tls13: [CipherSuite], isRetry: Bool = false
    ) async -> HandshakeResult {
        let ran = await pool.run { [self] () -> HandshakeResult? in
            if endpointDeadline.hasPassed { return nil }
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

/// Finds every suite one protocol version accepts: offer all, note the server's choice, remove
/// it, repeat until the server refuses (accepted + 1 handshakes), then one reversed offer to
/// tell server order from client order (only when two or more suites were accepted).
///
/// Each step is retried while the server drops it (``RetryPolicy``); only a TLS-level refusal ends
/// the enumeration as complete or makes the version `supported: false`.
struct VersionEnumerator {
    let session: EndpointSession
    let version: TLSVersion

    struct Outcome {
        var result: ProtocolResult
        /// The first accepted handshake (its certificate chain is the one this version serves).
        var firstAccepted: HandshakeResult.Accepted?
        /// Why the version could not be judged, by failure class (drives the endpoint status).
        var failure: HandshakeResult.Outcome?
    }

    /// - Parameter seed: an accepted handshake already made with this version's full offer (the lead probe).
    func run(seed: HandshakeResult.Accepted? = nil) async -> Outcome {
        let version = self.version
        let isTLS13 = version == .tls1_3
        // OpenSSL set-up is work for a probe thread too (it may read configuration on first use).
        let prepared = await session.pool.run { () -> Result<(ClientContext, [OfferedSuite]), ProbeFailure> in
            do {
                let context = try ClientContext(minVersion: version, maxVersion: version)
                return .success((context, isTLS13
                    ? ClientContext.allTLS13Suites.map { OfferedSuite(suite: $0, openSSLName: $0.ianaName) }
                    : context.offerableLegacySuites()))
            } catch {
                return .failure(ProbeFailure(.local, "\(error)"))
            }
        }
        let context: ClientContext
        let fullOffer: [OfferedSuite]
        switch prepared {
        case .success(let value): (context, fullOffer) = value
        case .failure(let error):
            return Outcome(result: ProtocolResult(version: version, supported: nil, reason: "probe could not run: \(error)"),
                           firstAccepted: nil, failure: .notRun("\(error)"))
        }
        guard !fullOffer.isEmpty else {
            return Outcome(result: ProtocolResult(version: version, supported: nil,
                                                  reason: "the linked OpenSSL cannot offer any \(version) suite"),
                           firstAccepted: nil, failure: .notRun("nothing to offer"))
        }
        var remaining = fullOffer
        var accepted: [AcceptedCipherSuite] = []
        var first: HandshakeResult.Accepted?
        var complete = true
        var stopReason: HandshakeResult.Outcome?

        func take(_ a: HandshakeResult.Accepted) -> Bool {
            guard a.version == version, let index = remaining.firstIndex(where: { $0.suite == a.suite }) else { return false }
            remaining.remove(at: index)
            accepted.append(AcceptedCipherSuite(suite: a.suite, openSSLName: a.openSSLName, group: a.group, groupBits: a.groupBits))
            if first == nil { first = a }
            return true
        }

        if let seed { _ = take(seed) }
        while !remaining.isEmpty {
            let result = await session.step(
                context: context, version: version, legacy: isTLS13 ? [] : remaining,
                tls13: isTLS13 ? remaining.map(\.suite) : [])
            if let a = result.accepted {
                if take(a) { continue }
                stopReason = .protocolError("server chose \(a.version) \(a.suite.ianaName), which was not offered")
                complete = false
                break
            }
            // Only a TLS-level refusal (an alert, or a ServerHello for something not offered) says the
            // server declines what is left. A drop that outlived its retries leaves the rest unknown.
            stopReason = result.outcome
            if case .rejected = result.outcome {} else { complete = false }
            break
        }

        var protocolResult: ProtocolResult
        if accepted.isEmpty {
            switch stopReason {
            case .rejected(let why)?:
                protocolResult = ProtocolResult(version: version, supported: false, reason: why)
            case .closed(let why)?, .timeout(let why)?, .protocolError(let why)?, .unreachable(let why)?, .notRun(let why)?:
                protocolResult = ProtocolResult(version: version, supported: nil, reason: why, enumerationComplete: false)
            case .accepted?, nil:
                protocolResult = ProtocolResult(version: version, supported: nil, reason: "no result", enumerationComplete: false)
            }
            return Outcome(result: protocolResult, firstAccepted: nil, failure: stopReason)
        }
        protocolResult = ProtocolResult(version: version, supported: true, cipherSuites: accepted,
                                        enumerationComplete: complete)
        if !complete, let detail = stopReason?.detail { protocolResult.reason = "enumeration stopped early: \(detail)" }
        if accepted.count >= 2 {
            protocolResult.serverPreference = await serverPreference(context: context, fullOffer: fullOffer, accepted: accepted,
                                                               firstChoice: accepted[0].suite)
        }
        return Outcome(result: protocolResult, firstAccepted: first, failure: nil)
    }

    /// Offers the accepted suites in the reverse of the client's order. A server that follows the
    /// client picks the last of them; one that follows its own order picks its first choice again.
    private func serverPreference(
        context: ClientContext, fullOffer: [OfferedSuite], accepted: [AcceptedCipherSuite], firstChoice: CipherSuite
    ) async -> Bool? {
        let acceptedSet = Set(accepted.map(\.suite))
        let reversed = fullOffer.filter { acceptedSet.contains($0.suite) }.reversed().map { $0 }
        let isTLS13 = version == .tls1_3
        let result = await session.step(context: context, version: version, legacy: isTLS13 ? [] : reversed,
                                        tls13: isTLS13 ? reversed.map(\.suite) : [])
        guard let chosen = result.accepted?.suite else { return nil }
        return chosen == firstChoice
    }
}
