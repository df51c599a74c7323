import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import Reporting
import TLSModel
import Testing

/// A prober that answers every request with one profile carrying the simulations the real prober would fill.
private struct SimulatingProber: EndpointProber {
    var simulations: [ClientSimulation]?

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        var profile = ServerProfile(
            target: "\(request.target.host):\(request.target.port)", host: request.target.host,
            port: request.target.port, address: "127.0.0.1", status: .completed, handshakes: 3,
            protocols: [
                ProtocolResult(
                    version: .tls1_3, supported: true,
                    cipherSuites: [AcceptedCipherSuite(suite: CipherSuite.TLS_AES_128_GCM_SHA256)])
            ], scannedAt: Date())
        profile.simulations = simulations
        return profile
    }
}

@Suite("diagnose --tls-diagnostics through the pipeline, from the scan's simulations")
struct DiagnoseTLSDiagnosticsTests {
    static let simulations = [
        ClientSimulation(
            client: "iOS 26 (URLSession)", profile: "ios26-urlsession", osVersion: "26", evidence: "exact",
            outcome: .negotiated, version: .tls1_3,
            suite: AcceptedCipherSuite(suite: CipherSuite.TLS_AES_256_GCM_SHA384),
            group: AcceptedGroup(group: .X25519MLKEM768), quantumSecure: true),
        ClientSimulation(
            client: "iOS 18 (URLSession)", profile: "ios18", osVersion: "18", evidence: "exact", outcome: .timedOut,
            failure: "no answer within 5 s"),
    ]

    static func diagnose(_ simulations: [ClientSimulation]?, os: String) async throws -> Diagnosis {
        let pipeline = ScanPipeline(prober: SimulatingProber(simulations: simulations))
        let target = try Target(parsing: "mdm.example.com")
        let found = await pipeline.diagnose(target, url: "https://mdm.example.com/")
        let diagnosis = try #require(found)
        return diagnosis.showingTLSDiagnostics(for: try #require(AppleOSVersion(string: os)))
    }

    @Test("the newest era's client connects: exit 0, and the text is nscurl's")
    func newest() async throws {
        let diagnosis = try await Self.diagnose(Self.simulations, os: AppleOSVersion.newest.description)
        #expect(diagnosis.exitStatus == .success && diagnosis.exitReason == nil)
        let tls = try #require(diagnosis.section.tls)
        #expect(tls.negotiatedGroup == "X25519MLKEM768" && tls.negotiatedSuite == "0x1302")
        let text = TLSDiagnosticsTextRenderer.render(tls, width: .max)
        #expect(text.contains("Negotiated TLS key exchange group (name): X25519MLKEM768\n"))
    }

    @Test("--os-version 18: that era's client times out: exit 1 with the reason")
    func failing() async throws {
        let diagnosis = try await Self.diagnose(Self.simulations, os: "18")
        #expect(diagnosis.exitStatus == .policyFailure)
        #expect(
            diagnosis.exitReason
                == "https://mdm.example.com/: iOS 18 (URLSession) fails: no answer within 5 s (timed out)")
    }

    @Test("a scan without simulations, or an era older than any simulated: exit 2")
    func notSimulated() async throws {
        #expect(try await Self.diagnose(nil, os: "26").exitStatus == .incomplete)
        let old = try await Self.diagnose(Self.simulations, os: "17")
        #expect(old.exitStatus == .incomplete)
        #expect(
            old.exitReason?.contains("no Apple client of iOS 17 or older was simulated (simulated: 18, 26)") == true)
        // Without --tls-diagnostics the matrix decides, as before.
        let pipeline = ScanPipeline(prober: SimulatingProber(simulations: nil))
        let plain = await pipeline.diagnose(try Target(parsing: "mdm.example.com"), url: "https://mdm.example.com/")
        #expect(plain?.section.tls == nil)
    }
}
