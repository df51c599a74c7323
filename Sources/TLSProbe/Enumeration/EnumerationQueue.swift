import Foundation
import TLSModel

/// The full enumeration of one endpoint after the lead probe (docs/architecture.md#the-probe, issue 10): every
/// version's handshakes are items of one work queue, sent as soon as a per-host permit is free, so the
/// critical path is a few round trips rather than one chain of accepted + 1 handshakes per version.
///
/// **Items**, in the order they take a free slot: each version's first offer (every suite; the
/// lead's answer stands in for it for the lead's version), each chain's next offer, each version's
/// order probe (``SuiteSearch/orderProbeOffer``, once two suites are known), each version's ChaCha20 probe
/// (``SuiteSearch/takeChaChaProbe()``, once the order and a ChaCha20 suite are known, where needed). A slot is one handshake: a permit is
/// held for one step (with its retries), and at most `--per-host` steps of an endpoint are in flight.
///
/// **Splitting within the budget.** When a chain's next offer is sent while slots would otherwise stay
/// idle, it is dealt into several chains (``SuiteSearch``). Each chain ends with one refusal, so each
/// split costs one handshake. The scan's floor (docs/architecture.md#the-probe) is only known at the end, but never
/// less than what is known so far: 1 per version not yet answered or unsupported, accepted + 1 (+ 1 with two
/// or more) per supported version. A split is made only while the handshakes spent beyond the floor
/// stay within a quarter of that lower bound, so a scan never costs more than 1.25 × its floor — a tenth (1.1 ×)
/// until an answer has shown the server serving two connections at once (``ConnectionLedger/closingServed(_:)``):
/// on a server that serves one at a time a split buys no time, only handshakes (issue 34) — and a
/// scan with a cap of one permit (no idle slot ever) is the sequential chain of docs/architecture.md#the-probe. Which
/// chain is split, and into how many pieces: ``pieces(found:offer:streak:longest:idle:budget:)``.
struct EnumerationQueue {
    let session: EndpointSession
    /// Whether connections are opened ahead of the steps (``PreconnectedSockets``): only when the lead showed
    /// a round trip worth hiding (``TLSProber/openAheadLeadTime``).
    var openAhead = true
    /// Whether ClientHellos of our own check what OpenSSL cannot offer and enumerate the groups (``HelloSearch``).
    var ownHellos = true

    private enum Item: Sendable {
        case first(TLSVersion)
        case chain(TLSVersion, SuiteSearch.Step)
        case order(TLSVersion)
        /// The ChaCha20 probe (``SuiteSearch/takeChaChaProbe()``), once the version's search has ended.
        case chacha(TLSVersion)
        /// A suite check with a ClientHello of our own (``HelloSearch``).
        case check(TLSVersion, [CipherSuite])
        /// A step of a group piece (``HelloSearch``).
        case groups(TLSVersion, HelloSearch.GroupPiece)
        /// A step placing the check's suites in the server's order (``HelloSearch/Placement``).
        case place(TLSVersion, [CipherSuite])
    }

    private enum Version {
        /// Waiting for (or running) its first offer.
        case unanswered(context: ClientContext, fullOffer: [OfferedSuite], sent: Bool)
        case searching(SuiteSearch)
        case settled(VersionEnumerator.Outcome)
    }

