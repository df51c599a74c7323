import Foundation
import TLSHello
import TLSModel

/// What a ClientHello of our own offers (``HelloExchange``; issue 35): suites and groups OpenSSL 3.0 cannot offer.
struct HelloOffer: Sendable {
    /// The one version offered.
    var version: TLSVersion
    /// The suites, in this order.
    var suites: [CipherSuite]
    /// supported_groups, in this order; TLS 1.3 sends a key share for the first the engine can make.
    var groups: [UInt16]
    /// The server name sent (nil: none, as for an IP literal).
    var sni: String?

    /// The question of ``EndpointSession/refusesByClosing()``: TLS 1.2 with one GREASE suite, which no server
    /// accepts (RFC 8701), so every server refuses it — with an alert, or by closing.
    static func refusalCanary(sni: String?) -> HelloOffer {
        HelloOffer(version: .tls1_2, suites: [CipherSuite(0x0A0A)], groups: [0x001D, 0x0017], sni: sni)
    }

    var profile: HelloProfile {
        HelloProfile.probe(
            version: version.rawValue, suites: suites.map(\.rawValue), groups: groups, keyShares: 1)
    }
}

/// What a ClientHello of our own learnt beyond the accepted suite.
struct HelloFacts: Sendable {
    /// The group the server chose: its key share (TLS 1.3), the group of its HelloRetryRequest, or the named curve
    /// or RFC 7919 prime of its ServerKeyExchange (TLS ≤ 1.2); nil when none was chosen or named.
    var group: UInt16?
    /// The server answered with a HelloRetryRequest (it chose `group`, for which no key share was sent).
    var helloRetry = false
    /// TLS 1.3: the server's first encrypted record was decrypted with the keys of the negotiated group, so the
    /// handshake with that group is proven; nil when no proof was attempted.
    var proven: Bool?
    /// A TLS ≤ 1.2 DHE prime of the server's own (not an RFC 7919 group): its size.
    var dhPrimeBits: Int?
    /// The scheme the server signed with: TLS 1.3's CertificateVerify or TLS 1.2's ServerKeyExchange, when read
    /// (``SimulatedHelloExchange``); nil otherwise.
    var signatureScheme: UInt16?

    /// Notes what a TLS ≤ 1.2 ServerKeyExchange names: its curve, or its RFC 7919 group (and a prime of the
    /// server's own by its size).
    mutating func note(_ exchange: ServerKeyExchangeFacts) {
        switch exchange {
        case .ecdhe(let group): self.group = group
        case .dhe(let bits, let ffdhe):
            group = ffdhe
            if ffdhe == nil { dhPrimeBits = bits }
        case .ecdheExplicit, .other: break
        }
    }
}

/// Sends a ClientHello of our own and reads the answer, with no OpenSSL (TLSHello builds and reads the bytes): the
/// ServerHello (version, suite, group), a HelloRetryRequest, an alert, a close, silence or something not TLS. TLS
/// ≤ 1.2 is read to the ServerKeyExchange (the group) or the ServerHelloDone; TLS 1.3 to the first encrypted
/// record, which proves the key exchange when the engine sent the chosen group's key share.
struct HelloExchange {
    var sni: String?

