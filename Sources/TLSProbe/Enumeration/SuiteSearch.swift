import Foundation
import TLSModel

/// One version's enumeration state in a full scan (docs/architecture.md#the-probe): after the server's first choice
/// from the full offer, the rest of the offer is enumerated by offer/remove chains, each ending with one
/// refusal. The endpoint's ``EnumerationQueue`` sends the steps and may split a chain's remaining offer
/// into several chains run side by side; this type records what they found and orders the result.
///
/// **Splitting.** A chain's remaining offer is dealt out round-robin (offer position `i` to chain
/// `i mod k`), so suites a server accepts, which sit together in OpenSSL's offer order, spread over
/// the chains and the chains end at about the same time. Each piece keeps the offer's order.
///
/// **Order.** A server that follows the client's order chose the suites in the order offered, so the
/// list is sorted by the offer. A server with its own order: the first suite is its first choice from
/// the full offer. A single chain (no split, as always with `--per-host 1`) then found the others in the
/// server's order, and so did chains split off one another as long as the suites found lie on one path of
/// the tree of splits (a split whose pieces all but one come back empty). Two pieces of one split that both
/// found suites know the server's order only within each: placing one's suites among the other's would
/// cost about one more handshake per suite, in a row. Then the others are listed in the offer's order
/// (stable from run to run, whatever the timing) and the result says the server's order is not complete
/// (`serverOrderComplete: false`).
struct SuiteSearch {
    let enumerator: VersionEnumerator
    let context: ClientContext
    let fullOffer: [OfferedSuite]

    struct Result {
        /// The accepted suites, ordered as the type's documentation says.
        var ordered: [HandshakeResult.Accepted]
        var serverPreference: Bool?
        /// False when the server has its own order and the list beyond its first choice is not in it.
        var serverOrderComplete: Bool
        /// Why a chain ended without a TLS answer (nil: every chain ended with a refusal: complete).
        var stop: HandshakeResult.Outcome?
        /// What the ChaCha20 probe found (``takeChaChaProbe()``): nil when it was not sent or got no TLS answer.
        var chachaPrioritized: Bool? = nil
    }

    /// A chain's next offer, waiting for a permit.
    struct Step {
        var offer: [OfferedSuite]
        /// Suites this chain found since it was split off: a long streak says more are left to find.
        var streak = 0
        /// Where this chain sits in the tree of splits: the piece taken at each split since the version's
        /// first chain (empty for that chain).
        var lineage: [Int] = []
    }

    enum OrderProbe {
        case notNeeded, waiting, sent
        case answered(HandshakeResult)
    }

    /// The ChaCha20 probe (``takeChaChaProbe()``): sent once needed, at most once.
    enum ChaChaProbe {
        case notSent
        /// Sent offering `suite` first.
        case sent(CipherSuite)
        case answered(suite: CipherSuite, HandshakeResult)
    }

    /// Every suite found, the first choice first.
    private(set) var found: [HandshakeResult.Accepted] = []
    /// The lineage of the chain that found each of `found` (the first choice: empty).
    private var foundLineage: [[Int]] = [[]]
    /// Chains' next offers not yet sent.
    var waiting: [Step] = []
    /// The streaks of the chain steps in flight.
    private(set) var running: [Int] = []
    /// Chains started (each ends with a refusal unless every suite it offered was accepted).
    private(set) var chains = 0
    private(set) var stop: HandshakeResult.Outcome?
    var order = OrderProbe.notNeeded
    var chacha = ChaChaProbe.notSent

    init(
        enumerator: VersionEnumerator, context: ClientContext, fullOffer: [OfferedSuite],
        first: HandshakeResult.Accepted
    ) {
        self.enumerator = enumerator
        self.context = context
        self.fullOffer = fullOffer
        found = [first]
        let rest = fullOffer.filter { $0.suite != first.suite }
        if !rest.isEmpty {
            waiting = [Step(offer: rest)]
            chains = 1
        }
    }

