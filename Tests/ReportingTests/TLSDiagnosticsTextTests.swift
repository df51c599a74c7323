import Foundation
import TLSModel
import Testing

@testable import Reporting

@Suite("diagnose --tls-diagnostics: nscurl's TLS diagnostics from the simulated clients")
struct TLSDiagnosticsTextTests {
    typealias S = CipherSuite

    static func negotiated(
        _ os: String, client: String, profile: String, _ version: TLSVersion, _ suite: CipherSuite,
        _ group: NamedGroup?,
        evidence: String = "exact", quantum: Bool? = false
    ) -> ClientSimulation {
        ClientSimulation(
            client: client, profile: profile, osVersion: os, evidence: evidence, outcome: .negotiated,
            version: version, suite: AcceptedCipherSuite(suite: suite), group: group.map { AcceptedGroup(group: $0) },
            signatureScheme: "rsa_pss_rsae_sha256", quantumSecure: quantum)
    }

    /// A server that negotiates X25519MLKEM768 with iOS 26, X25519 with 18 and 17, and resets a Safari 26 hello.
    static let simulations: [ClientSimulation] = [
        negotiated("17", client: "iOS 17 (URLSession)", profile: "ios17", .tls1_3, S.TLS_AES_128_GCM_SHA256, .x25519),
        negotiated(
            "18", client: "iOS 18 (URLSession)", profile: "ios18", .tls1_3, S.TLS_AES_128_GCM_SHA256, .x25519,
            evidence: "inferred"),
        ClientSimulation(
            client: "iOS 26 (Safari)", profile: "ios26-safari", osVersion: "26", evidence: "exact", outcome: .dropped,
            failure: "the connection is reset after the first segment of the ClientHello"),
        negotiated(
            "26", client: "iOS 26 (URLSession)", profile: "ios26-urlsession", .tls1_3, S.TLS_AES_256_GCM_SHA384,
            .X25519MLKEM768, quantum: true),
        ClientSimulation(
            client: "iOS 12.2 (URLSession)", profile: "ios12", osVersion: "12.2", evidence: "spec", outcome: .refused,
            failure: "the server answers handshake_failure (40): no suite in common"),
    ]

    static func profile(_ simulations: [ClientSimulation]?, status: ScanStatus = .completed) -> ServerProfile {
        var profile = ServerProfile(
            target: "mdm.example.com:443", host: "mdm.example.com", port: 443, status: status,
            error: status == .completed ? nil : "connection refused", scannedAt: Date(timeIntervalSince1970: 0))
        profile.simulations = simulations
        return profile
    }

    static func diagnostics(_ os: String, _ simulations: [ClientSimulation]? = simulations) -> TLSDiagnostics {
        TLSDiagnostics(profile: profile(simulations), url: "https://mdm.example.com/", osVersion: os)
    }

