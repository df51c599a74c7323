import Foundation
import TLSHello
import TLSModel

/// One version's steps with a ClientHello of our own (issue 35; docs/architecture.md#the-probe): what OpenSSL 3.0
/// cannot offer or was refused, and the key-exchange groups.
///
/// **The suite check.** Once OpenSSL's search of a version has ended (every chain refused), one more step offers
/// every suite of the catalogue (``HelloCatalogue``) the version can carry that was not found: 3DES, RC4, Camellia
/// and ARIA in GCM, static ECDH, PSK, and the DHE suites a server hid from OpenSSL's offer because it had no ffdhe
/// group in it. A refusal makes the list complete; a suite chosen is added and the rest offered again. A version
/// OpenSSL's offer was refused for (not with `protocol_version`, which says the version itself is not spoken) is
/// checked the same way, so a version reachable only through such suites is supported.
///
/// **Groups.** TLS 1.3 and TLS 1.2 each have their groups enumerated in pieces run side by side: post-quantum
/// hybrids (X25519MLKEM768 first, with a real key share, so its handshake is proven by decrypting the server's
/// EncryptedExtensions), the classic curves, the ffdhe groups (TLS 1.2: only once a DHE suite is known) and the
/// brainpool curves. Each piece offers its groups not yet found; the server picks one (a ServerHello, a
/// HelloRetryRequest, or in TLS 1.2 the ServerKeyExchange's curve or ffdhe prime) or refuses, which ends the piece.
/// Groups are reported in the catalogue's order: which one a server prefers is not claimed.
struct HelloSearch {
    let version: TLSVersion

    /// A piece of the group enumeration: its groups not yet found, and the suites its offers carry.
    struct GroupPiece: Sendable {
        var groups: [UInt16]
        var suites: [CipherSuite]
    }

    enum Check {
        /// No check for this version (TLS 1.3, whose suites OpenSSL offers, or a version not worth one).
        case notNeeded
        /// Waiting for OpenSSL's search to end.
        case pending
        /// Its chains are waiting or in flight.
        case running
        /// Every chain ended: by a refusal, or by a step that never answered.
        case done
    }

    /// The most suites one hello of the check offers: wolfSSL closes the connection, with no alert, on a hello of
    /// more than 150 (its `WOLFSSL_MAX_SUITE_SZ` of 300 bytes), so the catalogue is offered in chains of this many.
    static let checkChunk = 128

    var check = Check.pending
    /// The check's chains' next offers, waiting for a slot.
    private var checkWaiting: [[CipherSuite]] = []
    private var checkRunning = 0
    /// Suites the check found, in the order found.
    private(set) var found: [HandshakeResult.Accepted] = []
    /// Suites of the catalogue the check offered and never saw answered (a step that never got a TLS answer).
    private(set) var unchecked: [CipherSuite] = []
    private(set) var checkStop: HandshakeResult.Outcome?
    /// An early check (``startEarlyCheck(known:offeredByOpenSSL:)``): OpenSSL's DHE suites it offers last, its
    /// picks of them held until the search ends, and whether it has (nil: the check started after it).
    private var deferredDHE: [CipherSuite] = []
    private var heldDHE: [HandshakeResult.Accepted] = []
    private var searchEnded: Bool?
    /// What the search found, once it ended: a check step in flight then that picks one of them found nothing new.
    private var foundBySearch: Set<CipherSuite> = []

    /// Group pieces waiting for a slot.
    var groupPieces: [GroupPiece] = []
    private(set) var groupsStarted = false
    private var ffdheStarted = false
    /// Accepted groups, and whether a handshake with each was proven (TLS 1.3 with a key share of ours; nil: no
    /// proof was made, as for a group accepted by a HelloRetryRequest).
    private(set) var groups: [UInt16: Bool?] = [:]
    private(set) var groupsStop: HandshakeResult.Outcome?

    init(version: TLSVersion) {
        self.version = version
        if version >= .tls1_3 { check = .notNeeded }
    }

    // MARK: The suite check