    var first: HandshakeResult.Accepted { found[0] }

    /// The design floor of this version as far as it is known: accepted + 1, + 1 for the order probe
    /// once two suites are known, + 1 for the ChaCha20 probe once it is sent.
    var floorSoFar: Int {
        if case .notSent = chacha { return found.count == 1 ? 2 : found.count + 2 }
        return found.count + 3
    }

    /// The offer that tells server order from client order: the full offer reversed, with the first choice moved
    /// last, so a server that follows the client picks another suite it accepts, and with the ECDHE AES-GCM suites
    /// first (then the other AES-GCM ones), as every Apple client's offer begins. Servers that pick by their own order may look at the
    /// client's first suite: Go's crypto/tls chooses between two built-in orders by whether the client's first
    /// suite it knows is AES-GCM (and so prefers hardware AES). Begun like an Apple client's offer, the probe
    /// meets the order an Apple client meets; begun with a CBC or ChaCha suite it would meet the other order,
    /// and a server order would read as client order.
    var orderProbeOffer: [OfferedSuite] { Self.orderProbe(fullOffer, first: first.suite) }

    static func orderProbe(_ offer: [OfferedSuite], first: CipherSuite) -> [OfferedSuite] {
        let rest = offer.reversed().filter { $0.suite != first }
        // Go counts only the ephemeral AES-GCM suites (and TLS 1.3's) as AES-GCM: they go first, as in an Apple offer.
        let rank = { (s: OfferedSuite) -> Int in
            guard s.suite.info?.encryption.hasPrefix("AESGCM") == true else { return 2 }
            let kx = s.suite.info?.keyExchange
            return kx == .ecdhe || kx == .tls13 ? 0 : 1
        }
        return rest.filter { rank($0) == 0 } + rest.filter { rank($0) == 1 } + rest.filter { rank($0) == 2 }
            + offer.filter { $0.suite == first }
    }

    /// The offer that tells whether the server puts ChaCha20-Poly1305 first for a client that lists it first
    /// (OpenSSL's `SSL_OP_PRIORITIZE_CHACHA` and Go's crypto/tls, which judge the client by its first suite; a
    /// BoringSSL group of equal preference, which follows the client within the group, answers the same): the
    /// ChaCha20 suite first, then the server's first choice: a server with its own order picks its first choice, one
    /// that prioritizes ChaCha20 the ChaCha20 suite. Asked as soon as the order probe has said the server has its
    /// own order and a ChaCha20 suite is found (not at the search's end: it was then the last step of a scan behind
    /// latency, issue 34), only of a server whose first choice is not ChaCha20: elsewhere the answer could change
    /// no prediction. An Apple client whose TLS 1.3 list starts with ChaCha20 (iOS 12.2) meets that order, not the
    /// one the order probe met. Nil when not needed (yet); marks the probe sent.
    mutating func takeChaChaProbe() -> [OfferedSuite]? {
        // The cheap conditions first: this is asked at every scheduling turn, and result() sorts what was found.
        guard case .notSent = chacha, case .answered = order, first.suite.info?.isChaCha20Poly1305 != true,
            let chacha = found.first(where: { $0.suite.info?.isChaCha20Poly1305 == true }),
            result().serverPreference == true
        else { return nil }
        self.chacha = .sent(chacha.suite)
        let offered = Dictionary(fullOffer.map { ($0.suite, $0) }, uniquingKeysWith: { a, _ in a })
        return [chacha.suite, first.suite].compactMap { offered[$0] }
    }

    /// Splits `step` into `pieces` chains (round-robin over its offer); the caller has checked the budget.
    mutating func split(_ step: Step, into pieces: Int) -> [Step] {
        let count = min(pieces, step.offer.count)
        guard count > 1 else { return [step] }
        chains += count - 1
        return Self.deal(step.offer, into: count).enumerated().map {
            Step(offer: $1, streak: 0, lineage: step.lineage + [$0])
        }
    }

