import Foundation
import TLSHello
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Which clients a scan simulates per scope (``SimulatedClients``): with `--require-pq` an ats-only scan simulates
/// the newest client alone, one connection beyond its budget, so that quantum-secure readiness is answered.
@Suite("Simulated clients per scope: ats-only with --require-pq simulates iOS 26 alone")
struct SimulatedClientsTests {
    static func scan(port: Int, _ clients: SimulatedClients) async throws -> ServerProfile {
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(port)"), connectAddress: "127.0.0.1", timeout: 3, deadline: 30,
            caFiles: [try ProbeFixtures.caFile()])
        request.scope = .atsOnly
        return await TLSProber(simulatedClients: clients).scan(request)
    }

    @Test("the clients of each scope")
    func clients() {
        #expect(SimulatedClients.everyEra.clients(for: .full) == AppleSimulatedClient.simulated)
        #expect(SimulatedClients.everyEra.clients(for: .atsOnly).isEmpty)
        let pq = SimulatedClients.everyEraAndNewestInATSOnly
        #expect(pq.clients(for: .full) == AppleSimulatedClient.simulated)
        #expect(pq.clients(for: .atsOnly).map(\.name) == ["iOS 26 (URLSession)"])
    }

    @Test("an OpenSSL 3.0 server: iOS 26 simulated in ats-only, x25519, not quantum-secure, within budget + 1")
    func openSSL() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let profile = try await Self.scan(port: server.port, .everyEraAndNewestInATSOnly)
        #expect(profile.scope == "ats-only")
        let simulations = try #require(profile.simulations)
        #expect(simulations.map(\.client) == ["iOS 26 (URLSession)"])
        #expect(simulations.first?.connects == true, "\(simulations.map(SimulationAgreement.describe))")
        #expect(simulations.first?.group?.name == "x25519")
        #expect(profile.quantumSecure == false)
        #expect(profile.handshakes <= ATSOnlyProbe.budget + 1, "\(profile.handshakes) handshakes")
        #expect(profile.handshakes == server.acceptedConnections)
        // Without --require-pq the same scan simulates nothing and says so.
        let plain = try await Self.scan(port: server.port, .everyEra)
        #expect(plain.simulations?.map(\.outcome) == [.notRun])
        #expect(plain.quantumSecure == nil)
        #expect(plain.handshakes <= ATSOnlyProbe.budget)
    }

    @Test(
        "tlslite-ng with X25519MLKEM768: iOS 26 negotiates it in ats-only, quantum-secure",
        .enabled(if: TLSLiteServer.isInstalled, "tlslite-ng 0.8 and kyber-py are not installed (make deps)"))
    func tlslite() async throws {
        let server = try TLSLiteServer.start(
            groups: ["x25519mlkem768", "x25519"], ciphers: ["aes128gcm", "aes256gcm"])
        defer { server.stop() }
        let profile = try await Self.scan(port: server.port, .everyEraAndNewestInATSOnly)
        let simulation = try #require(profile.simulations?.first)
        #expect(profile.simulations?.count == 1)
        #expect(simulation.version == .tls1_3, "\(SimulationAgreement.describe(simulation))")
        #expect(simulation.group?.name == "X25519MLKEM768")
        #expect(simulation.group?.proven == true)
        #expect(profile.quantumSecure == true)
        #expect(profile.handshakes <= ATSOnlyProbe.budget + 1, "\(profile.handshakes) handshakes")
    }

    @Test("--older-sdk: iOS 26 built with an older SDK connects on TLS 1.0 where the iOS 26 SDK's client fails")
    func olderSDK() async throws {
        #expect(!AppleSimulatedClient.simulated.contains(AppleSimulatedClient.newestOlderSDK))
        let clients = SimulatedClients.everyEra.replacingNewest(with: .newestOlderSDK)
        #expect(clients.full.count == AppleSimulatedClient.simulated.count)
        #expect(clients.full.first == AppleSimulatedClient.newestOlderSDK)
        let server = try TestTLSServer(.only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA"))
        defer { server.stop() }
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 30, caFiles: [try ProbeFixtures.caFile()])
        request.scope = .full
        let profile = await TLSProber(simulatedClients: clients).scan(request)
        let older = try #require(profile.simulations?.first)
        #expect(older.client == "iOS 26 (URLSession, older SDK)")
        #expect(older.version == .tls1_0, "\(SimulationAgreement.describe(older))")
        #expect(older.suite?.name == "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA")
        #expect(
            EnumerationPrediction.predict(.newestOlderSDK, from: profile)
                == .connects(version: .tls1_0, suite: CipherSuite(0xC013)))
        #expect(!EnumerationPrediction.predict(.newest, from: profile).connects)
    }
}
