import Foundation
import TLSHello
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Apple clients simulated with their own ClientHellos (issue 36), against servers on loopback, and checked against
/// what the same scan's enumeration predicts for each (``SimulationAgreement``).
@Suite("Client simulation: each era's own hello, in agreement with the enumeration")
struct ClientSimulatorTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/demo-servers.json")

    static func scan(_ server: TestTLSServer, scope: ProbeScope = .full) async throws -> ServerProfile {
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30, caFiles: [try ProbeFixtures.caFile()])
        request.scope = scope
        return await TLSProber(perHostLimit: 3, simulatedClients: .everyEra).scan(request)
    }

    static func simulation(_ profile: ServerProfile, _ os: String) -> ClientSimulation? {
        profile.simulations?.first { $0.osVersion == os }
    }

    @Test(
        "demo servers: every era is simulated, and agrees with the enumeration",
        arguments: ["modern", "tls13-only", "legacy-tls10", "rsa-kx-only", "dhe-only", "ecdsa"])
    func demoServers(name: String) async throws {
        let catalog = try DemoCatalog.load(from: Self.examples)
        let spec = try #require(catalog.servers.first { $0.name == name })
        let server = try TestTLSServer(try spec.configuration(pki: .shared, address: "127.0.0.1"))
        defer { server.stop() }
        let profile = try await Self.scan(server)
        let simulations = try #require(profile.simulations)
        #expect(simulations.map(\.osVersion) == ["26", "18", "17", "15.4", "14", "12.2"])
        #expect(
            SimulationAgreement.compared(profile) == simulations.count,
            "\(simulations.map(SimulationAgreement.describe))")
        #expect(SimulationAgreement.disagreements(profile).isEmpty, "\(SimulationAgreement.disagreements(profile))")
        let connected = simulations.filter(\.connects).map(\.osVersion)
        switch name {
        case "modern", "tls13-only":
            #expect(connected.count == 6)
            #expect(simulations.allSatisfy { $0.version == .tls1_3 && $0.group?.name == "x25519" })
            #expect(simulations.allSatisfy { $0.signatureScheme == "rsa_pss_rsae_sha256" && $0.quantumSecure == false })
            #expect(simulations.allSatisfy { $0.group?.proven == true })
        case "ecdsa":
            #expect(connected.count == 6)
            #expect(simulations.allSatisfy { $0.signatureScheme == "ecdsa_secp256r1_sha256" })
        case "legacy-tls10":
            // iOS 26 offers TLS 1.2 and 1.3 only; every older era still offers TLS 1.0 (ATS refuses it afterwards).
            #expect(connected == ["18", "17", "15.4", "14", "12.2"])
            #expect(Self.simulation(profile, "26")?.outcome == .refused)
            #expect(Self.simulation(profile, "18")?.version == .tls1_0)
        case "rsa-kx-only":
            #expect(connected.count == 6)
            #expect(
                simulations.allSatisfy { $0.signatureScheme == nil && $0.group == nil && $0.quantumSecure == false })
        case "dhe-only":
            // No Apple client offers a DHE suite.
            #expect(connected.isEmpty)
            #expect(
                simulations.allSatisfy { $0.outcome == .refused && $0.failure?.contains("handshake_failure") == true })
        default: break
        }
        #expect(profile.handshakes >= simulations.count)
    }

    @Test("a TLS 1.3 server with P-384 only: each era retries after the HelloRetryRequest and connects on secp384r1")
    func helloRetry() async throws {
        var configuration = TLSServerConfiguration(minVersion: .tls1_3, maxVersion: .tls1_3)
        configuration.groups = "P-384"
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        let profile = try await Self.scan(server)
        let simulations = try #require(profile.simulations)
        #expect(simulations.count == 6)
        #expect(
            simulations.allSatisfy { $0.connects && $0.group?.name == "secp384r1" && $0.group?.proven == true },
            "\(simulations.map(SimulationAgreement.describe))")
        #expect(SimulationAgreement.disagreements(profile).isEmpty, "\(SimulationAgreement.disagreements(profile))")
    }

    @Test("a server order picks a different suite for iOS 14 (CBC-SHA256 offered) than for iOS 15.4 and later")
    func serverOrderPerEra() async throws {
        let server = try TestTLSServer(
            .only(.tls1_2, cipherList: "ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-GCM-SHA384"))
        defer { server.stop() }
        let profile = try await Self.scan(server)
        #expect(Self.simulation(profile, "14")?.suite?.name == "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256")
        #expect(Self.simulation(profile, "15.4")?.suite?.name == "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384")
        #expect(Self.simulation(profile, "26")?.suite?.name == "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384")
        #expect(SimulationAgreement.compared(profile) == 6)
        #expect(SimulationAgreement.disagreements(profile).isEmpty, "\(SimulationAgreement.disagreements(profile))")
    }

    @Test("ats-only: nothing simulated within its six handshakes, and the profile says so")
    func atsOnly() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let profile = try await Self.scan(server, scope: .atsOnly)
        #expect(profile.handshakes <= ATSOnlyProbe.budget)
        let simulations = try #require(profile.simulations)
        #expect(simulations.count == 1 && simulations[0].outcome == .notRun && simulations[0].osVersion == "26")
        #expect(simulations[0].failure?.contains("ats-only") == true)
    }

    @Test("without simulation (the prober's default) no connection is spent and the field stays absent")
    func off() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        #expect(profile.simulations == nil)
    }

    @Test("a drop, a silence and a refusal in the client's words")
    func failureWords() {
        let client = AppleSimulatedClient.newest
        let reset = HandshakeResult(
            outcome: .dropped(.init(signal: .reset, afterBytes: 0, cause: "Connection reset by peer")), address: nil,
            connected: true)
        let simulation = ClientSimulator.simulation(of: client, reset)
        #expect(simulation.outcome == .dropped)
        #expect(simulation.failure == "the connection is reset after the ClientHello, with no answer")
        #expect(simulation.version == nil && simulation.quantumSecure == nil)
        let silent = HandshakeResult(outcome: .silent(.init(phase: .handshake)), address: nil, connected: true)
        #expect(ClientSimulator.simulation(of: client, silent).outcome == .timedOut)
        let refused = HandshakeResult(
            outcome: .refused(.alert(AlertDescription(rawValue: 40), said: "handshake failure")), address: nil,
            connected: true)
        #expect(ClientSimulator.simulation(of: client, refused).failure?.hasSuffix("handshake failure") == true)
        #expect(ClientSimulator.simulation(of: client, refused).evidence == "inferred")
    }
}

