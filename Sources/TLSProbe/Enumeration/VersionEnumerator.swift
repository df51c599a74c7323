import Foundation
import TLSModel

/// One protocol version's part of a full scan: its client context and full offer, the judgement of
/// the first answer (supported, refused, or unknown), and the version's result once its suites are
/// enumerated. The steps themselves are items of the endpoint's ``EnumerationQueue``.
///
/// Each step is retried while the server drops it (``RetryPolicy``); only a TLS-level refusal ends a
/// chain as complete or makes the version `supported: false`. A chain that never got an answer leaves
/// the list `enumerationComplete: false`, whatever the other chains found.
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

    /// What the answer to the full offer says about the version.
    enum FirstAnswer {
        /// The server's favourite from the full offer: the version is supported.
        case accepted(HandshakeResult.Accepted)
        /// The version is settled by this answer: refused, or unknown (a drop, an odd answer).
        case settled(Outcome)
    }

    /// Judges the answer to the full offer `fullOffer`.
    func judgeFirst(_ result: HandshakeResult, fullOffer: [OfferedSuite]) -> FirstAnswer {
        switch result.outcome {
        case .answered(let a) where a.version == version && fullOffer.contains(where: { $0.suite == a.suite }):
            return .accepted(a)
        case .answered(let a):
            let why = "server chose \(a.version) \(a.suite.ianaName), which was not offered"
            return .settled(
                Outcome(
                    result: ProtocolResult(version: version, supported: nil, reason: why, enumerationComplete: false),
                    firstAccepted: nil, failure: .broken(why)))
        case .refused(let refusal):
            // Only a TLS-level refusal says the server declines the version.
            return .settled(
                Outcome(
                    result: ProtocolResult(version: version, supported: false, reason: refusal.reason),
                    firstAccepted: nil, failure: result.outcome))
        case .dropped, .silent, .unreachable, .notTLS, .broken, .notRun, .proxyFailed:
            let why = result.outcome.detail
            return .settled(
                Outcome(
                    result: ProtocolResult(version: version, supported: nil, reason: why, enumerationComplete: false),
                    firstAccepted: nil, failure: result.outcome))
        }
    }

    /// The version's result once its search (started from the server's first choice) has ended.
    func outcome(of search: SuiteSearch.Result, first: HandshakeResult.Accepted) -> Outcome {
        var protocolResult = ProtocolResult(
            version: version, supported: true, serverPreference: search.serverPreference,
            cipherSuites: search.ordered.map {
                AcceptedCipherSuite(
                    suite: $0.suite, openSSLName: $0.openSSLName, group: $0.group, groupBits: $0.groupBits)
            },
            enumerationComplete: search.stop == nil)
        if search.serverPreference == true && !search.serverOrderComplete { protocolResult.serverOrderComplete = false }
        protocolResult.chachaPrioritized = search.chachaPrioritized
        if let detail = search.stop?.detail { protocolResult.reason = "enumeration stopped early: \(detail)" }
        return Outcome(result: protocolResult, firstAccepted: first, failure: nil)
    }

    /// The version's result when it could not be probed at all.
    func notRun(_ why: String) -> Outcome {
        Outcome(
            result: ProtocolResult(version: version, supported: nil, reason: why), firstAccepted: nil,
            failure: .notRun(why))
    }

    /// The version's client context and everything it can offer, on the calling thread (a probe
    /// thread: OpenSSL set-up may read configuration on first use).
    static func prepareNow(_ version: TLSVersion) -> Result<(ClientContext, [OfferedSuite]), ProbeFailure> {
        do {
            let context = try ClientContext(minVersion: version, maxVersion: version)
            return .success(
                (
                    context,
                    version == .tls1_3
                        ? ClientContext.allTLS13Suites.map { OfferedSuite(suite: $0, openSSLName: $0.ianaName) }
                        : context.offerableLegacySuites()
                ))
        } catch {
            return .failure(ProbeFailure(.local, "\(error)"))
        }
    }

    /// One step: offers `suites` (in this order) for this version, retrying drops.
    /// - Parameter ready: a connection opened ahead for the first attempt (``PreconnectedSockets``).
    /// - Parameter permit: the per-host cap's key of the permit the step holds.
    func offer(
        _ suites: [OfferedSuite], context: ClientContext, ready: PreconnectedSockets.Ready? = nil, permit: String? = nil
    ) async -> HandshakeResult {
        let isTLS13 = version == .tls1_3
        return await session.step(
            context: context, version: version, legacy: isTLS13 ? [] : suites,
            tls13: isTLS13 ? suites.map(\.suite) : [], ready: ready, permit: permit)
    }
}