    /// Starts the check once OpenSSL's search has found `known` (nothing: the version's offer was refused), given
    /// what OpenSSL offered (`offeredByOpenSSL`): those suites are not offered again, but for the DHE ones, which a
    /// server may choose only when an ffdhe group is offered (RFC 7919; GnuTLS), and OpenSSL 3.0 offers none in a
    /// TLS 1.2 hello.
    mutating func startCheck(known: [CipherSuite], offeredByOpenSSL: [CipherSuite]) {
        guard case .pending = check else {
            if case .running = check, searchEnded == false { endSearch(known: known) }
            return
        }
        // TLS 1.3's suites are all OpenSSL's; its check asks again with the groups OpenSSL lacks (ML-KEM).
        let tested = version >= .tls1_3 ? [] : Set(offeredByOpenSSL.filter { HelloCatalogue.keyExchange($0) != .dhe })
        let rest = HelloCatalogue.suites(for: version).filter { !known.contains($0) && !tested.contains($0) }
        checkWaiting = Self.chunks(rest)
        check = checkWaiting.isEmpty ? .done : .running
    }

    /// Starts the check while OpenSSL's search is still running (issue 34: at its end, the check was the last step of
    /// a scan behind latency), once the server has shown it serves connections side by side (on a server that serves
    /// one at a time it buys nothing). OpenSSL's DHE suites not yet found (`deferredDHE`) go last: a server that picks
    /// one of them from the check's hello may pick it from OpenSSL's too, so the search may still find it. A pick of
    /// one is held, not followed, and the check's chain goes on without them; when the search ends
    /// (``startCheck(known:offeredByOpenSSL:)``), a held suite the search found is dropped (one handshake spent
    /// twice, on a DHE server only), and one it did not is the check's, with the rest of those suites offered after
    /// it as before. A server with no DHE refuses them in the chunk that refuses the rest: no handshake more.
    mutating func startEarlyCheck(known: [CipherSuite], offeredByOpenSSL: [CipherSuite]) {
        guard case .pending = check, version < .tls1_3 else { return }
        let openSSL = Set(offeredByOpenSSL)
        let rest = HelloCatalogue.suites(for: version).filter { !known.contains($0) && !openSSL.contains($0) }
        deferredDHE = offeredByOpenSSL.filter { HelloCatalogue.keyExchange($0) == .dhe && !known.contains($0) }
        searchEnded = false
        checkWaiting = Self.chunks(rest + deferredDHE)
        check = checkWaiting.isEmpty ? .done : .running
    }

    /// The search has ended with `known` found: a held DHE pick is kept or dropped, and the DHE suites neither found
    /// nor refused are offered (``startEarlyCheck(known:offeredByOpenSSL:)``).
    private mutating func endSearch(known: [CipherSuite]) {
        searchEnded = true
        foundBySearch = Set(known)
        checkWaiting = checkWaiting.map { $0.filter { !known.contains($0) } }.filter { !$0.isEmpty }
        let held = heldDHE.filter { !known.contains($0.suite) }
        found += held
        if !heldDHE.isEmpty {
            let left = deferredDHE.filter { suite in !known.contains(suite) && !heldDHE.contains { $0.suite == suite } }
            if !held.isEmpty && !left.isEmpty { checkWaiting += Self.chunks(left) }
        }
        heldDHE = []
        if checkWaiting.isEmpty && checkRunning == 0 { check = .done }
    }

    /// `suites` in offers of at most ``checkChunk``.
    private static func chunks(_ suites: [CipherSuite]) -> [[CipherSuite]] {
        stride(from: 0, to: suites.count, by: checkChunk).map { Array(suites[$0..<min($0 + checkChunk, suites.count)]) }
    }

    /// The check's offers waiting (right after ``startCheck(known:offeredByOpenSSL:)``: its chains).
    var waitingCheckOffers: Int { checkWaiting.count }

    /// A check chain's next offer, if one is waiting.
    mutating func takeCheck() -> [CipherSuite]? {
        guard !checkWaiting.isEmpty else { return nil }
        checkRunning += 1
        return checkWaiting.removeFirst()
    }

