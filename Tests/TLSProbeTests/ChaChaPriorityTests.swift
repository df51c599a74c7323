import TLSModel
import Testing

@testable import TLSProbe

/// The ChaCha20 probe (``SuiteSearch/takeChaChaProbe()``, issue 36) against `openssl s_server`, whose
/// `-prioritize_chacha` (`SSL_OP_PRIORITIZE_CHACHA`) puts ChaCha20-Poly1305 first for a client whose first suite is
/// ChaCha20 when it has its own order (`-serverpref`): the scan must find it exactly then, and every simulated Apple
/// client must negotiate what the enumeration predicts, iOS 12.2 (0x1303 first) ChaCha20 from a prioritizing server.
@Suite("ChaCha20 prioritization: found by one handshake, and predicted for iOS 12.2", .serialized)
struct ChaChaPriorityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var options: [String]
        /// `chachaPrioritized` expected per version the server speaks (nil: not asked).
        var expected: [TLSVersion: Bool?]
        /// Whether the server picks by its own order.
        var serverOrder: Bool
        var testDescription: String { name }
    }

    /// AES-GCM before ChaCha20 in both versions, so a server order gives an AES-GCM-first client AES-GCM.
    static let suites = [
        "-cipher", "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305",
        "-ciphersuites", "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256",
    ]

    static let cases: [Case] = [
        Case(
            name: "-serverpref -prioritize_chacha: prioritized in TLS 1.3 and 1.2",
            options: ["-serverpref", "-prioritize_chacha"], expected: [.tls1_3: true, .tls1_2: true],
            serverOrder: true),
        Case(
            name: "-serverpref alone: asked, not prioritized", options: ["-serverpref"],
            expected: [.tls1_3: false, .tls1_2: false], serverOrder: true),
        Case(
            // OpenSSL prioritizes ChaCha20 only within a server order: the client's order decides anyway.
            name: "-prioritize_chacha without -serverpref: the client's order, not asked",
            options: ["-prioritize_chacha"], expected: [.tls1_3: nil, .tls1_2: nil], serverOrder: false),
        Case(
            // iOS 12.2 connects with TLS 1.2 here; OpenSSL reads the client's first suite of the whole hello (0x1303).
            name: "TLS 1.2 only, -serverpref -prioritize_chacha",
            options: ["-serverpref", "-prioritize_chacha", "-no_tls1_3"],
            expected: [.tls1_2: true], serverOrder: true),
    ]

    @Test("s_server", .enabled(if: OpenSSLServer.binary != nil, "openssl is not installed"), arguments: cases)
    func sServer(_ c: Case) async throws {
        let server = try OpenSSLServer.start(options: { _ in Self.suites + c.options })
        defer { server.stop() }
        let profile = try await server.scan(TLSProber(simulatedClients: .everyEra))
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        for version in TLSVersion.probed {
            let result = profile.result(for: version)
            guard let expected = c.expected[version] else {
                #expect(result?.supported != true, "\(version)")
                continue
            }
            #expect(result?.supported == true && result?.enumerationComplete == true, "\(version)")
            #expect(result?.serverPreference == c.serverOrder, "\(version)")
            #expect(result?.chachaPrioritized == expected, "\(version) chachaPrioritized")
        }
        // Every simulated client compared (none left unknown), and none disagreeing.
        let simulations = try #require(profile.simulations)
        #expect(
            SimulationAgreement.compared(profile) == simulations.count,
            "\(simulations.map(SimulationAgreement.describe))")
        #expect(SimulationAgreement.disagreements(profile).isEmpty, "\(SimulationAgreement.disagreements(profile))")
        // What the simulation itself negotiated, from the configuration: ChaCha20 for iOS 12.2 only when prioritized.
        let ios12 = try #require(simulations.first { $0.osVersion == "12.2" })
        let ios26 = try #require(simulations.first { $0.osVersion == "26" })
        let prioritized = c.expected.values.contains { $0 == true }
        #expect(
            ios12.suite?.suite.info?.isChaCha20Poly1305 == (prioritized || !c.serverOrder), "\(ios12.suite?.name ?? "")"
        )
        if c.serverOrder {
            #expect(ios26.suite?.suite.info?.encryption.hasPrefix("AESGCM") == true, "\(ios26.suite?.name ?? "")")
        }
        // The probe is one handshake of the floor: the enumeration alone stays within 1.25 × it.
        let plain = try await server.scan(TLSProber())
        #expect(plain.protocols.map(\.chachaPrioritized) == profile.protocols.map(\.chachaPrioritized))
        #expect(
            plain.handshakes <= ProbeFixtures.allowance(plain),
            "\(plain.handshakes) handshakes, floor \(ProbeFixtures.budget(plain))")
    }
}
