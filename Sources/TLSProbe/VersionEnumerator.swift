import Foundation
import TLSModel

/// Finds every suite one protocol version accepts: offer all and note the server's choice (the lead
/// probe's answer when it chose this version), then enumerate the rest by offer/remove chains that run
/// at the same time (``SuiteSearch``), and one reversed offer to tell server order from client order
/// (only when two or more suites were accepted).
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

    /// - Parameter seed: an accepted handshake already made with this version's full offer (the lead probe).
    func run(seed: HandshakeResult.Accepted? = nil) async -> Outcome {
        let prepared = await prepare()
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

        // The first choice from the full offer: the server's favourite, and whether the version is supported.
        let first: HandshakeResult.Accepted
        if let seed, seed.version == version, fullOffer.contains(where: { $0.suite == seed.suite }) {
            first = seed
        } else {
            let result = await offer(fullOffer, context: context)
            switch result.outcome {
            case .accepted(let a) where a.version == version && fullOffer.contains(where: { $0.suite == a.suite }):
                first = a
            case .accepted(let a):
                let why = "server chose \(a.version) \(a.suite.ianaName), which was not offered"
                return Outcome(result: ProtocolResult(version: version, supported: nil, reason: why, enumerationComplete: false),
                               firstAccepted: nil, failure: .protocolError(why))
            case .rejected(let why):
                // Only a TLS-level refusal says the server declines the version.
                return Outcome(result: ProtocolResult(version: version, supported: false, reason: why),
                               firstAccepted: nil, failure: .rejected(why))
            case .closed(let why), .timeout(let why), .protocolError(let why), .unreachable(let why), .notRun(let why):
                return Outcome(result: ProtocolResult(version: version, supported: nil, reason: why, enumerationComplete: false),
                               firstAccepted: nil, failure: result.outcome)
            }
        }

        let search = await SuiteSearch(enumerator: self, context: context, fullOffer: fullOffer)
            .run(first: first)
        var protocolResult = ProtocolResult(
            version: version, supported: true, serverPreference: search.serverPreference,
            cipherSuites: search.ordered.map {
                AcceptedCipherSuite(suite: $0.suite, openSSLName: $0.openSSLName, group: $0.group, groupBits: $0.groupBits)
            },
            enumerationComplete: search.stop == nil)
        if let detail = search.stop?.detail { protocolResult.reason = "enumeration stopped early: \(detail)" }
        return Outcome(result: protocolResult, firstAccepted: first, failure: nil)
    }

    /// The version's client context and everything it can offer. OpenSSL set-up is work for a probe
    /// thread too (it may read configuration on first use).
    private func prepare() async -> Result<(ClientContext, [OfferedSuite]), ProbeFailure> {
        let version = self.version
        return await session.pool.run { () -> Result<(ClientContext, [OfferedSuite]), ProbeFailure> in
            do {
                let context = try ClientContext(minVersion: version, maxVersion: version)
                return .success((context, version == .tls1_3
                    ? ClientContext.allTLS13Suites.map { OfferedSuite(suite: $0, openSSLName: $0.ianaName) }
                    : context.offerableLegacySuites()))
            } catch {
                return .failure(ProbeFailure(.local, "\(error)"))
            }
        }
    }

    /// One step: offers `suites` (in this order) for this version, retrying drops.
    func offer(_ suites: [OfferedSuite], context: ClientContext) async -> HandshakeResult {
        let isTLS13 = version == .tls1_3
        return await session.step(context: context, version: version, legacy: isTLS13 ? [] : suites,
                                  tls13: isTLS13 ? suites.map(\.suite) : [])
    }
}
