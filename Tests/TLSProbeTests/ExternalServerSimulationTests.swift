import Foundation
import TLSHello
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// A server this project did not write, running on loopback: `openssl s_server` or nginx.
protocol ExternalServer: Sendable {
    var port: Int { get }
    func stop()
}

extension OpenSSLServer: ExternalServer {}
extension IndependentServer: ExternalServer {}

/// One configuration of `openssl s_server` or nginx, and what it forces on some Apple clients, read from the
/// configuration and the server's documented behaviour (never from what atscheck printed).
struct ExternalServerCase: Sendable, CustomTestStringConvertible {
    /// What the configuration forces on one client.
    enum Forced: Sendable {
        /// It connects with this version, suite (IANA name) and group (IANA name).
        case negotiates(TLSVersion, suite: String, group: String)
        /// It cannot connect.
        case fails
    }

    let name: String
    /// By OS release (`26`, `12.2`): the clients whose outcome the configuration settles.
    let forced: [String: Forced]
    let start: @Sendable () throws -> any ExternalServer

    var testDescription: String { name }

    init(_ name: String, forces forced: [String: Forced], start: @escaping @Sendable () throws -> any ExternalServer) {
        self.name = name
        self.forced = forced
        self.start = start
    }

    /// Each of `releases` forced to `outcome`.
    static func all(_ releases: [String], _ outcome: Forced) -> [String: Forced] {
        Dictionary(uniqueKeysWithValues: releases.map { ($0, outcome) })
    }

    static let releases = AppleSimulatedClient.simulated.map(\.osVersion)
}

/// Full scans with every Apple client simulated (issue 36) against `openssl s_server` and nginx, servers no one on this
/// project wrote: each client's simulated outcome must equal what the same scan's enumeration predicts for it
/// (``SimulationAgreement``), and where the configuration settles the outcome, equal that too.
@Suite("Apple client simulation against openssl s_server and nginx", .serialized)
struct ExternalServerSimulationTests {
    typealias Case = ExternalServerCase

    static func scan(_ server: any ExternalServer) async throws -> ServerProfile {
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 60, caFiles: [try ProbeFixtures.caFile()])
        return await TLSProber(simulatedClients: .everyEra).scan(request)
    }

    static func check(_ server: Case) async throws {
        let running = try server.start()
        defer { running.stop() }
        let clock = ContinuousClock.now
        let profile = try await Self.scan(running)
        let elapsed = ContinuousClock.now - clock
        let simulations = try #require(profile.simulations)
        let said = simulations.map { "\($0.osVersion): \(SimulationAgreement.describe($0))" }
        print(
            "[external-servers] \(server.name): \(profile.handshakes) handshakes (\(simulations.count) simulated), "
                + "\(profile.retries) retries, \(profile.drops) drops, \(elapsed); \(said.joined(separator: "; "))")
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        #expect(simulations.map(\.osVersion) == Case.releases)
        #expect(simulations.allSatisfy { $0.outcome != .notRun }, "\(said)")
        // Every client is compared: the enumeration is complete enough to predict each of them.
        #expect(SimulationAgreement.compared(profile) == simulations.count, "\(said)")
        #expect(SimulationAgreement.disagreements(profile).isEmpty, "\(SimulationAgreement.disagreements(profile))")
        for (release, forced) in server.forced.sorted(by: { $0.key < $1.key }) {
            let simulation = try #require(simulations.first { $0.osVersion == release }, "iOS \(release)")
            switch forced {
            case .negotiates(let version, let suite, let group):
                #expect(simulation.connects, "iOS \(release): \(SimulationAgreement.describe(simulation))")
                #expect(simulation.version == version, "iOS \(release)")
                #expect(simulation.suite?.name == suite, "iOS \(release)")
                #expect(simulation.group?.name == group, "iOS \(release)")
            case .fails:
                #expect(!simulation.connects, "iOS \(release): \(SimulationAgreement.describe(simulation))")
            }
        }
    }

    @Test(
        "openssl s_server",
        .enabled(if: OpenSSLServer.binary != nil, "openssl is not installed (make deps)"),
        arguments: sServerCases)
    func sServer(_ server: Case) async throws { try await Self.check(server) }

    @Test(
        "nginx", .enabled(if: NginxServer.binary != nil, "nginx is not installed (make deps: nginx-light)"),
        arguments: nginxCases)
    func nginx(_ server: Case) async throws { try await Self.check(server) }
}

// MARK: - The cases

/// The TLS 1.3 suite each era puts first: AES-256-GCM for iOS 26, ChaCha20 for iOS 12.2, AES-128-GCM between
/// (docs/clienthello-engine.md); a server that follows the client's order (OpenSSL's default) picks it.
private let clientFirstTLS13: [String: String] = [
    "26": "TLS_AES_256_GCM_SHA384", "18": "TLS_AES_128_GCM_SHA256", "17": "TLS_AES_128_GCM_SHA256",
    "15.4": "TLS_AES_128_GCM_SHA256", "14": "TLS_AES_128_GCM_SHA256", "12.2": "TLS_CHACHA20_POLY1305_SHA256",
]