    mutating func absorbCheck(_ answer: HandshakeResult, offer: [CipherSuite]) {
        checkRunning -= 1
        defer { if checkWaiting.isEmpty && checkRunning == 0 && searchEnded != false { check = .done } }
        if let a = answer.accepted, a.version == version, offer.contains(a.suite) {
            var rest = offer.filter { $0 != a.suite }
            if searchEnded == false && deferredDHE.contains(a.suite) {
                heldDHE.append(a)  // the search may find it: held until it ends
                rest.removeAll { deferredDHE.contains($0) }
            } else if foundBySearch.contains(a.suite) {
                rest.removeAll { foundBySearch.contains($0) }
            } else {
                found.append(a)
            }
            if !rest.isEmpty { checkWaiting.append(rest) }
            return
        }
        if case .refused = answer.outcome { return }
        checkStop =
            checkStop
            ?? answer.accepted.map {
                .broken("server chose \($0.version) \($0.suite.ianaName), which was not offered")
            } ?? answer.outcome
        unchecked += offer
    }

    // MARK: Placing the check's suites in the server's order

    /// Where the suites the check found go in the order of a server that picks by its own: the check offered them
    /// after OpenSSL's search, in chains of its own, so neither the search's order nor the order found says where.
    /// Each is placed by halving, one handshake per step offering it beside a suite already ranked (the server picks
    /// the one it prefers). When only one suite is ranked (OpenSSL found one, or none and the check found the
    /// rest), two handshakes first offer it and another in both orders: the same pick says the server has its own
    /// order, different picks say it follows the client, and nothing needs placing.
    enum Placement {
        case notNeeded
        /// Settling the order mode: `ranked[0]` against `toPlace[0]`, in both orders; the first pick.
        case mode(firstPick: CipherSuite?)
        /// Placing `toPlace[0]` within `ranked[lo..<hi]`.
        case inserting(lo: Int, hi: Int)
        case done
        /// A step got no answer: the order beyond the search's is not known.
        case failed
    }

    private(set) var placement = Placement.notNeeded
    /// The server's order as far as placed.
    private(set) var ranked: [CipherSuite] = []
    private var toPlace: [CipherSuite] = []
    /// Whether the server picks by its own order, when the placement settled it.
    private(set) var placedPreference: Bool?
    private var placing = false
    private var placementStarted = false

    /// Starts placing once the check has ended: `searched` is the search's result in its order (empty: OpenSSL's
    /// offer was refused), `preference` and `orderComplete` what the search knows of the order.
    mutating func startPlacement(searched: [CipherSuite], preference: Bool?, orderComplete: Bool) {
        guard !placementStarted, case .done = check, !found.isEmpty else { return }
        placementStarted = true
        var known = searched
        var extra = found.map(\.suite).filter { !searched.contains($0) }
        if known.isEmpty {
            known = [extra.removeFirst()]
        }
        guard !extra.isEmpty else { return }
        if known.count >= 2 {
            guard preference == true && orderComplete else { return }  // client order, or a partial one
            ranked = known
            toPlace = extra
            placement = .inserting(lo: 0, hi: ranked.count)
        } else {
            ranked = known
            toPlace = extra
            placement = .mode(firstPick: nil)
        }
    }

    /// The next placement offer, if one is due and none is in flight.
    mutating func takePlacement() -> [CipherSuite]? {
        guard !placing else { return nil }
        switch placement {
        case .mode(let firstPick):
            placing = true
            return firstPick == nil ? [toPlace[0], ranked[0]] : [ranked[0], toPlace[0]]
        case .inserting(let lo, let hi):
            placing = true
            return [toPlace[0], ranked[(lo + hi) / 2]]
        case .notNeeded, .done, .failed:
            return nil
        }
    }

