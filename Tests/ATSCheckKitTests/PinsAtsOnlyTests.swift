import ATSCheckKit
import CertificateTrust
import Foundation
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// `pins check` probes ATS-only by default (issue 10): the served chain a pin evaluation reads must be the one a
/// full scan reads, on every server configuration the ats-only tests use and on the pin scenarios' odd chains.
@Suite("pin checks from the ATS-only probe", .serialized)
struct PinsAtsOnlyTests {
    static let host = AtsOnlyTests.host

    static let chains: [(String, @Sendable () throws -> [TestCertificate])] = [
        ("root sent", { [try TestPKI.shared.leaf(.leaf(host)), TestPKI.shared.intermediate, TestPKI.shared.root] }),
        ("leaf only", { [try TestPKI.shared.leaf(.leaf(host))] }),
        (
            "self-signed",
            {
                var spec = CertificateSpec.leaf(host)
                spec.keySlot = "pins-atsonly-self-signed"
                return [try TestCertificate.selfSigned(spec)]
            }
        ),
    ]

    static let cases: [AtsOnlyTests.Case] =
        AtsOnlyTests.cases
        + chains.map { name, chain in
            AtsOnlyTests.Case(description: "modern, \(name)", server: { .modern(chain: try chain()) })
        }

    @Test("the ats-only profile carries the same served chain as the full scan", arguments: cases)
    func sameServedChain(_ c: AtsOnlyTests.Case) async throws {
        let (full, limited) = try await AtsOnlyTests.scanBoth(try c.server())
        let fullChain = try #require(full.certificate?.chain, "full scan: \(full.error ?? "no chain")")
        let limitedChain = try #require(limited.certificate?.chain, "ats-only scan: \(limited.error ?? "no chain")")
        #expect(!limitedChain.isEmpty)
        #expect(limitedChain.map(\.sha256) == fullChain.map(\.sha256))
        #expect(limited.certificate?.trusted == full.certificate?.trusted)
        #expect(limited.certificate?.hostnameMatches == full.certificate?.hostnameMatches)
    }

    @Test(
        "PinChecker over an ats-only pipeline decides as over a full one, in fewer handshakes, and says it was ats-only"
    )
    func checkerDecidesAlike() async throws {
        let leaf = try TestPKI.shared.leaf(.leaf(Self.host))
        let server = try TestTLSServer(.modern(chain: [leaf, TestPKI.shared.intermediate]))
        defer { server.stop() }
        let caFile = try ProbeFixturesForPins.caFile()
        var pins = LoadedPins()
        pins.certificates = [
            PinnedCertificateFile(
                file: "leaf.cer", facts: try CertificateParsing.facts(der: leaf.der), pemInDERFile: false)
        ]
        var options = PinPolicyOptions()
        options.values["mode"] = "public-key"
        let checker = try PinChecker(
            policy: options.policy, pins: pins, pinsPath: "leaf.cer", caFiles: [caFile], useSystemStore: false)
        let target = try Target(parsing: "\(Self.host):\(server.port)")
        func settings(_ scope: ProbeScope) throws -> ScanSettings {
            var settings = ScanSettings()
            settings.resolve = [try ResolveRule(parsing: "\(Self.host):\(server.port):127.0.0.1")]
            settings.caFiles = [caFile]
            settings.useSystemTrustStore = false
            settings.timeout = 3
            settings.scope = scope
            return settings
        }
        let before = server.acceptedConnections
        let limited = await checker.check([target], pipeline: ScanPipeline(settings: try settings(.atsOnly)))
        let limitedConnections = server.acceptedConnections - before
        let full = await checker.check([target], pipeline: ScanPipeline(settings: try settings(.full)))
        let fullConnections = server.acceptedConnections - before - limitedConnections
        #expect(limited.scope == "ats-only")
        #expect(full.scope == nil)
        let a = try #require(limited.results.first?.evaluation)
        let b = try #require(full.results.first?.evaluation)
        #expect(a.verdict == .accept)
        #expect(a == b)
        #expect(limited.results.first?.served == full.results.first?.served)
        #expect(limitedConnections <= 6)
        #expect(limitedConnections < fullConnections)
    }
}

enum ProbeFixturesForPins {
    static func caFile() throws -> String {
        let path = TestScratch.file("atscheck-pins-atsonly", suffix: ".pem")
        try TestPKI.shared.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
