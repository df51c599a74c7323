import Foundation
import TLSModel

/// The ats-only scope (issue 10): after the lead probe, at most five handshakes sent side by side
/// (within the per-host cap), each offering only suites the ATS engine reads, minus those already found:
/// TLS 1.2 with the forward-secret ATS suites (the union over eras, docs/apple-rules.md §1.2), TLS 1.2 with the RSA
/// key-exchange suites (§1.3) and then every other suite, TLS 1.3, TLS 1.1 and TLS 1.0 (the forward-secret
/// suites on their own when that is the server's highest version and the lead did not settle them). A refused offer
/// records its suites as `refusedSuites`, so the engine knows the list is complete for what it reads.
struct ATSOnlyProbe {
    let session: EndpointSession

    static let reason = "ats-only scan: not enumerated"

    typealias S = CipherSuite
    /// Every TLS 1.2 forward-secret suite of any era's ATS group.
    static let forwardSecret = CipherSuite.atsForwardSecretUnion
    /// The RSA key-exchange suites `NSExceptionRequiresForwardSecrecy = NO` adds, any era.
    static let compatibility = CipherSuite.atsCompatibilityUnion

    /// The most handshakes an ats-only scan of one endpoint makes (without retries), the lead's included.
    static let budget = 6
    static let tls13AES: Set<CipherSuite> = [S.TLS_AES_128_GCM_SHA256, S.TLS_AES_256_GCM_SHA384]

    private struct Offer: Sendable {
        var version: TLSVersion
        var suites: [OfferedSuite]
        /// Sent in a ClientHello of our own (``HelloExchange``): suites OpenSSL cannot offer are among them.
        var ownHello = false
    }

    /// The suites of `version` beyond ATS's that a ClientHello of our own offers (``HelloCatalogue``): what ATS
    /// off may take, 3DES included, which OpenSSL 3.0 cannot offer.
    ///
    /// One hello, so at most ``HelloSearch/checkChunk`` of them (wolfSSL closes on longer lists): OpenSSL's first
    /// (the version is unsupported only when all of those were refused), then those the suite registry knows (3DES,
    /// RC4 and DES, which Apple's ATS-off offers carry), then the rest.
    private static func others(
        _ version: TLSVersion, without known: Set<CipherSuite>, openSSL: [OfferedSuite]
    ) -> [OfferedSuite] {
        let isOther = { (s: CipherSuite) in
            !known.contains(s) && !forwardSecret.contains(s) && !compatibility.contains(s)
        }
        let fromOpenSSL = openSSL.filter { isOther($0.suite) }
        let offered = Set(fromOpenSSL.map(\.suite))
        let rest = HelloCatalogue.suites(for: version).filter { isOther($0) && !offered.contains($0) }
        let extra = (rest.filter { $0.info != nil } + rest.filter { $0.info == nil }).map {
            OfferedSuite(suite: $0, openSSLName: $0.info?.openSSLName ?? $0.ianaName)
        }
        return Array((fromOpenSSL + extra).prefix(HelloSearch.checkChunk))
    }