/// Every era connects on TLS 1.3 with its own first suite and x25519 (OpenSSL 3.0's first group, which every era
/// offers and sends a share for).
private let tls13ClientOrder: [String: ExternalServerCase.Forced] = clientFirstTLS13.mapValues {
    .negotiates(.tls1_3, suite: $0, group: "x25519")
}

private let sServerCases: [ExternalServerCase] = [
    // OpenSSL 3.0's defaults: TLS 1.2 and 1.3, the client's order, x25519 first.
    ExternalServerCase("TLS 1.2+1.3, defaults", forces: tls13ClientOrder) { try OpenSSLServer.start() },
    // TLS 1.2 alone, the server's order, a CBC suite first: every era offers ECDHE-RSA-AES256-SHA (0xC014), so
    // every era gets it.
    ExternalServerCase(
        "TLS 1.2 only, server order, CBC first",
        forces: ExternalServerCase.all(
            ExternalServerCase.releases,
            .negotiates(.tls1_2, suite: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", group: "x25519"))
    ) {
        try OpenSSLServer.start { _ in
            ["-tls1_2", "-serverpref", "-cipher", "ECDHE-RSA-AES256-SHA:ECDHE-RSA-AES128-GCM-SHA256"]
        }
    },
    // TLS 1.3 alone with x25519 and P-256: every era's x25519 share is taken; iOS 26's X25519MLKEM768 is not known.
    ExternalServerCase("TLS 1.3 only, -groups X25519:P-256", forces: tls13ClientOrder) {
        try OpenSSLServer.start { _ in ["-tls1_3", "-groups", "X25519:P-256"] }
    },
    // TLS 1.0 alone: iOS 26 offers TLS 1.2 and 1.3 only; the other eras still offer TLS 1.0 and connect on it.
    ExternalServerCase(
        "TLS 1.0 only",
        forces: ExternalServerCase.all(
            ["18", "17", "15.4", "14", "12.2"],
            .negotiates(.tls1_0, suite: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", group: "x25519")
        ).merging(["26": .fails]) { $1 }
    ) {
        // OpenSSL 3.0 allows TLS 1.0 only at security level 0 (its PRF and signatures use SHA-1 and MD5).
        try OpenSSLServer.start { _ in ["-tls1", "-cipher", "ECDHE-RSA-AES128-SHA:@SECLEVEL=0"] }
    },
    // A suite no Apple client offers (finite-field DHE): every era fails.
    ExternalServerCase(
        "TLS 1.2 only, DHE only", forces: ExternalServerCase.all(ExternalServerCase.releases, .fails)
    ) {
        try OpenSSLServer.start { _ in ["-tls1_2", "-cipher", "DHE-RSA-AES128-GCM-SHA256"] }
    },
]

/// Mozilla's "intermediate" ECDHE list for TLS 1.2, as many nginx deployments copy it.
private let mozillaIntermediate =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

private let nginxCases: [ExternalServerCase] = [
    // TLS 1.2+1.3, ECDHE AES-GCM and ChaCha20, the client's order (nginx's default): TLS 1.3 as with s_server.
    ExternalServerCase("TLS 1.2+1.3, ECDHE AES-GCM/ChaCha20", forces: tls13ClientOrder) {
        try NginxServer.start(.init(ciphers: mozillaIntermediate))
    },
    // ssl_ecdh_curve secp384r1: no era sends a share for it, so each is asked again (HelloRetryRequest) and
    // connects on it.
    ExternalServerCase(
        "TLS 1.2+1.3, ssl_ecdh_curve secp384r1",
        forces: clientFirstTLS13.mapValues { .negotiates(.tls1_3, suite: $0, group: "secp384r1") }
    ) {
        try NginxServer.start(.init(ciphers: mozillaIntermediate, ecdhCurve: "secp384r1"))
    },
    // TLS 1.2 alone, the server's order with ChaCha20 first, ssl_ecdh_curve prime256v1: every era offers
    // ECDHE-RSA-CHACHA20-POLY1305 (0xCCA8) and secp256r1.
    ExternalServerCase(
        "TLS 1.2 only, server order, ssl_ecdh_curve prime256v1",
        forces: ExternalServerCase.all(
            ExternalServerCase.releases,
            .negotiates(.tls1_2, suite: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", group: "secp256r1"))
    ) {
        try NginxServer.start(
            .init(
                protocols: "TLSv1.2", ciphers: "ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256",
                preferServerCiphers: true, ecdhCurve: "prime256v1"))
    },
]