    func run(
        _ offer: HelloOffer, on socket: TCPSocket, deadline: Deadline, received: inout Int
    ) async -> (HandshakeResult.Outcome, HelloFacts?) {
        let built: BuiltClientHello
        switch await Self.open(
            offer.profile, serverName: offer.sni ?? sni, naming: "the ClientHello", on: socket, deadline: deadline,
            received: received)
        {
        case .sent(let hello): built = hello
        case .ended(let outcome): return (outcome, nil)
        }

        var reader = ServerFlightReader()
        var firstBytes: [UInt8] = []
        var hello: ServerHelloFacts?
        var chain: [[UInt8]] = []
        var facts = HelloFacts()
        while true {
            while let event = reader.next() {
                switch event {
                case .serverHello(let serverHello):
                    hello = serverHello
                    facts.group = serverHello.selectedGroup
                    let version = TLSVersion(rawValue: serverHello.version)
                    guard version == offer.version, offer.suites.contains(CipherSuite(serverHello.cipherSuite))
                    else {
                        return (Self.declined(serverHello, offer: offer), facts)
                    }
                    if version >= .tls1_3 {
                        // The key exchange is proven by the first encrypted record when our share was chosen.
                        if let group = serverHello.selectedGroup, built.keyShare(for: group) == nil {
                            return (
                                .broken(
                                    "server chose group \(NamedGroupCatalogue.name(group)), with no key share offered"),
                                facts
                            )
                        }
                    }
                case .helloRetryRequest(let retry):
                    facts.helloRetry = true
                    facts.group = retry.group
                    let version = TLSVersion(rawValue: retry.version)
                    guard version == offer.version, offer.suites.contains(CipherSuite(retry.cipherSuite))
                    else {
                        return (.refused(.declined("server's HelloRetryRequest chose what was not offered")), facts)
                    }
                    return (.answered(Self.accepted(version, CipherSuite(retry.cipherSuite), facts, chain: [])), facts)
                case .certificate(let certificates):
                    chain = certificates
                case .serverKeyExchange(let exchange):
                    facts.note(exchange)
                    if let hello { return Self.answer(hello, facts, chain) }
                case .serverHelloDone:
                    if let hello { return Self.answer(hello, facts, chain) }
                case .encryptedRecord(let record):
                    guard let hello else { return (.broken("an encrypted record before the ServerHello"), facts) }
                    facts.proven = HelloProof.proves(built: built, serverHello: hello, record: record)
                    return Self.answer(hello, facts, chain)
                case .otherHandshake:
                    continue
                case .alert, .notTLS, .malformed:
                    let outcome = Self.ending(
                        event, afterServerHello: hello != nil && offer.version >= .tls1_3, firstBytes: firstBytes)
                    return (outcome, outcome.isNotTLS ? nil : facts)
                }
            }
            if let ended = await Self.readMore(
                socket, deadline: deadline, into: &reader, firstBytes: &firstBytes, received: &received)
            {
                return (ended, ended.isDropOrSilence ? nil : facts)
            }
        }
    }

    /// The outcome of an alert, a non-TLS answer or a malformed one (`afterServerHello`: an alert then breaks the
    /// handshake rather than refusing it); nil for any other event. Shared with ``SimulatedHelloExchange``.
    static func ending(
        _ event: ServerFlightEvent, afterServerHello: Bool, firstBytes: [UInt8]
    ) -> HandshakeResult.Outcome {
        switch event {
        case .alert(_, let description):
            let code = AlertDescription(rawValue: description)
            if afterServerHello { return .broken("server sent alert \(code) after its ServerHello") }
            return .refused(.alert(code, said: "\(code)"))
        case .notTLS(let bytes):
            return .notTLS(PeerBytes(bytes: Array(bytes.prefix(16))))
        case .malformed(let reason):
            if let first = firstBytes.first, first != 0x15 && first != 0x16 {
                return .notTLS(PeerBytes(bytes: firstBytes))
            }
            return .broken("malformed answer: \(reason)")
        default:
            return .broken("unexpected \(event)")
        }
    }

    /// Reads the server's next bytes into `reader`: nil when some came, else how the connection ended. Cut off or
    /// stalled before the flight was read to its end (the group, the proof): a drop, as an OpenSSL handshake cut
    /// there is, even after a ServerHello. Shared with ``SimulatedHelloExchange``.
    static func readMore(
        _ socket: TCPSocket, deadline: Deadline, into reader: inout ServerFlightReader, firstBytes: inout [UInt8],
        received: inout Int
    ) async -> HandshakeResult.Outcome? {
        switch await Handshaker.receiveNext(
            on: socket, deadline: deadline, firstBytes: &firstBytes, received: &received)
        {
        case .bytes(let bytes):
            reader.feed(bytes)
            return nil
        case .ended(let outcome):
            return outcome
        }
    }

    /// Sends the hello: nil when it went out, else the outcome of the failed send. Shared with
    /// ``SimulatedHelloExchange``.
    /// A hello built and sent, or the outcome that ended the exchange first.
    enum Opened {
        case sent(BuiltClientHello)
        case ended(HandshakeResult.Outcome)
    }

