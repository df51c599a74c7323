import TLSHello
import TLSModel

/// What the enumeration says an Apple client's ClientHello negotiates, without connecting: the highest version the
/// client offers that the server supports (servers pick the highest shared version, and no client falls back after
/// a suite mismatch), then a suite both have in it, and in TLS 1.3 a group both have. With the server's order known,
/// the suite is the server's first that the client offers; with the client's order, the client's first that the
/// server accepts. A server that puts ChaCha20-Poly1305 first for a client whose first suite is ChaCha20
/// (``TLSModel/ProtocolResult/chachaPrioritized``) gives such a client its first ChaCha20 suite: the client's first
/// suite of the whole hello, as OpenSSL and Go read it, so iOS 12.2 (0x1303 first) meets that order in TLS 1.2 too.
///
/// The simulation must agree with it (issue 36): the tests run both on every fixture, and a difference is a bug in
/// one of them.
package enum EnumerationPrediction: Sendable, Equatable {
    /// The client connects with `version`, and `suite` when the order settles which.
    case connects(version: TLSVersion, suite: CipherSuite?)
    /// The client cannot connect: why.
    case fails(String)
    /// The enumeration cannot say (a version of unknown support, an incomplete list).
    case unknown(String)

    /// Whether the prediction is a connection.
    package var connects: Bool { if case .connects = self { true } else { false } }

    /// The prediction for `client` from `profile`'s enumeration.
    package static func predict(_ client: AppleSimulatedClient, from profile: ServerProfile) -> EnumerationPrediction {
        let offeredSuites = client.offeredSuites.map { CipherSuite($0) }
        let clientGroups = Set(client.profile.supportedGroups.map { NamedGroup($0) })
        for code in client.offeredVersions.sorted(by: >) {
            let version = TLSVersion(rawValue: code)
            guard let result = profile.result(for: version) else { continue }
            switch result.supported {
            case nil: return .unknown("whether the server supports \(version) is not known")
            case false?: continue
            case true?: break
            }
            let common = result.suites.filter(offeredSuites.contains)
            guard !common.isEmpty else {
                if !result.enumerationComplete { return .unknown("\(version)'s suite list is incomplete") }
                return .fails("\(version) is shared, but no suite the server accepts in it is offered")
            }
            if version >= .tls1_3, let groups = result.groups, result.groupsComplete != false,
                !groups.contains(where: { clientGroups.contains($0.group) })
            {
                return .fails("\(version) is shared, but no group the server accepts in it is offered")
            }
            return .connects(version: version, suite: predictedSuite(result, common: common, offered: offeredSuites))
        }
        return .fails("no version the client offers is supported by the server")
    }

    /// The suite the server picks from `common`: its own first when it orders (and the order is complete), the
    /// client's first when it follows the client; nil when the order is not known.
    private static func predictedSuite(_ result: ProtocolResult, common: [CipherSuite], offered: [CipherSuite])
        -> CipherSuite?
    {
        if common.count == 1 { return common[0] }
        switch result.serverPreference {
        case true? where offered.first?.info?.isChaCha20Poly1305 == true && result.chachaPrioritized != false:
            return chachaFirst(result, common: common)
        case true?:
            // With `serverOrderComplete: false` only the server's first choice is claimed.
            return ordered(result, common: common)
        case false?: return offered.first(where: common.contains)
        case nil: return nil
        }
    }

    /// The suite a server with its own order picks from `common` for a client whose first suite is ChaCha20, unless
    /// the ChaCha20 probe showed it keeps its order: its first ChaCha20 suite the client offers when it prioritizes
    /// ChaCha20, and nil when that was not asked although it could matter (its first choice is not ChaCha20).
    private static func chachaFirst(_ result: ProtocolResult, common: [CipherSuite]) -> CipherSuite? {
        let isChaCha = { (suite: CipherSuite) in suite.info?.isChaCha20Poly1305 == true }
        let chacha = common.filter(isChaCha)
        guard result.chachaPrioritized == true else {
            // Not asked: it could not matter when the server picks a ChaCha20 suite first anyway, or the client
            // shares none with it.
            guard let first = result.suites.first, !isChaCha(first), !chacha.isEmpty else {
                return ordered(result, common: common)
            }
            return nil
        }
        guard !chacha.isEmpty else { return ordered(result, common: common) }
        // Only the first choice is claimed when the order is not complete: then only a single ChaCha20 suite is sure.
        return result.serverOrderComplete == false && chacha.count > 1 ? nil : chacha[0]
    }

    /// The server's first of `common` by its own order (only its first choice when the order is not complete).
    private static func ordered(_ result: ProtocolResult, common: [CipherSuite]) -> CipherSuite? {
        if result.serverOrderComplete == false { return result.suites.first.flatMap { common.contains($0) ? $0 : nil } }
        return common.first
    }
}