    /// Enumerates `versions`. `seed`: the lead's accepted handshake, the first step of its version;
    /// `spent`: handshakes already made beyond the floor (a lead that was not accepted); `ruledOut`:
    /// versions the lead proved unsupported at no cost (each counts 1 in the floor).
    func run(
        versions: [TLSVersion], seed: HandshakeResult.Accepted?, spent: Int, ruledOut: Int
    ) async -> [TLSVersion: VersionEnumerator.Outcome] {
        let session = self.session
        let prepared = await session.pool.run {
            () -> [TLSVersion: Result<(ClientContext, [OfferedSuite]), ProbeFailure>] in
            var out: [TLSVersion: Result<(ClientContext, [OfferedSuite]), ProbeFailure>] = [:]
            for version in versions { out[version] = VersionEnumerator.prepareNow(version) }
            return out
        }
        var state: [TLSVersion: Version] = [:]
        var hello = Dictionary(uniqueKeysWithValues: versions.map { ($0, HelloSearch(version: $0)) })
        /// What OpenSSL offers for each version: the check does not offer it again (``HelloSearch``).
        var offeredByOpenSSL: [TLSVersion: [CipherSuite]] = [:]
        for (version, prepared) in prepared { offeredByOpenSSL[version] = (try? prepared.get().1)?.map(\.suite) ?? [] }
        let ownHellos = self.ownHellos
        var spent = spent
        for version in versions {
            let enumerator = VersionEnumerator(session: session, version: version)
            switch prepared[version] {
            case .success(let (context, fullOffer))?:
                if fullOffer.isEmpty {
                    state[version] = .settled(enumerator.notRun("the linked OpenSSL cannot offer any \(version) suite"))
                } else if let seed, seed.version == version, fullOffer.contains(where: { $0.suite == seed.suite }) {
                    state[version] = .searching(
                        SuiteSearch(enumerator: enumerator, context: context, fullOffer: fullOffer, first: seed))
                } else {
                    if seed?.version == version { spent += 1 }  // the lead chose a suite this version cannot offer
                    state[version] = .unanswered(context: context, fullOffer: fullOffer, sent: false)
                }
            case .failure(let error)?: state[version] = .settled(enumerator.notRun("probe could not run: \(error)"))
            case nil: state[version] = .settled(enumerator.notRun("probe could not run"))
            }
        }

        await withTaskGroup(of: (Item, HandshakeResult, Int).self) { group in
            var inFlight = 0
            /// Connections the steps in flight will likely want when they are answered: every chain step of a
            /// version is likely followed by another (a first offer is not: the version may be unsupported).
            var warmable = 0
            /// Sends a step with a ClientHello of our own offering `suites` and `groups` for `version`.
            func sendHello(_ item: Item, _ version: TLSVersion, _ suites: [CipherSuite], _ groups: [UInt16]) {
                let offer = HelloOffer(
                    version: version, suites: suites, groups: groups, sni: session.request.effectiveSNI)
                inFlight += 1
                let slot = session.claimSlot()
                group.addTask {
                    let answer = await session.withSlot(slot) {
                        await session.step(.hello(offer), ready: slot.ready, permit: slot.key)
                    }
                    return (item, answer, 0)
                }
            }
            /// Starts the hello steps that have become possible: a version's check once OpenSSL's search ended or
            /// its offer was refused, its groups once it is known supported.
            func advanceHellos() {
                guard ownHellos else { return }
                for version in versions {
                    guard var search = hello[version] else { continue }
                    switch state[version] {
                    case .searching(let s)?:
                        let known = s.found.map(\.suite)
                        search.startGroups(dhe: known.contains { HelloCatalogue.keyExchange($0) == .dhe })
                        if session.ledger.provenConcurrent {
                            search.startEarlyCheck(known: known, offeredByOpenSSL: offeredByOpenSSL[version] ?? [])
                        }
                        if s.waiting.isEmpty && s.running.isEmpty && s.orderSettled {
                            search.startCheck(known: known, offeredByOpenSSL: offeredByOpenSSL[version] ?? [])
                            let searched = s.result()
                            search.startPlacement(
                                searched: searched.ordered.map(\.suite), preference: searched.serverPreference,
                                orderComplete: searched.serverOrderComplete && searched.stop == nil)
                        }
                    case .settled(let outcome)?:
                        if !search.found.isEmpty {
                            search.startGroups(
                                dhe: search.found.contains { HelloCatalogue.keyExchange($0.suite) == .dhe })
                            search.startPlacement(searched: [], preference: nil, orderComplete: true)
                        } else if outcome.worthChecking, case .notNeeded = search.check {
                            search.check = .pending
                            search.startCheck(known: [], offeredByOpenSSL: offeredByOpenSSL[version] ?? [])
                        } else if outcome.worthChecking {
                            search.startCheck(known: [], offeredByOpenSSL: offeredByOpenSSL[version] ?? [])
                        } else if case .pending = search.check {
                            search.check = .notNeeded
                        }
                    case .unanswered?, nil:
                        break
                    }
                    hello[version] = search
                }
            }
            func send(_ item: Item, _ version: TLSVersion, _ offer: [OfferedSuite], _ context: ClientContext) {
                inFlight += 1
                var likelyContinues = 0
                if case .chain = item, case .searching(let search)? = state[version] {
                    // Accepted, a step of a version with one suite found is followed by its chain's next step and
                    // by the order probe: two connections. With two or more found, by the next step only.
                    likelyContinues = search.found.count >= 2 ? 1 : 2
                    warmable += likelyContinues
                }
                let enumerator = VersionEnumerator(session: session, version: version)
                let slot = session.claimSlot()
                group.addTask {
                    let answer = await session.withSlot(slot) {
                        await enumerator.offer(offer, context: context, ready: slot.ready, permit: slot.key)
                    }
                    return (item, answer, likelyContinues)
                }
            }
            /// Fills free slots: first offers, then chains (split while slots and budget allow), then order probes.
            func schedule() {
                // Steps in flight at most: the address's window, narrowed when the server shows it serves fewer
                // (read once: it changes only when a connection made while others were open is dropped).
                let cap = session.window
                while inFlight < cap,
                    let version = versions.first(where: {
                        if case .unanswered(_, _, false) = state[$0] { return true } else { return false }
                    })
                {
                    guard case .unanswered(let context, let fullOffer, _) = state[version] else { break }
                    state[version] = .unanswered(context: context, fullOffer: fullOffer, sent: true)
                    send(.first(version), version, fullOffer, context)
                }
                while inFlight < cap, let (version, index) = Self.nextWaiting(state, versions) {
                    guard case .searching(var search) = state[version] else { break }
                    var step = search.waiting.remove(at: index)
                    let idle = cap - inFlight - Self.waitingItems(state)
                    let share = session.ledger.provenConcurrent ? 4 : 10
                    let budget =
                        Self.floorSoFar(state, ruledOut: ruledOut) / share - Self.extraSpent(state, spent: spent)
                    let pieces = search.split(
                        step,
                        into: Self.pieces(
                            found: search.found.count, offer: step.offer.count, streak: step.streak,
                            longest: Self.longestStreak(state), idle: idle, budget: budget,
                            halvesFirst: session.ledger.provenConcurrent))
                    step = pieces[0]
                    search.waiting.append(contentsOf: pieces.dropFirst())
                    search.sent(step)
                    state[version] = .searching(search)
                    send(.chain(version, step), version, step.offer, search.context)
                }
                for version in versions where inFlight < cap {
                    guard case .searching(var search) = state[version], case .waiting = search.order else { continue }
                    search.order = .sent
                    state[version] = .searching(search)
                    send(.order(version), version, search.orderProbeOffer, search.context)
                }
                for version in versions where inFlight < cap {
                    guard case .searching(var search) = state[version], let offer = search.takeChaChaProbe() else {
                        continue
                    }
                    state[version] = .searching(search)
                    send(.chacha(version), version, offer, search.context)
                }
                advanceHellos()
                // The suite checks, the placements, then the group pieces (``HelloSearch``).
                for version in versions {
                    while inFlight < cap, var search = hello[version], let offer = search.takeCheck() {
                        hello[version] = search
                        sendHello(.check(version, offer), version, offer, HelloCatalogue.checkGroups(version))
                    }
                }
                for version in versions where inFlight < cap {
                    guard var search = hello[version], let offer = search.takePlacement() else { continue }
                    hello[version] = search
                    sendHello(.place(version, offer), version, offer, HelloCatalogue.checkGroups(version))
                }
                for version in versions {
                    while inFlight < cap, var search = hello[version], let piece = search.takeGroupPiece() {
                        hello[version] = search
                        sendHello(.groups(version, piece), version, piece.suites, piece.groups)
                    }
                }
                // Connections for the steps that will follow those in flight (``PreconnectedSockets``), once an answer
                // has shown the server serving two at once: a server that serves one at a time would take an idle one
                // and wait on it (issue 34); on it a step costs the two round trips of a fresh connection, its floor.
                if openAhead && session.ledger.provenConcurrent { session.keepPreconnected(warmable) }
            }

            schedule()
            for await (item, answer, likelyContinues) in group {
                inFlight -= 1
                warmable -= likelyContinues
                switch item {
                case .first(let version):
                    guard case .unanswered(let context, let fullOffer, _) = state[version] else { break }
                    let enumerator = VersionEnumerator(session: session, version: version)
                    switch enumerator.judgeFirst(answer, fullOffer: fullOffer) {
                    case .accepted(let a):
                        state[version] = .searching(
                            SuiteSearch(enumerator: enumerator, context: context, fullOffer: fullOffer, first: a))
                    case .settled(let outcome):
                        state[version] = .settled(outcome)
                    }
                case .chain(let version, let step):
                    guard case .searching(var search) = state[version] else { break }
                    search.absorb(answer, to: step)
                    state[version] = .searching(search)
                case .order(let version):
                    guard case .searching(var search) = state[version] else { break }
                    search.order = .answered(answer)
                    state[version] = .searching(search)
                case .chacha(let version):
                    guard case .searching(var search) = state[version], case .sent(let suite) = search.chacha else {
                        break
                    }
                    search.chacha = .answered(suite: suite, answer)
                    state[version] = .searching(search)
                case .check(let version, let offer):
                    hello[version]?.absorbCheck(answer, offer: offer)
                case .groups(let version, let piece):
                    hello[version]?.absorbGroups(answer, piece: piece)
                case .place(let version, let offer):
                    hello[version]?.absorbPlacement(answer, offer: offer)
                }
                schedule()
            }
        }

        session.closePreconnected()  // the steps that would have used them were refused
        var results: [TLSVersion: VersionEnumerator.Outcome] = [:]
        for version in versions {
            let enumerator = VersionEnumerator(session: session, version: version)
            switch state[version] {
            case .searching(let search)?:
                let outcome = enumerator.outcome(of: search.result(), first: search.first)
                results[version] = ownHellos ? enumerator.completed(outcome, by: hello[version]) : outcome
            case .settled(let outcome)?:
                results[version] = ownHellos ? enumerator.completed(outcome, by: hello[version]) : outcome
            case .unanswered?, nil:
                results[version] = VersionEnumerator(session: session, version: version).notRun("probe could not run")
            }
        }
        return results
    }