    /// Records that `step` was sent.
    mutating func sent(_ step: Step) { running.append(step.streak) }

    /// The longest streak among this version's chains, waiting or in flight.
    var longestStreak: Int { max(running.max() ?? 0, waiting.map(\.streak).max() ?? 0) }

    /// Records the answer to a chain's `step`.
    mutating func absorb(_ answer: HandshakeResult, to step: Step) {
        if let index = running.firstIndex(of: step.streak) { running.remove(at: index) }
        guard let a = answer.accepted else {
            // Only a TLS-level refusal ends a chain as complete; a drop leaves its suites unknown.
            if case .refused = answer.outcome {} else { stop = stop ?? answer.outcome }
            return
        }
        guard a.version == enumerator.version, let index = step.offer.firstIndex(where: { $0.suite == a.suite }) else {
            stop = stop ?? .broken("server chose \(a.version) \(a.suite.ianaName), which was not offered")
            return
        }
        found.append(a)
        foundLineage.append(step.lineage)
        if found.count == 2, case .notNeeded = order { order = .waiting }
        var remaining = step.offer
        remaining.remove(at: index)
        // Every suite of this chain accepted: nothing left to refuse, the chain ends here.
        if !remaining.isEmpty { waiting.append(Step(offer: remaining, streak: step.streak + 1, lineage: step.lineage)) }
    }

    /// No order probe is waiting or in flight.
    var orderSettled: Bool {
        switch order {
        case .notNeeded, .answered: return true
        case .waiting, .sent: return false
        }
    }

    /// The accepted suites, ordered, and the order mode.
    func result() -> Result {
        var serverPreference: Bool?
        if found.count >= 2, case .answered(let answer) = order, let chosen = answer.accepted?.suite {
            // A server that follows the client picks an accepted suite before the first choice, which the
            // probe offers last; one with its own order picks its first choice again.
            serverPreference = chosen == first.suite
        }
        let position = Dictionary(fullOffer.enumerated().map { ($1.suite, $0) }, uniquingKeysWith: { a, _ in a })
        let byOffer = { (a: HandshakeResult.Accepted, b: HandshakeResult.Accepted) in
            position[a.suite, default: .max] < position[b.suite, default: .max]
        }
        if serverPreference == false {
            return Result(
                ordered: found.sorted(by: byOffer), serverPreference: false, serverOrderComplete: true, stop: stop)
        }
        var chachaPrioritized: Bool?
        if case .answered(let suite, let answer) = chacha, let chosen = answer.accepted?.suite {
            chachaPrioritized = chosen == suite
        }
        // Suites found along one path of the split tree were found in the server's order: each was its first
        // choice from an offer holding every suite found after it on that path. Suites found by two pieces
        // of one split are not ordered against each other: then the first choice, and the offer's order.
        let onePath = Self.isTotallyOrdered(foundLineage)
        let ordered = onePath ? found : [found[0]] + found.dropFirst().sorted(by: byOffer)
        return Result(
            ordered: ordered, serverPreference: serverPreference, serverOrderComplete: onePath, stop: stop,
            chachaPrioritized: chachaPrioritized)
    }

    private static func isPrefix(_ a: [Int], of b: [Int]) -> Bool {
        a.count <= b.count && Array(b.prefix(a.count)) == a
    }

    /// Whether every two lineages lie on one path (one is a prefix of the other).
    private static func isTotallyOrdered(_ lineages: [[Int]]) -> Bool {
        let longest = lineages.max { $0.count < $1.count } ?? []
        return lineages.allSatisfy { isPrefix($0, of: longest) }
    }

    /// `offer` dealt round-robin into `pieces` lists, each in the offer's order.
    static func deal(_ offer: [OfferedSuite], into pieces: Int) -> [[OfferedSuite]] {
        guard pieces > 1 else { return [offer] }
        var out = Array(repeating: [OfferedSuite](), count: pieces)
        for (index, suite) in offer.enumerated() { out[index % pieces].append(suite) }
        return out
    }
}
