import Foundation
import TLSHello
import TLSModel

/// Whether the server takes a ClientHello that spans two TCP segments, as iOS 26's always does (issue 36; the
/// "tldr.fail" family of servers and middleboxes reads the first segment once and gives up): the iOS 26 URLSession
/// hello (about 1,530 bytes with its X25519MLKEM768 key share) is sent as the stack sends it, in two segments
/// (``HelloSizeAttempt``), and the answer compared with the iOS 18 hello's, which fits one segment and is sent in one
/// write: two connections.
///
/// The split hello answered in TLS (a ServerHello, or an alert other than `decode_error`: the server read the whole
/// hello and decided on its content, as a TLS 1.0-only server refuses iOS 26's TLS 1.2–1.3 offer) is tolerated. The
/// split hello closed, reset or unanswered (or refused with `decode_error`, a parser given a partial message) where
/// the single one is answered is intolerance, once two more split hellos have failed the same way: a split hello the
/// server dropped is retried like any step the server dropped, so a server or relay that drops connections at random,
/// or every other one, is not taken for an intolerant one. A single hello the server dropped is retried too. Retries
/// are counted as the scan's retries, each after a drop; at most ``maxAttempts`` of each hello. A split hello that
/// timed out is not retried (a drop is what a busy relay does; silence is not).
///
/// Its connections are its own, not a simulation's: the simulated iOS 26 handshake sends its hello in one write.
struct HelloSizeProbe {
    /// The hello that spans two segments.
    static let splitProfile = HelloProfile.ios26URLSession
    /// The hello that fits one.
    static let singleProfile = HelloProfile.ios18
    /// Attempts of each hello at most: the first and two retries after drops.
    static let maxAttempts = 3

    /// The server's addresses (or the proxy's, with `tunnel`).
    var addresses: [SocketAddress]
    var tunnel: ProxyTunnel?
    var sni: String?

    /// What the probe found, and what it cost.
    struct Result: Sendable {
        var tolerance: HelloSizeTolerance
        /// TCP connections made.
        var connections = 0
        /// Connections of rounds after the first.
        var retries = 0
        /// Connections that ended without a TLS answer.
        var drops = 0

        /// Sets the profile's ``ServerProfile/helloSizeTolerance`` and adds the connections to its counts.
        func record(in profile: inout ServerProfile) {
            profile.helloSizeTolerance = tolerance
            profile.handshakes += connections
            profile.retries += retries
            profile.drops += drops
        }
    }

    /// Sends the split hello, then the single one, then retries either after a drop, each connection with the
    /// deadline `deadline()` gives when it starts (nil: the endpoint's deadline has passed, no more connections).
    /// - Parameter turn: awaited before each connection (``ConnectionPacer``).
    func run(deadline: () -> Deadline?, turn: () async -> Void = {}) async -> Result {
        var result = Result(tolerance: HelloSizeTolerance(split: .notRun, single: .notRun, tolerant: nil))
        var tries = (split: 0, single: 0)
        func attempt(_ splitting: Bool) async -> HelloSizeAttempt? {
            guard let deadline = deadline() else { return nil }
            await turn()
            let attempt = await HelloSizeAttempt.run(
                splitting ? Self.splitProfile : Self.singleProfile, split: splitting, addresses: addresses,
                tunnel: tunnel, sni: sni, deadline: deadline)
            if attempt.connected {
                result.connections += 1
                if (splitting ? tries.split : tries.single) > 0 { result.retries += 1 }
                if attempt.isDrop { result.drops += 1 }
            }
            if splitting { tries.split += 1 } else { tries.single += 1 }
            return attempt
        }
        guard var split = await attempt(true), var single = await attempt(false) else {
            result.tolerance.detail = "not tested: the endpoint's deadline had passed"
            return result
        }
        while true {
            let retrySingle = single.outcome == .dropped && tries.single < Self.maxAttempts
            let retrySplit =
                (split.outcome == .dropped || split.isDecodeError) && single.outcome == .negotiated
                && tries.split < Self.maxAttempts
            guard retrySingle || retrySplit, let retried = await attempt(!retrySingle) else { break }
            if retrySingle { single = retried } else { split = retried }
        }
        result.tolerance = Self.tolerance(split: split, single: single)
        return result
    }

    /// What the last split and single attempts say.
    static func tolerance(split: HelloSizeAttempt, single: HelloSizeAttempt) -> HelloSizeTolerance {
        var tolerance = HelloSizeTolerance(split: split.outcome, single: single.outcome, tolerant: nil)
        let sizeFailure = split.outcome == .dropped || split.outcome == .timedOut || split.isDecodeError
        switch split.outcome {
        case .negotiated,
            .refused where !split.isDecodeError:
            tolerance.tolerant = true
            var failures: [String] = []
            if split.outcome != .negotiated { failures.append("the iOS 26 hello in two segments: \(split.detail)") }
            if single.outcome != .negotiated { failures.append("the iOS 18 hello: \(single.detail)") }
            tolerance.detail = failures.isEmpty ? nil : failures.joined(separator: "; ")
        case _ where sizeFailure && single.outcome == .negotiated:
            tolerance.tolerant = false
            tolerance.detail = intolerance(split: split, single: single)
        default:
            tolerance.detail =
                "not decided: the iOS 26 hello in two segments: \(described(split)); "
                + "the iOS 18 hello in one: \(single.detail)"
        }
        return tolerance
    }

    /// The one line of an intolerant server: both outcomes.
    static func intolerance(split: HelloSizeAttempt, single: HelloSizeAttempt) -> String {
        "the iOS 26 ClientHello in two TCP segments fails: \(described(split)); "
            + "the iOS 18 ClientHello in one segment (\(single.helloBytes) bytes) is answered: \(single.detail)"
    }

    /// A split attempt's failure, with where the hello was cut.
    static func described(_ split: HelloSizeAttempt) -> String {
        guard let first = split.firstWrite, split.outcome == .dropped || split.outcome == .timedOut else {
            return split.detail
        }
        let cut = "the first segment of the ClientHello (\(first) of \(split.helloBytes) bytes)"
        switch split.detail {
        case "the connection is closed": return "the connection is closed after \(cut)"
        case "the connection is reset": return "the connection is reset after \(cut)"
        case "no answer": return "no answer after \(cut)"
        default: return split.detail
        }
    }
}

extension HelloSizeProbe {
    /// The probe of an endpoint whose server has answered a handshake (issue 36): nil in an ats-only scan (its
    /// budget has no room for it). It holds one of the address's permits and takes its turn with the pacer for each
    /// connection. `beside`: it runs beside the enumeration (the lead was answered); otherwise the enumeration is
    /// done and the connections it opened ahead are closed first.
    static func run(for session: EndpointSession, beside: Bool) async -> Result? {
        guard session.request.scope == .full else { return nil }
        if !beside { session.closePreconnected() }
        let probe = HelloSizeProbe(
            addresses: session.connectAddresses, tunnel: session.tunnel, sni: session.request.effectiveSNI)
        let key = session.limitKey
        return await session.limiter.withPermit(key) {
            await probe.run(
                deadline: { session.endpointDeadline.hasPassed ? nil : session.nextDeadline() },
                turn: { await session.pacer.takeTurn(key).started() })
        }
    }
}