    mutating func absorbPlacement(_ answer: HandshakeResult, offer: [CipherSuite]) {
        placing = false
        guard let pick = answer.accepted?.suite, offer.contains(pick) else {
            placement = .failed
            return
        }
        switch placement {
        case .mode(nil):
            placement = .mode(firstPick: pick)
        case .mode(let first?):
            guard first == pick else {
                placedPreference = false  // each order got its own first suite: the client's order rules
                placement = .done
                return
            }
            placedPreference = true
            let other = toPlace.removeFirst()
            ranked = pick == ranked[0] ? [ranked[0], other] : [other, ranked[0]]
            placement = toPlace.isEmpty ? .done : .inserting(lo: 0, hi: ranked.count)
        case .inserting(var lo, var hi):
            let mid = (lo + hi) / 2
            if pick == toPlace[0] { hi = mid } else { lo = mid + 1 }
            guard lo == hi else {
                placement = .inserting(lo: lo, hi: hi)
                return
            }
            ranked.insert(toPlace.removeFirst(), at: lo)
            placement = toPlace.isEmpty ? .done : .inserting(lo: 0, hi: ranked.count)
        case .notNeeded, .done, .failed:
            break
        }
    }

    // MARK: Groups

    /// Starts the group enumeration of a supported version (TLS 1.2 and 1.3) once; `dhe`: a DHE suite is known.
    mutating func startGroups(dhe: Bool) {
        guard version >= .tls1_2 else { return }
        if !groupsStarted {
            groupsStarted = true
            groupPieces = HelloCatalogue.groupPieces(for: version)
            if version >= .tls1_3 { ffdheStarted = true }
        }
        if dhe && !ffdheStarted && version == .tls1_2 {
            ffdheStarted = true
            groupPieces.append(HelloCatalogue.ffdhePieceTLS12)
        }
    }

    mutating func takeGroupPiece() -> GroupPiece? {
        guard !groupPieces.isEmpty else { return nil }
        return groupPieces.removeFirst()
    }

    mutating func absorbGroups(_ answer: HandshakeResult, piece: GroupPiece) {
        switch answer.outcome {
        case .answered(let a):
            guard a.version == version, let group = answer.hello?.group else {
                // TLS 1.2 DHE with a prime of the server's own (no RFC 7919 group): it ignores the ffdhe offer.
                if a.version == version, answer.hello?.dhPrimeBits != nil { return }
                groupsStop = groupsStop ?? .broken("server chose \(a.version) \(a.suite.ianaName) and no group")
                return
            }
            guard piece.groups.contains(group) else {
                // A TLS 1.2 server that uses its one ffdhe prime whatever the client lists (it predates RFC 7919
                // negotiation): nothing more to learn from this piece.
                if version < .tls1_3, HelloCatalogue.ffdhe.contains(group) { return }
                groupsStop =
                    groupsStop
                    ?? .broken("server chose group \(NamedGroupCatalogue.name(group)), which was not offered")
                return
            }
            let proof = answer.hello?.proven
            switch (groups[group] ?? nil, proof) {
            case (true?, _), (_, true?): groups[group] = .some(true)
            case (false?, _), (_, false?): groups[group] = .some(false)
            default: groups[group] = .some(nil)
            }
            let rest = piece.groups.filter { $0 != group }
            if !rest.isEmpty { groupPieces.append(GroupPiece(groups: rest, suites: piece.suites)) }
        case .refused:
            return
        default:
            groupsStop = groupsStop ?? answer.outcome
        }
    }

    /// The accepted groups, in the catalogue's order.
    var acceptedGroups: [(code: UInt16, proven: Bool?)] {
        HelloCatalogue.groupOrder.compactMap { code in groups[code].map { (code, $0) } }
    }
}

/// What the ClientHellos of our own offer (``HelloSearch``): the engine's catalogue, cut to what each version can
/// carry.
enum HelloCatalogue {
    /// Every suite of the catalogue a server may choose for `version`: TLS 1.3's five for TLS 1.3; for TLS ≤ 1.2 the
    /// rest, without the AEAD and SHA-2 suites below TLS 1.2 (RFC 5246 brought them).
    static func suites(for version: TLSVersion) -> [CipherSuite] {
        if version >= .tls1_3 { return CipherSuiteCatalogue.tls13.map { CipherSuite($0) } }
        let all = CipherSuiteCatalogue.tls12AndBelow
        return all.filter { version >= .tls1_2 || !needsTLS12($0) }.map { CipherSuite($0) }
    }