    /// Builds `profile`'s hello for `serverName`, with the process's key pair per group, and sends it; a hello that
    /// cannot be built is `notRun`, naming it (`what`).
    static func open(
        _ profile: HelloProfile, serverName: String?, naming what: String, on socket: TCPSocket, deadline: Deadline,
        received: Int
    ) async -> Opened {
        let built: BuiltClientHello
        do {
            built = try ClientHelloBuilder(profile: profile, serverName: serverName, reuseKeyShares: true).build()
        } catch {
            return .ended(.notRun("could not build \(what): \(error)"))
        }
        if let failure = await send(built.bytes, on: socket, deadline: deadline, received: received) {
            return .ended(failure)
        }
        return .sent(built)
    }

    static func send(_ bytes: [UInt8], on socket: TCPSocket, deadline: Deadline, received: Int) async
        -> HandshakeResult.Outcome?
    {
        do {
            try await socket.sendAll(bytes, deadline: deadline)
            return nil
        } catch let failure as ProbeFailure {
            return Handshaker.classify(failure, received: received)
        } catch {
            return .broken("\(error)")
        }
    }

    private static func answer(
        _ hello: ServerHelloFacts, _ facts: HelloFacts, _ chain: [[UInt8]]
    ) -> (HandshakeResult.Outcome, HelloFacts?) {
        let version = TLSVersion(rawValue: hello.version)
        return (.answered(accepted(version, CipherSuite(hello.cipherSuite), facts, chain: chain)), facts)
    }

    private static func accepted(
        _ version: TLSVersion, _ suite: CipherSuite, _ facts: HelloFacts, chain: [[UInt8]]
    ) -> HandshakeResult.Accepted {
        let (name, bits) = groupLabel(facts)
        return HandshakeResult.Accepted(
            version: version, suite: suite, openSSLName: suite.info?.openSSLName ?? suite.ianaName, group: name,
            groupBits: bits, chainDER: chain, ocspStapled: false)
    }

    /// The group as the report names a suite's key exchange (`X25519`, `P-256`, `DH-2048`, `X25519MLKEM768`).
    static func groupLabel(_ facts: HelloFacts) -> (String?, Int?) {
        if let bits = facts.dhPrimeBits { return ("DH-\(bits)", bits) }
        guard let group = facts.group else { return (nil, nil) }
        switch group {
        case 0x001D: return ("X25519", 253)
        case 0x001E: return ("X448", 448)
        case 0x0017: return ("P-256", 256)
        case 0x0018: return ("P-384", 384)
        case 0x0019: return ("P-521", 521)
        case 0x0100: return ("ffdhe2048", 2048)
        case 0x0101: return ("ffdhe3072", 3072)
        case 0x0102: return ("ffdhe4096", 4096)
        case 0x0103: return ("ffdhe6144", 6144)
        case 0x0104: return ("ffdhe8192", 8192)
        default: return (NamedGroupCatalogue.name(group), nil)
        }
    }

    /// A ServerHello that chose a version or suite not offered: the server cannot do what was asked.
    private static func declined(_ hello: ServerHelloFacts, offer: HelloOffer) -> HandshakeResult.Outcome {
        let version = TLSVersion(rawValue: hello.version)
        return .refused(
            .declined("server chose \(version) \(CipherSuite(hello.cipherSuite).ianaName), which was not offered"))
    }
}

/// The proof of a TLS 1.3 key exchange (TLSHello's key schedule): whether the server's first encrypted record opens
/// with the handshake keys derived from our key share and its own.
enum HelloProof {
    static func proves(built: BuiltClientHello, serverHello: ServerHelloFacts, record: [UInt8]) -> Bool? {
        switch TLS13Proof.verify(hello: built, serverHello: serverHello, firstEncryptedRecord: record) {
        case .proven: return true
        case .notProven: return false
        }
    }
}

extension HandshakeResult.Outcome {
    var isNotTLS: Bool {
        if case .notTLS = self { return true }
        return false
    }

    var isDropOrSilence: Bool {
        switch self {
        case .dropped, .silent: return true
        default: return false
        }
    }
}