extension VersionEnumerator.Outcome {
    /// A refusal that may hide suites OpenSSL cannot offer (``HelloSearch``): any but `protocol_version`, which
    /// says the version itself is not spoken.
    var worthChecking: Bool {
        guard result.supported == false, case .refused(let refusal)? = failure else { return false }
        return refusal.alert != .protocolVersion
    }
}

extension VersionEnumerator {
    /// The version's result with what the ClientHellos of our own found (``HelloSearch``): suites OpenSSL could not
    /// offer (a version supported through them alone is supported), whether the list is complete, and the groups.
    func completed(_ outcome: Outcome, by search: HelloSearch?) -> Outcome {
        guard let search else { return outcome }
        var outcome = outcome
        var result = outcome.result
        let extra = search.found.map {
            AcceptedCipherSuite(suite: $0.suite, openSSLName: $0.openSSLName, group: $0.group, groupBits: $0.groupBits)
        }
        if !extra.isEmpty && result.supported == true {
            let all = result.cipherSuites + extra
            if case .done = search.placement {
                // Placed in the server's order, or shown to follow the client's (``HelloSearch/Placement``).
                let preference = search.placedPreference ?? result.serverPreference
                result.serverPreference = preference
                if preference == true {
                    let rank = Dictionary(
                        search.ranked.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                    result.cipherSuites = all.sorted { rank[$0.suite, default: .max] < rank[$1.suite, default: .max] }
                } else {
                    result.cipherSuites = all
                }
            } else {
                result.cipherSuites = all
                // Found after the search, by an offer of their own, and not placed: not in the server's order.
                if result.serverPreference == true { result.serverOrderComplete = false }
            }
        } else if !extra.isEmpty {
            // Found by the check alone: in the server's order when the placement showed it has one, else in the
            // catalogue's, the order the check offered them in.
            var preference: Bool?
            var listed = extra.sorted { HelloCatalogue.position($0.suite) < HelloCatalogue.position($1.suite) }
            if case .done = search.placement {
                preference = search.placedPreference
                if preference == true {
                    let rank = Dictionary(search.ranked.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
                    listed = extra.sorted { rank[$0.suite, default: .max] < rank[$1.suite, default: .max] }
                }
            }
            result = ProtocolResult(
                version: version, supported: true, serverPreference: preference, cipherSuites: listed)
            outcome.firstAccepted = search.found.first
            outcome.failure = nil
        }
        if let stop = search.checkStop {
            result.untestedSuites = search.unchecked
            result.enumerationComplete = false
            if result.supported == false {
                // OpenSSL's offer was refused, but what it cannot offer got no answer: the version is not known.
                result.supported = nil
                result.reason =
                    "\(result.reason ?? "refused"); the suites OpenSSL cannot offer got no answer: \(stop.detail)"
                outcome.failure = stop
            } else if result.reason == nil {
                result.reason = "enumeration stopped early: \(stop.detail)"
            }
        } else if result.supported == true, case .pending = search.check {
            // The check never ran (the endpoint's deadline, a cancelled scan).
            result.enumerationComplete = false
        }
        if search.groupsStarted && result.supported == true {
            result.groups = search.acceptedGroups.map {
                var group = AcceptedGroup(group: NamedGroup($0.code))
                group.proven = version >= .tls1_3 ? $0.proven : nil
                return group
            }
            if search.groupsStop != nil { result.groupsComplete = false }
        }
        // The ChaCha20 probe speaks of a server order only.
        if result.serverPreference != true { result.chachaPrioritized = nil }
        outcome.result = result
        return outcome
    }
}
