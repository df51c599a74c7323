import Foundation
import TLSModel

/// The parallel part of a version's enumeration (design.md §5): after the server's first choice from
/// the full offer, the rest of the offer is enumerated by offer/remove chains, and a chain that finds a
/// suite is split in two when the handshake budget allows, so the chains run side by side (each
/// connection within the per-host cap).
///
/// **Budget.** A chain ends with one refusal, so each split costs one handshake more than a single
/// chain. With `n` suites accepted the design floor of a version is `n + 2` (`n + 1` for `n = 1`), and a
/// split is made only while `splits ≤ (found + 2) / 4`: the version never costs more than 1.25 × its
/// floor, and a server with one or two suites costs exactly the floor. The reversed offer that tells the
/// order is sent once two suites are known, beside the chains.
///
/// **Order.** A server that follows the client's order chose the suites in the order offered, so the
/// list is sorted by the offer. A server with its own order: the first suite is its first choice from
/// the full offer, and the others follow in the order the chains found them (within one chain, the
/// server's order; across chains, by round). A single chain, as for a server with few suites, gives the
/// server's whole order.
struct SuiteSearch {
    let enumerator: VersionEnumerator
    let context: ClientContext
    let fullOffer: [OfferedSuite]

    struct Result {
        /// The accepted suites, ordered as the type's documentation says.
        var ordered: [HandshakeResult.Accepted]
        var serverPreference: Bool?
        /// Why a chain ended without a TLS answer (nil: every chain ended with a refusal: complete).
        var stop: HandshakeResult.Outcome?
    }

    private enum Job: Sendable {
        /// A chain's step; `extra`: the chain holds a permit of its own (taken when it was split off).
        case chain(offer: [OfferedSuite], round: Int, extra: Bool, HandshakeResult)
        case order(HandshakeResult)
    }

    private struct Found {
        var accepted: HandshakeResult.Accepted
        var round: Int
    }

    /// Enumerates the suites after `first` (the server's choice from the full offer). The caller holds
    /// one per-host permit for the version; each chain split off takes a free one (never waiting for it)
    /// and gives it back when it ends, so the chains stay within the per-host cap, and with a cap of one
    /// the search is the single sequential chain of design.md §5.
    func run(first: HandshakeResult.Accepted) async -> Result {
        let rest = fullOffer.filter { $0.suite != first.suite }
        var found = [Found(accepted: first, round: 0)]
        var splits = 0
        var stop: HandshakeResult.Outcome?
        var orderAnswer: HandshakeResult?
        let context = self.context
        let enumerator = self.enumerator
        let limiter = enumerator.session.limiter
        let key = enumerator.session.limitKey
        let reversed = Array(fullOffer.reversed())
        var orderDeferred = false

        await withTaskGroup(of: Job.self) { group in
            func launch(_ offer: [OfferedSuite], round: Int, extra: Bool) {
                group.addTask {
                    .chain(offer: offer, round: round, extra: extra, await enumerator.offer(offer, context: context))
                }
            }
            var orderSent = false
            if !rest.isEmpty { launch(rest, round: 1, extra: false) }
            for await job in group {
                switch job {
                case .order(let answer):
                    orderAnswer = answer
                    limiter.release(key)
                case .chain(let offer, let round, let extra, let answer):
                    guard let a = answer.accepted else {
                        // Only a TLS-level refusal ends a chain as complete; a drop leaves its suites unknown.
                        if case .rejected = answer.outcome {} else { stop = stop ?? answer.outcome }
                        if extra { limiter.release(key) }
                        continue
                    }
                    guard a.version == enumerator.version, let index = offer.firstIndex(where: { $0.suite == a.suite }) else {
                        stop = stop ?? .protocolError("server chose \(a.version) \(a.suite.ianaName), which was not offered")
                        if extra { limiter.release(key) }
                        continue
                    }
                    found.append(Found(accepted: a, round: round))
                    if !orderSent && found.count >= 2 {
                        orderSent = true
                        if limiter.tryAcquire(key) {
                            group.addTask { .order(await enumerator.offer(reversed, context: context)) }
                        } else {
                            orderDeferred = true  // sent after the chains, on the version's own permit
                        }
                    }
                    var remaining = offer
                    remaining.remove(at: index)
                    if remaining.isEmpty {  // every suite of this chain accepted: nothing left to refuse
                        if extra { limiter.release(key) }
                        continue
                    }
                    var pieces = 1
                    let budget = min(remaining.count, 1 + max(0, (found.count + 2) / 4 - splits))
                    while pieces < budget && limiter.tryAcquire(key) { pieces += 1 }
                    splits += pieces - 1
                    for (n, piece) in Self.split(remaining, into: pieces).enumerated() {
                        launch(piece, round: round + 1, extra: n == 0 ? extra : true)
                    }
                }
            }
        }
        if orderDeferred {
            orderAnswer = await enumerator.offer(reversed, context: context)
        }

        var serverPreference: Bool?
        if found.count >= 2, let chosen = orderAnswer?.accepted?.suite {
            // A server that follows the client picks the last accepted suite of the reversed offer;
            // one with its own order picks its first choice again.
            serverPreference = chosen == first.suite
        }
        var ordered = found
        if serverPreference == false {
            let position = Dictionary(fullOffer.enumerated().map { ($1.suite, $0) }, uniquingKeysWith: { a, _ in a })
            ordered.sort { position[$0.accepted.suite, default: .max] < position[$1.accepted.suite, default: .max] }
        } else {
            ordered = [found[0]] + found.dropFirst().enumerated().sorted {
                ($0.element.round, $0.offset) < ($1.element.round, $1.offset)
            }.map(\.element)
        }
        return Result(ordered: ordered.map(\.accepted), serverPreference: serverPreference, stop: stop)
    }

    /// `offer` cut into `pieces` runs of nearly equal length, in order.
    static func split(_ offer: [OfferedSuite], into pieces: Int) -> [[OfferedSuite]] {
        guard pieces > 1 else { return [offer] }
        let size = offer.count / pieces, extra = offer.count % pieces
        var start = 0
        return (0..<pieces).map { index in
            let length = size + (index < extra ? 1 : 0)
            defer { start += length }
            return Array(offer[start..<start + length])
        }
    }
}