    /// The waiting chain step to send next, by version and index: the longest streak of suites found
    /// (the chain likely to run longest, so the first to split), then the largest offer.
    private static func nextWaiting(_ state: [TLSVersion: Version], _ versions: [TLSVersion]) -> (TLSVersion, Int)? {
        var best: (version: TLSVersion, index: Int, key: (Int, Int))?
        for version in versions {
            guard case .searching(let search)? = state[version] else { continue }
            for (index, step) in search.waiting.enumerated() {
                let key = (step.streak, step.offer.count)
                if best == nil || key > best!.key { best = (version, index, key) }
            }
        }
        return best.map { ($0.version, $0.index) }
    }

    /// The fewest suites a piece of a split offers: a smaller piece holds about one suite the server
    /// accepts, so splitting it buys no round trip and spends a handshake of the budget.
    static let minimumPiece = 8

    /// How many chains a chain step of `offer` suites becomes when it is sent, `found` suites of its version
    /// known, `streak` suites found by its chain since it was started or split off, while `idle` slots would
    /// stay free and `budget` handshakes beyond the floor may still be spent; `longest`: the longest streak of
    /// the endpoint's chains, waiting or in flight (this step's included).
    ///
    /// A version with one suite found is halved (two pieces) only once the server has shown it serves connections
    /// side by side (`halvesFirst`): a single-suite version then costs its floor and one refusal more, and a
    /// version with several suites saves the round trips of its first steps, when the search was the critical path
    /// of a scan behind latency (issue 34: nginx's four TLS 1.2 suites took five steps in one chain). Elsewhere it is
    /// never split, so a single-suite version costs exactly its floor. Only a chain with the endpoint's longest streak is split: a chain that keeps finding suites is the one
    /// likely to be the critical path. A split's pieces start a new streak at zero, so the next split goes to
    /// another chain that proves long, and the budget spreads over the versions in proportion to what they
    /// turn out to hold: on a server with many suites in TLS 1.0 and 1.1 as well as 1.2, those chains are
    /// split too, not only the one with the largest offer. Each piece offers `minimumPiece` or more.
    static func pieces(
        found: Int, offer: Int, streak: Int, longest: Int, idle: Int, budget: Int, halvesFirst: Bool = false
    ) -> Int {
        if found == 1 { return halvesFirst && min(idle, budget) >= 1 && offer >= 2 * minimumPiece ? 2 : 1 }
        guard found >= 2, streak >= longest else { return 1 }
        return 1 + max(0, min(idle, budget, offer / minimumPiece - 1))
    }