    /// Whether a TLS ≤ 1.2 suite exists only from TLS 1.2 on: AEAD (GCM, CCM, ChaCha20) or a SHA-256/384 MAC.
    static func needsTLS12(_ code: UInt16) -> Bool {
        if let info = CipherSuite(code).info { return info.minimumVersion >= .tls1_2 }
        let name = CipherSuiteCatalogue.name(code)
        return ["_GCM_", "_CCM", "CHACHA20", "_SHA256", "_SHA384"].contains { name.contains($0) }
    }

    /// Where `suite` sits in the catalogue (the order checks offer in).
    static func position(_ suite: CipherSuite) -> Int {
        positions[suite.rawValue] ?? .max
    }

    private static let positions: [UInt16: Int] = Dictionary(
        CipherSuiteCatalogue.all.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { a, _ in a })

    static func keyExchange(_ suite: CipherSuite) -> CipherSuiteCatalogue.KeyExchange? {
        CipherSuiteCatalogue.entry(suite.rawValue)?.keyExchange
    }

    /// The order groups are listed in (reports): post-quantum hybrids, the classic curves, ffdhe, brainpool.
    static let groupOrder: [UInt16] =
        postQuantum + commonCurves + otherCurves + ffdhe + brainpoolTLS13 + brainpoolTLS12

    static let postQuantum: [UInt16] = [0x11EC, 0x11EB, 0x11ED, 0x6399]
    static let ffdhe: [UInt16] = [0x0100, 0x0101, 0x0102, 0x0103, 0x0104]
    static let brainpoolTLS13: [UInt16] = [0x001F, 0x0020, 0x0021]
    static let brainpoolTLS12: [UInt16] = [0x001A, 0x001B, 0x001C]

    /// The curves nearly every server accepts (X25519, P-256, P-384) and the rest (P-521, X448): the classic curves
    /// are enumerated as two pieces side by side, since a piece is a chain of one handshake per group it finds and a
    /// server with every curve made the one piece the scan's longest chain (issue 34: six steps behind 50 ms, where
    /// two pieces take four for one more handshake).
    static let commonCurves: [UInt16] = [0x001D, 0x0017, 0x0018]
    static let otherCurves: [UInt16] = [0x0019, 0x001E]

    /// The pieces a version's groups are enumerated in, side by side.
    static func groupPieces(for version: TLSVersion) -> [HelloSearch.GroupPiece] {
        if version >= .tls1_3 {
            let suites = suites(for: .tls1_3)
            return [
                .init(groups: postQuantum, suites: suites),
                .init(groups: commonCurves, suites: suites),
                .init(groups: otherCurves, suites: suites),
                // Two ffdhe pieces for the same reason: OpenSSL 3.0 servers accept all five in TLS 1.3.
                .init(groups: Array(ffdhe.prefix(3)), suites: suites),
                .init(groups: Array(ffdhe.dropFirst(3)), suites: suites),
                .init(groups: brainpoolTLS13, suites: suites),
            ]
        }
        let ecdhe = suites(for: .tls1_2).filter { keyExchange($0) == .ecdhe }
        return [
            .init(groups: commonCurves, suites: ecdhe), .init(groups: otherCurves + brainpoolTLS12, suites: ecdhe),
        ]
    }

    /// TLS 1.2's ffdhe piece: DHE suites with the RFC 7919 groups.
    static var ffdhePieceTLS12: HelloSearch.GroupPiece {
        .init(groups: ffdhe, suites: suites(for: .tls1_2).filter { keyExchange($0) == .dhe })
    }

    /// The groups a suite check offers: every classic curve and ffdhe group (a server that reads RFC 7919 strictly
    /// chooses DHE only when an ffdhe group is offered); in TLS 1.3 the post-quantum hybrids first, with a key
    /// share for X25519MLKEM768, as iOS 26 sends (a server that accepts only those is still reached).
    static func checkGroups(_ version: TLSVersion) -> [UInt16] {
        version >= .tls1_3
            ? postQuantum + commonCurves + otherCurves + ffdhe + brainpoolTLS13
            : commonCurves + otherCurves + brainpoolTLS12 + ffdhe
    }
}