/// What the enumeration predicts, on hand-made profiles.
@Suite("Enumeration prediction of a client's handshake")
struct EnumerationPredictionTests {
    static func profile(_ results: [ProtocolResult]) -> ServerProfile {
        var profile = ServerProfile(
            target: "x:443", host: "x", port: 443, address: nil, sni: nil, status: .completed, scannedAt: Date(),
            probeLibrary: nil)
        profile.protocols = results
        return profile
    }

    static func result(_ version: TLSVersion, _ suites: [UInt16], serverOrder: Bool?) -> ProtocolResult {
        var result = ProtocolResult(version: version, supported: true, reason: nil, enumerationComplete: true)
        result.cipherSuites = suites.map { AcceptedCipherSuite(suite: CipherSuite($0)) }
        result.serverPreference = serverOrder
        return result
    }

    static let tls12 = ProtocolResult(version: .tls1_2, supported: false, reason: nil, enumerationComplete: true)

    @Test("server order: its first suite the client offers; client order: the client's first the server accepts")
    func order() {
        let ios26 = AppleSimulatedClient.newest
        let server = Self.profile([Self.result(.tls1_3, [0x1301, 0x1302], serverOrder: true)])
        #expect(
            EnumerationPrediction.predict(ios26, from: server)
                == .connects(version: .tls1_3, suite: CipherSuite(0x1301)))
        let client = Self.profile([Self.result(.tls1_3, [0x1301, 0x1302], serverOrder: false)])
        #expect(
            EnumerationPrediction.predict(ios26, from: client)
                == .connects(version: .tls1_3, suite: CipherSuite(0x1302)))
        let unknown = Self.profile([Self.result(.tls1_3, [0x1301, 0x1302], serverOrder: nil)])
        #expect(EnumerationPrediction.predict(ios26, from: unknown) == .connects(version: .tls1_3, suite: nil))
    }

    @Test("a server that prioritizes ChaCha20 gives it to iOS 12.2 (0x1303 first), in TLS 1.3 and in TLS 1.2")
    func chachaPrioritized() throws {
        let ios12 = try #require(AppleSimulatedClient.simulated.first { $0.osVersion == "12.2" })
        let ios26 = AppleSimulatedClient.newest
        for (version, suites, chacha) in [
            (TLSVersion.tls1_3, [UInt16(0x1301), 0x1302, 0x1303], UInt16(0x1303)),
            (.tls1_2, [0xC02F, 0xC030, 0xCCA8], 0xCCA8),
        ] {
            var result = Self.result(version, suites, serverOrder: true)
            let aes = CipherSuite(suites[0])
            // Not asked: the enumerated order may be wrong for a ChaCha20-first client, so the suite is not claimed.
            #expect(
                EnumerationPrediction.predict(ios12, from: Self.profile([result]))
                    == .connects(version: version, suite: nil))
            result.chachaPrioritized = true
            #expect(
                EnumerationPrediction.predict(ios12, from: Self.profile([result]))
                    == .connects(version: version, suite: CipherSuite(chacha)))
            // An AES-GCM-first client meets the enumerated order.
            #expect(
                EnumerationPrediction.predict(ios26, from: Self.profile([result]))
                    == .connects(version: version, suite: aes))
            result.chachaPrioritized = false
            #expect(
                EnumerationPrediction.predict(ios12, from: Self.profile([result]))
                    == .connects(version: version, suite: aes))
        }
        // ChaCha20 the server's first choice anyway: nothing to ask, the order stands.
        let first = Self.result(.tls1_3, [0x1303, 0x1301], serverOrder: true)
        #expect(
            EnumerationPrediction.predict(ios12, from: Self.profile([first]))
                == .connects(version: .tls1_3, suite: CipherSuite(0x1303)))
    }

    @Test("no fallback: the highest shared version decides, and TLS 1.0 only fails iOS 26")
    func versions() {
        let ios26 = AppleSimulatedClient.newest
        let ios18 = AppleSimulatedClient.simulated[1]
        let old = Self.profile([Self.result(.tls1_0, [0x002F], serverOrder: nil)])
        #expect(!EnumerationPrediction.predict(ios26, from: old).connects)
        #expect(
            EnumerationPrediction.predict(ios18, from: old) == .connects(version: .tls1_0, suite: CipherSuite(0x002F)))
        // TLS 1.2 shared but only with DHE; TLS 1.1 has an offered suite: the client does not fall back.
        let dhe = Self.profile([
            Self.result(.tls1_2, [0x009E], serverOrder: nil), Self.result(.tls1_1, [0x002F], serverOrder: nil),
        ])
        #expect(!EnumerationPrediction.predict(ios18, from: dhe).connects)
    }
}
