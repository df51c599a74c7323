import Foundation
import TLSModel

/// Shared, lock-protected state of one endpoint scan: the handshake count, the attempt log and
/// the address that answered. Version enumerations run on separate threads and report here.
final class EndpointSession: @unchecked Sendable {  // all mutable state is guarded by `lock`
    let request: ProbeRequest
    private let lock = NSLock()
    private var startedDeadline: Deadline?
    private var addresses: [SocketAddress]
    private var handshakeCount = 0
    private var attemptLog: [ProbeAttempt] = []

    /// TCP connections made so far.
    var handshakes: Int { lock.withLock { handshakeCount } }
    /// Every attempt so far, in completion order.
    var attempts: [ProbeAttempt] { lock.withLock { attemptLog } }

    init(request: ProbeRequest, addresses: [SocketAddress]) {
        self.request = request
        self.addresses = addresses
    }

    /// The endpoint's overall deadline. Its clock starts at the first handshake, i.e. once a per-host
    /// permit is held: time spent waiting for other endpoints of the same host does not count.
    var endpointDeadline: Deadline {
        lock.withLock {
            if let startedDeadline { return startedDeadline }
            let deadline = Deadline.after(seconds: request.deadline)
            startedDeadline = deadline
            return deadline
        }
    }

    var connectAddresses: [SocketAddress] { lock.withLock { addresses } }

    var connectedAddress: SocketAddress? { lock.withLock { addresses.count == 1 ? addresses[0] : nil } }

    /// The deadline of the next connection: the per-connection timeout, capped by the endpoint's deadline.
    func nextDeadline() -> Deadline {
        Deadline.earliest(Deadline.after(seconds: request.timeout), endpointDeadline)
    }

    /// Runs one handshake and records it.
    func handshake(
        context: ClientContext, version: TLSVersion, legacy: [OfferedSuite], tls13: [CipherSuite]
    ) -> HandshakeResult {
        if endpointDeadline.hasPassed {
            return HandshakeResult(outcome: .timeout("the endpoint's overall deadline passed"), address: nil, connected: false)
        }
        let handshaker = Handshaker(sni: request.effectiveSNI)
        let result = handshaker.run(context: context, legacySuites: legacy, tls13Suites: tls13,
                                    addresses: connectAddresses, deadline: nextDeadline())
        lock.withLock {
            if result.connected { handshakeCount += 1 }
            if let address = result.address, addresses.count > 1 { addresses = [address] }  // stick to the one that answered
            attemptLog.append(ProbeAttempt(version: version, offered: legacy.count + tls13.count,
                                         outcome: result.outcome.attemptOutcome, detail: result.outcome.detail))
        }
        return result
    }
}

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
/// it, repeat until the handshake fails (accepted + 1 handshakes), then one reversed offer to
/// tell server order from client order (only when two or more suites were accepted).
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
    func run(seed: HandshakeResult.Accepted? = nil) -> Outcome {
        let context: ClientContext
        do { context = try ClientContext(minVersion: version, maxVersion: version) } catch {
            return Outcome(result: ProtocolResult(version: version, supported: nil, reason: "probe could not run: \(error)"),
                           firstAccepted: nil, failure: .notRun("\(error)"))
        }
        let isTLS13 = version == .tls1_3
        let fullOffer: [OfferedSuite] = isTLS13
            ? ClientContext.allTLS13Suites.map { OfferedSuite(suite: $0, openSSLName: $0.ianaName) }
            : context.offerableLegacySuites()
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
            let result = session.handshake(
                context: context, version: version, legacy: isTLS13 ? [] : remaining,
                tls13: isTLS13 ? remaining.map(\.suite) : [])
            if let a = result.accepted {
                if take(a) { continue }
                stopReason = .protocolError("server chose \(a.version) \(a.suite.ianaName), which was not offered")
                complete = false
                break
            }
            switch result.outcome {
            case .rejected, .closed:
                // The server declined what is left: enumeration is complete. (A close with no
                // answer counts as a refusal only once the server has shown it speaks TLS.)
                stopReason = result.outcome
            default:
                stopReason = result.outcome
                complete = false
            }
            break
        }

        var protocolResult: ProtocolResult
        if accepted.isEmpty {
            switch stopReason {
            case .rejected(let why)?:
                protocolResult = ProtocolResult(version: version, supported: false, reason: why)
            case .closed(let why)?:
                protocolResult = ProtocolResult(version: version, supported: false, reason: why)
            case .timeout(let why)?, .protocolError(let why)?, .unreachable(let why)?, .notRun(let why)?:
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
            protocolResult.serverPreference = serverPreference(context: context, fullOffer: fullOffer, accepted: accepted,
                                                               firstChoice: accepted[0].suite)
        }
        return Outcome(result: protocolResult, firstAccepted: first, failure: nil)
    }

    /// Offers the accepted suites in the reverse of the client's order. A server that follows the
    /// client picks the last of them; one that follows its own order picks its first choice again.
    private func serverPreference(
        context: ClientContext, fullOffer: [OfferedSuite], accepted: [AcceptedCipherSuite], firstChoice: CipherSuite
    ) -> Bool? {
        let acceptedSet = Set(accepted.map(\.suite))
        let reversed = fullOffer.filter { acceptedSet.contains($0.suite) }.reversed().map { $0 }
        let isTLS13 = version == .tls1_3
        let result = session.handshake(context: context, version: version, legacy: isTLS13 ? [] : reversed,
                                       tls13: isTLS13 ? reversed.map(\.suite) : [])
        guard let chosen = result.accepted?.suite else { return nil }
        return chosen == firstChoice
    }
}
