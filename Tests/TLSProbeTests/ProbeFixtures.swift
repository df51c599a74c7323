import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Helpers shared by the probe tests: start a server, scan it, clean up.
enum ProbeFixtures {
    /// Writes the PEM of `pki`'s root to a file in the test process's scratch folder (a `--ca-file`), removed when
    /// the process exits.
    static func caFile(_ pki: TestPKI = .shared) throws -> String {
        let path = TestScratch.file("atscheck-ca", suffix: ".pem")
        try pki.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Scans `server` as `host` (connecting to its loopback port), trusting `pki`'s root, with `perHost`
    /// handshakes at once.
    static func scan(
        _ server: TestTLSServer, host: String? = nil, pki: TestPKI = .shared, timeout: Double = 3,
        deadline: Double = 30, now: Date? = nil, perHost: Int = 3
    ) async throws -> ServerProfile {
        let name = host ?? "localhost"
        let target = try Target(parsing: "\(name):\(server.port)")
        let request = ProbeRequest(
            target: target, connectAddress: server.host, timeout: timeout, deadline: deadline,
            caFiles: [try caFile(pki)], now: now)
        return await TLSProber(perHostLimit: perHost).scan(request)
    }

    /// The handshake budget of docs/architecture.md#the-probe: Σ supported (accepted + 1, + 1 when accepted ≥ 2, + 1 for
    /// the ChaCha20 probe where it was asked, + the
    /// suite check of a TLS ≤ 1.2 version: one per chunk of the catalogue's suites not found, + accepted groups + 1 per
    /// group piece), + 1 per unsupported (+ its check when it was not refused with `protocol_version`), + the
    /// ClientHello size check's connections when it ran (``HelloSizeProbe``: two, four for an intolerant server).
    static func budget(_ profile: ServerProfile) -> Int {
        let sizeCheck = profile.helloSizeTolerance.map { $0.tolerant == false ? 4 : 2 } ?? 0
        return sizeCheck
            + profile.protocols.reduce(0) { sum, result in
                guard result.supported == true else {
                    let refused = result.reason?.contains("protocol version") == false
                    return sum + 1 + (refused ? checkSteps(result.version, found: []) : 0)
                }
                let n = result.cipherSuites.count
                let check = result.version < .tls1_3 ? checkSteps(result.version, found: result.suites) : 0
                var groups = 0
                if let accepted = result.groups {
                    let pieces =
                        HelloCatalogue.groupPieces(for: result.version).count
                        + (result.version < .tls1_3 && result.cipherSuites.contains { $0.keyExchange == .dhe } ? 1 : 0)
                    groups = accepted.count + pieces
                }
                // The ChaCha20 probe, where it was asked (``SuiteSearch/takeChaChaProbe()``).
                let chacha = result.chachaPrioritized != nil ? 1 : 0
                return sum + n + 1 + (n >= 2 ? 1 : 0) + check + groups + chacha
            }
    }

    /// The suite check's chains for `version` when `found` is known (``HelloSearch``): the catalogue's suites
    /// OpenSSL does not offer (and its DHE ones), in chunks.
    static func checkSteps(_ version: TLSVersion, found: [CipherSuite]) -> Int {
        let offered = (try? VersionEnumerator.prepareNow(version).get().1.map(\.suite)) ?? []
        var search = HelloSearch(version: version)
        search.check = .pending
        search.startCheck(known: found, offeredByOpenSSL: offered)
        return search.waitingCheckOffers
    }

    /// What a scan may spend: the budget + 2, or 1.25 × the budget where that is more (issue 10 lets
    /// parallel enumeration spend up to 1.25 × the floor).
    static func allowance(_ profile: ServerProfile) -> Int {
        let floor = budget(profile)
        return max(floor + 2, floor * 5 / 4)
    }

    /// IANA names of `openSSLNames` (the registry maps both spellings).
    static func iana(_ openSSLNames: [String]) -> Set<String> {
        Set(openSSLNames.map { CipherSuite(text: $0)?.ianaName ?? "?\($0)" })
    }
}

extension ServerProfile {
    func suiteNames(_ version: TLSVersion) -> Set<String> {
        Set(result(for: version)?.cipherSuites.map(\.name) ?? [])
    }
    func supported(_ version: TLSVersion) -> Bool? { result(for: version)?.supported }
}