    /// The per-version results of the ats-only scope. `lead`: the lead probe's accepted handshake, if any
    /// (its version proves every higher one unsupported).
    func run(versions: [TLSVersion], lead: HandshakeResult.Accepted?) async -> [TLSVersion: VersionEnumerator.Outcome] {
        let highest = lead?.version
        let toProbe = versions.filter { highest == nil || $0 <= highest! }
        let prepared = await session.pool.run { () -> [TLSVersion: (ClientContext, [OfferedSuite])] in
            var out: [TLSVersion: (ClientContext, [OfferedSuite])] = [:]
            for v in toProbe {
                guard let context = try? ClientContext(minVersion: v, maxVersion: v) else { continue }
                out[v] = (
                    context,
                    v == .tls1_3
                        ? ClientContext.allTLS13Suites.map { OfferedSuite(suite: $0, openSSLName: $0.ianaName) }
                        : context.offerableLegacySuites()
                )
            }
            return out
        }
        var offers: [Offer] = []
        var tls12Rest: Offer?
        for v in toProbe {
            guard let (_, all) = prepared[v] else { continue }
            let known = lead?.version == v ? [lead!.suite] : []
            let rest = all.filter { !known.contains($0.suite) }
            func pick(_ list: [CipherSuite]) -> [OfferedSuite] {
                list.compactMap { s in rest.first { $0.suite == s } }
            }
            let others = Self.others(v, without: Set(known), openSSL: all)
            switch v {
            case .tls1_3:
                // An AES suite from the lead is in every reading's list: nothing more to learn. Offered in a hello of
                // our own, with the post-quantum groups first as iOS 26 offers them: a server that accepts only those
                // still answers (OpenSSL 3.0 has none to offer).
                if let lead, lead.version == .tls1_3, Self.tls13AES.contains(lead.suite) { continue }
                if !rest.isEmpty { offers.append(Offer(version: v, suites: rest, ownHello: true)) }
            case .tls1_2:
                let fs = pick(Self.forwardSecret), rsa = pick(Self.compatibility)
                if !fs.isEmpty { offers.append(Offer(version: v, suites: fs)) }
                if !rsa.isEmpty { offers.append(Offer(version: v, suites: rsa)) }
                if !others.isEmpty { tls12Rest = Offer(version: v, suites: others, ownHello: true) }
            default:
                // The server's highest version below TLS 1.2 is what an exception reaches: whether it takes a
                // forward-secret suite there decides `NSExceptionRequiresForwardSecrecy`, so ask that alone
                // unless the lead already answered it (a server choosing by its own order may pick an RSA suite
                // from a mixed offer while it also speaks ECDHE). A lower version only says it is spoken.
                let fs = pick(Self.forwardSecret)
                let others = Array((pick(Self.compatibility) + others).prefix(HelloSearch.checkChunk - fs.count))
                if let lead, lead.version == v, !Self.forwardSecret.contains(lead.suite), !fs.isEmpty {
                    offers.append(Offer(version: v, suites: fs))
                    if !others.isEmpty { offers.append(Offer(version: v, suites: others, ownHello: true)) }
                } else if !(fs + others).isEmpty {
                    offers.append(Offer(version: v, suites: fs + others, ownHello: true))
                }
            }
        }
        // The rest of TLS 1.2 (finite-field DHE, 3DES, …: what ATS off may offer) only within the budget.
        if let tls12Rest, offers.count < Self.budget - 1 { offers.append(tls12Rest) }

        var answers = await send(offers, prepared: prepared)
        // TLS 1.2's ATS suites were refused and the rest did not fit in the budget: one more handshake for the
        // rest, so a version served only by suites ATS does not read (3DES, …) is known (issue 35).
        if let tls12Rest, !offers.contains(where: { $0.version == .tls1_2 && $0.ownHello }),
            offers.indices.filter({ offers[$0].version == .tls1_2 }).allSatisfy({
                if case .refused = answers[$0]?.outcome { return true } else { return false }
            }),
            lead?.version != .tls1_2
        {
            let more = await send([tls12Rest], prepared: prepared)
            if let answer = more[0] { answers[offers.count] = answer }
            offers.append(tls12Rest)
        }

        var results: [TLSVersion: VersionEnumerator.Outcome] = [:]
        for v in versions {
            if let highest, v > highest {
                results[v] = .init(
                    result: ProtocolResult(
                        version: v, supported: false,
                        reason: "server chose \(highest) when offered up to \(versions.max()!)"), firstAccepted: nil,
                    failure: nil)
                continue
            }
            var accepted: [HandshakeResult.Accepted] = lead?.version == v ? [lead!] : []
            var refused: [CipherSuite] = []
            var failure: HandshakeResult.Outcome?
            var anyAnswer = !accepted.isEmpty
            for (index, offer) in offers.enumerated() where offer.version == v {
                guard let answer = answers[index] else { continue }
                switch answer.outcome {
                case .answered(let a) where a.version == v && offer.suites.contains(where: { $0.suite == a.suite }):
                    accepted.append(a)
                    anyAnswer = true
                case .refused:
                    refused += offer.suites.map(\.suite)
                    anyAnswer = true
                default:
                    failure = failure ?? answer.outcome
                }
            }
            // Unsupported only when every suite the prober can offer for the version was refused.
            let everyOffer = Set(prepared[v]?.1.map(\.suite) ?? []).union(
                offers.filter { $0.version == v && $0.ownHello }.flatMap { $0.suites.map(\.suite) })
            let allRefused = everyOffer.isSubset(of: Set(refused))
            let supported: Bool? = !accepted.isEmpty ? true : (anyAnswer && failure == nil && allRefused ? false : nil)
            let why =
                failure?.detail
                ?? (supported == false
                    ? "refused every suite offered"
                    : "refused the ATS suites; the others were not probed (ats-only scan)")
            var result = ProtocolResult(
                version: v, supported: supported,
                reason: supported == true ? Self.reason : why,
                cipherSuites: accepted.map {
                    AcceptedCipherSuite(
                        suite: $0.suite, openSSLName: $0.openSSLName, group: $0.group, groupBits: $0.groupBits)
                },
                enumerationComplete: supported == false)
            if supported == true { result.refusedSuites = refused }
            results[v] = .init(
                result: result, firstAccepted: accepted.first,
                failure: supported == false ? .refused(.declined(result.reason ?? "")) : failure)
        }
        return results
    }

    /// Sends `offers` side by side within the per-host cap; the answers by index.
    private func send(
        _ offers: [Offer], prepared: [TLSVersion: (ClientContext, [OfferedSuite])]
    ) async -> [Int: HandshakeResult] {
        let session = self.session
        return await withTaskGroup(of: (Int, HandshakeResult).self) { group in
            for (index, offer) in offers.enumerated() {
                guard let context = prepared[offer.version]?.0 else { continue }
                let slot = session.claimSlot()  // a connection opened ahead, if any
                group.addTask {
                    let isTLS13 = offer.version == .tls1_3
                    let exchange: Exchange =
                        offer.ownHello
                        ? .hello(
                            HelloOffer(
                                version: offer.version, suites: offer.suites.map(\.suite),
                                groups: HelloCatalogue.checkGroups(offer.version), sni: session.request.effectiveSNI))
                        : .openSSL(
                            context, legacy: isTLS13 ? [] : offer.suites,
                            tls13: isTLS13 ? offer.suites.map(\.suite) : [])
                    let answer = await session.withSlot(slot) {
                        await session.step(exchange, ready: slot.ready, permit: slot.key)
                    }
                    return (index, answer)
                }
            }
            session.closePreconnected()  // more were opened than this lead's answer needs
            return await group.reduce(into: [Int: HandshakeResult]()) { $0[$1.0] = $1.1 }
        }
    }
}