    @Test("the newest era: nscurl's three lines for iOS 26's URLSession client, not its Safari one")
    func newest() {
        let d = Self.diagnostics("26.4")
        #expect(d.result == .pass)
        #expect(d.simulation?.profile == "ios26-urlsession")
        #expect(
            d.negotiatedVersion == "0x0304" && d.negotiatedGroup == "X25519MLKEM768" && d.negotiatedSuite == "0x1302")
        #expect(d.simulatedReleases == ["12.2", "17", "18", "26"])
        let text = TLSDiagnosticsTextRenderer.render(d, width: .max)
        #expect(
            text == """
                Starting TLS Diagnostics

                TLS connection to https://mdm.example.com/.
                (Simulated by atscheck with the iOS 26 (URLSession) ClientHello, profile ios26-urlsession (exact), \
                for iOS 26.4; nscurl connects from macOS itself.)

                ---
                Negotiated TLS version (codepoint): 0x0304
                Negotiated TLS key exchange group (name): X25519MLKEM768
                Negotiated TLS ciphersuite (codepoint): 0x1302
                ---
                Result : PASS
                TLSv1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768, rsa_pss_rsae_sha256 — quantum-secure

                """)
    }

    @Test(
        "--os-version picks the newest simulated era not after it",
        arguments: [
            ("26", "ios26-urlsession"), ("18.4", "ios18"), ("18", "ios18"), ("17.6", "ios17"), ("15.4", "ios12"),
            ("12.2", "ios12"),
        ])
    func eras(os: String, profile: String) {
        #expect(Self.diagnostics(os).simulation?.profile == profile)
    }

    @Test("a failing client prints nscurl's Result and Error lines; an inferred hello says so")
    func failing() {
        let refused = Self.diagnostics("13")
        #expect(refused.result == .fail && refused.negotiatedVersion == nil)
        let text = TLSDiagnosticsTextRenderer.render(refused, width: .max)
        #expect(
            text.contains(
                """
                ---
                Result : FAIL
                Error : iOS 12.2 (URLSession) fails: the server answers handshake_failure (40): no suite in common \
                (refused)
                ---
                """), "\(text)")
        #expect(!text.contains("Negotiated TLS"))
        let inferred = TLSDiagnosticsTextRenderer.render(Self.diagnostics("18"), width: .max)
        #expect(inferred.contains("Note: this era's ClientHello is inferred from sources"))
        #expect(!text.contains("inferred"))
    }

    @Test("with only a Safari client in the era, that one is shown (and its failure)")
    func safariOnly() {
        let d = Self.diagnostics("26", Self.simulations.filter { $0.profile != "ios26-urlsession" })
        #expect(d.result == .fail && d.simulation?.profile == "ios26-safari")
        #expect(
            d.error
                == "iOS 26 (Safari) fails: the connection is reset after the first segment of the ClientHello (dropped)"
        )
    }

    @Test("nothing to show: no simulation run, none that old, or no scan")
    func notSimulated() {
        let none = Self.diagnostics("26", nil)
        #expect(none.result == .notSimulated && none.error?.contains("simulated no Apple client") == true)
        let old = Self.diagnostics("10")
        #expect(old.result == .notSimulated)
        #expect(old.error == "no Apple client of iOS 10 or older was simulated (simulated: 12.2, 17, 18, 26)")
        let text = TLSDiagnosticsTextRenderer.render(old, width: .max)
        #expect(text.contains("Result : NOT SIMULATED\nError : no Apple client of iOS 10"))
        #expect(text.contains("Simulated releases: 12.2, 17, 18, 26"))
        let down = TLSDiagnostics(
            profile: Self.profile(Self.simulations, status: .unreachable), url: "https://mdm.example.com/",
            osVersion: "26")
        #expect(down.result == .notSimulated && down.error == "the endpoint could not be scanned: connection refused")
    }

    @Test("JSON: the document carries tlsDiagnostics instead of the matrix")
    func json() throws {
        let section = DiagnosisSection(
            report: DiagnosticsTextTests.report, profile: Self.profile(Self.simulations), findings: [],
            tls: Self.diagnostics("26"))
        let text = try JSONRendering.render(
            DiagnosisDocument(report: ScanReport(endpoints: [], findings: []), diagnosis: section))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["tests"] == nil && root["findings"] != nil)
        let tls = try #require(root["tlsDiagnostics"] as? [String: Any])
        #expect(tls["result"] as? String == "PASS")
        #expect(tls["negotiatedVersion"] as? String == "0x0304")
        #expect(tls["negotiatedGroup"] as? String == "X25519MLKEM768")
        #expect(tls["negotiatedSuite"] as? String == "0x1302")
        #expect((tls["simulation"] as? [String: Any])?["profile"] as? String == "ios26-urlsession")
        let matrix = DiagnosisSection(
            report: DiagnosticsTextTests.report, profile: Self.profile(nil), findings: [])
        let plain = try JSONRendering.render(
            DiagnosisDocument(report: ScanReport(endpoints: [], findings: []), diagnosis: matrix))
        #expect(plain.contains("\"tests\"") && !plain.contains("tlsDiagnostics"))
    }

    @Test("golden file")
    func golden() throws {
        try Snapshot.assert(
            TLSDiagnosticsTextRenderer.render(Self.diagnostics("26")) + "\n"
                + TLSDiagnosticsTextRenderer.render(Self.diagnostics("13")),
            named: "tls-diagnostics.txt")
    }
}