    /// The longest streak of any chain of the endpoint, waiting or in flight (the step being placed included).
    private static func longestStreak(_ state: [TLSVersion: Version]) -> Int {
        state.values.reduce(0) { longest, version in
            if case .searching(let search) = version { return max(longest, search.longestStreak) }
            return longest
        }
    }

    /// Items that need a slot and are not sent yet (the step being placed included).
    private static func waitingItems(_ state: [TLSVersion: Version]) -> Int {
        state.values.reduce(0) { sum, version in
            switch version {
            case .unanswered(_, _, let sent): return sum + (sent ? 0 : 1)
            case .searching(let search):
                if case .waiting = search.order { return sum + search.waiting.count + 1 }
                return sum + search.waiting.count
            case .settled: return sum
            }
        }
    }

    /// The least the scan's floor can be, from what is known now (see the type's documentation).
    private static func floorSoFar(_ state: [TLSVersion: Version], ruledOut: Int) -> Int {
        state.reduce(ruledOut) { sum, entry in
            if case .searching(let search) = entry.value {
                // The suite check of a TLS ≤ 1.2 version (``HelloSearch``) is one more step of its floor.
                return sum + search.floorSoFar + (entry.key < .tls1_3 ? 1 : 0)
            }
            return sum + 1
        }
    }

    /// Handshakes spent or committed beyond the floor: one per chain beyond a version's first, and `spent`.
    private static func extraSpent(_ state: [TLSVersion: Version], spent: Int) -> Int {
        state.values.reduce(spent) { sum, version in
            if case .searching(let search) = version { return sum + max(0, search.chains - 1) }
            return sum
        }
    }
}
