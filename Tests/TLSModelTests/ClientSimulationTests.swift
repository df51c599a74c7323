import TLSModel
import Testing

/// How the reports name a simulated client's key exchange (issue 36): a TLS 1.2 RSA key exchange has no group, and
/// is not called a classical group.
@Suite("ClientSimulation")
struct ClientSimulationTests {
    static func simulation(_ suite: CipherSuite, group: NamedGroup?) -> ClientSimulation {
        ClientSimulation(
            client: "iOS 26 (URLSession)", profile: "ios26-urlsession", osVersion: "26", evidence: "inferred",
            outcome: .negotiated, version: .tls1_2, suite: AcceptedCipherSuite(suite: suite),
            group: group.map { AcceptedGroup(group: $0) }, quantumSecure: false)
    }

    @Test("the group's name, RSA key exchange without one, else a classical group")
    func keyExchangeLabel() {
        #expect(Self.simulation(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, group: .x25519).keyExchangeLabel == "x25519")
        #expect(
            Self.simulation(.TLS_RSA_WITH_AES_128_GCM_SHA256, group: nil).keyExchangeLabel
                == "RSA key exchange (no group)")
        #expect(
            Self.simulation(.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, group: nil).keyExchangeLabel == "a classical group")
    }
}
