import Foundation
import TLSHello
import TLSModel

/// An Apple client's ClientHello for one connection (``Exchange/simulated(_:)``; issue 36).
struct SimulatedHello: Sendable {
    /// The client and its profile (TLSHello's Apple profiles).
    var client: AppleSimulatedClient
    /// The server name sent; nil: the session's (none for an IP literal).
    var sni: String?
}

/// Sends an Apple client's whole ClientHello and reads the server's answer as that client would, far enough to know
/// whether it connects and with what: the ServerHello (version, suite, group), a HelloRetryRequest (answered on the
/// same connection with a second hello, as the client does), and then TLS ≤ 1.2's flight to ServerHelloDone (the
/// ServerKeyExchange's group and signature scheme) or TLS 1.3's encrypted flight to Finished (decrypted with the
/// handshake keys: Certificate, CertificateVerify's scheme). No OpenSSL: TLSHello builds and reads the bytes.
///
/// A server that chooses what the client did not offer (a version, a suite, a group without a share after a
/// retry, a signature scheme outside signature_algorithms) fails the client's handshake: `broken`, with the reason.
struct SimulatedHelloExchange {
    var sni: String?

    func run(
        _ client: AppleSimulatedClient, on socket: TCPSocket, deadline: Deadline, received: inout Int
    ) async -> (HandshakeResult.Outcome, HelloFacts?) {
        var built: BuiltClientHello
        switch await HelloExchange.open(
            client.profile, serverName: sni, naming: "the \(client.name) ClientHello", on: socket, deadline: deadline,
            received: received)
        {
        case .sent(let hello): built = hello
        case .ended(let outcome): return (outcome, nil)
        }
        let versions = client.offeredVersions
        let suites = client.offeredSuites
        let schemes = client.profile.signatureAlgorithms
        var reader = ServerFlightReader()
        var firstBytes: [UInt8] = []
        var hello: ServerHelloFacts?
        var flight: TLS13ServerFlight?
        var chain: [[UInt8]] = []
        var facts = HelloFacts()
        while true {
            while let event = reader.next() {
                switch event {
                case .serverHello(let serverHello):
                    hello = serverHello
                    facts.group = serverHello.selectedGroup
                    guard versions.contains(serverHello.version) else {
                        return (
                            .broken(
                                "server chose \(Self.version(serverHello.version)), which \(client.name) does not offer"
                            ), facts
                        )
                    }
                    guard suites.contains(serverHello.cipherSuite) else {
                        let suite = CipherSuiteCatalogue.name(serverHello.cipherSuite)
                        return (.broken("server chose \(suite), which \(client.name) does not offer"), facts)
                    }
                    if serverHello.version >= 0x0304 {
                        do {
                            flight = try TLS13ServerFlight(hello: built, serverHello: serverHello)
                        } catch {
                            return (.broken("the server's key exchange cannot be completed: \(error)"), facts)
                        }
                    }
                case .helloRetryRequest(let retry):
                    // The client answers once with a share for the group asked for; a second retry ends it (RFC 8446
                    // §4.1.4), as does a group it did not offer or already sent a share for.
                    guard !facts.helloRetry else { return (.broken("server sent a second HelloRetryRequest"), facts) }
                    facts.helloRetry = true
                    facts.group = retry.group
                    guard versions.contains(retry.version), suites.contains(retry.cipherSuite) else {
                        return (.broken("server's HelloRetryRequest chose what \(client.name) does not offer"), facts)
                    }
                    if let group = retry.group {
                        guard client.profile.supportedGroups.contains(group), built.keyShare(for: group) == nil else {
                            return (
                                .broken(
                                    "server's HelloRetryRequest asked for \(NamedGroupCatalogue.name(group)), "
                                        + "which \(client.name) does not offer or already sent"), facts
                            )
                        }
                    }
                    do { built = try built.retry(after: retry) } catch {
                        return (.broken("the second ClientHello could not be built: \(error)"), facts)
                    }
                    if let failure = await HelloExchange.send(
                        built.bytes, on: socket, deadline: deadline, received: received)
                    {
                        return (failure, facts)
                    }
                case .certificate(let certificates):
                    chain = certificates
                case .serverKeyExchange(let exchange):
                    facts.note(exchange)
                    facts.signatureScheme = reader.serverKeyExchangeSignature
                    if let group = facts.group, !client.profile.supportedGroups.contains(group) {
                        return (
                            .broken(
                                "server chose \(NamedGroupCatalogue.name(group)), which \(client.name) does not offer"),
                            facts
                        )
                    }
                    if let scheme = facts.signatureScheme, !schemes.contains(scheme) {
                        return (Self.unofferedScheme(scheme, client), facts)
                    }
                case .serverHelloDone:
                    if let hello { return Self.answer(hello, facts, chain) }
                case .encryptedRecord(let record):
                    guard let hello, var reading = flight else {
                        return (.broken("an encrypted record before the ServerHello"), facts)
                    }
                    let messages: [TLS13ServerFlight.Message]
                    do { messages = try reading.open(record) } catch {
                        facts.proven = facts.proven ?? false
                        return (.broken("the server's encrypted flight: \(error)"), facts)
                    }
                    facts.proven = true
                    flight = reading
                    for message in messages {
                        switch message {
                        case .certificate(let certificates): chain = certificates
                        case .certificateVerify(let scheme):
                            facts.signatureScheme = scheme
                            guard schemes.contains(scheme) else { return (Self.unofferedScheme(scheme, client), facts) }
                        case .finished: return Self.answer(hello, facts, chain)
                        case .encryptedExtensions, .certificateRequest, .compressedCertificate, .other: continue
                        }
                    }
                case .otherHandshake:
                    continue
                case .alert, .notTLS, .malformed:
                    let outcome = HelloExchange.ending(event, afterServerHello: hello != nil, firstBytes: firstBytes)
                    return (outcome, outcome.isNotTLS ? nil : facts)
                }
            }
            if let ended = await HelloExchange.readMore(
                socket, deadline: deadline, into: &reader, firstBytes: &firstBytes, received: &received)
            {
                return (ended, ended.isDropOrSilence ? nil : facts)
            }
        }
    }

    private static func unofferedScheme(_ scheme: UInt16, _ client: AppleSimulatedClient) -> HandshakeResult.Outcome {
        .broken("server signed with \(SignatureSchemeCatalogue.name(scheme)), which \(client.name) does not offer")
    }

    private static func version(_ code: UInt16) -> String {
        TLSVersion(rawValue: code).description
    }

    private static func answer(
        _ hello: ServerHelloFacts, _ facts: HelloFacts, _ chain: [[UInt8]]
    ) -> (HandshakeResult.Outcome, HelloFacts?) {
        let suite = CipherSuite(hello.cipherSuite)
        let (group, bits) = HelloExchange.groupLabel(facts)
        let accepted = HandshakeResult.Accepted(
            version: TLSVersion(rawValue: hello.version), suite: suite,
            openSSLName: suite.info?.openSSLName ?? suite.ianaName, group: group, groupBits: bits, chainDER: chain,
            ocspStapled: false)
        return (.answered(accepted), facts)
    }
}
