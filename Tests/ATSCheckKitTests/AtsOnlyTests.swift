import ATSPolicy
import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// The ats-only scope (issue 10): on every server configuration the diagnose tests use (plus TLS 1.1
/// only), a scan limited to what ATS reads gives the same verdict and minimal exception as a full scan,
/// for iOS 26.4, 15.4, 13 and 10, in at most 6 handshakes.
@Suite("ats-only scans judge like full scans", .serialized)
struct AtsOnlyTests {
    typealias Diag = DiagnoseEndToEndTests
    static let host = Diag.host
    static let releases = ["26.4", "15.4", "13", "10"]

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var server: @Sendable () throws -> TLSServerConfiguration
    }

    static let cases: [Case] =
        Diag.cases.map { Case(description: $0.description, server: $0.server) } + [
            Case(
                description: "TLS 1.1 only",
                server: {
                    .only(.tls1_1, cipherList: "ECDHE-RSA-AES128-SHA:AES128-SHA", chain: try Diag.leaf(.leaf(host)))
                }),
            Case(
                description: "TLS 1.0-1.2, RSA key exchange preferred over ECDHE",
                server: {
                    TLSServerConfiguration(
                        minVersion: .tls1_0, maxVersion: .tls1_2,
                        cipherList: "AES256-GCM-SHA384:AES128-SHA:ECDHE-RSA-AES128-SHA",
                        chain: try Diag.leaf(.leaf(host)))
                }),
            Case(
                description: "TLS 1.0 only, RSA key exchange preferred",
                server: {
                    .only(.tls1_0, cipherList: "AES128-SHA:ECDHE-RSA-AES128-SHA", chain: try Diag.leaf(.leaf(host)))
                }),
            // The demo's legacy-tls10 server: an exception for TLS 1.0 alone cannot reach it (no ECDHE suite).
            Case(
                description: "TLS 1.0 only, RSA key exchange only",
                server: { .only(.tls1_0, cipherList: "AES128-SHA:AES256-SHA", chain: try Diag.leaf(.leaf(host))) }),
            Case(
                description: "TLS 1.1 only, RSA key exchange only, server order",
                server: {
                    var configuration = TLSServerConfiguration.only(
                        .tls1_1, cipherList: "AES256-SHA:AES128-SHA", chain: try Diag.leaf(.leaf(host)))
                    configuration.serverPreference = true
                    return configuration
                }),
        ]

    /// Scans the server twice, full and ats-only, with the real prober; `oneAtATime`: the server serves one
    /// connection at a time, as `openssl s_server` does (issue 20).
    static func scanBoth(
        _ configuration: TLSServerConfiguration, oneAtATime: Bool = false
    ) async throws -> (full: ServerProfile, atsOnly: ServerProfile) {
        var configuration = configuration
        if oneAtATime {
            configuration.connections = .oneAtATime
            configuration.handshakeTimeout = 60  // an idle connection would hold it far past the scan's timeout
        }
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        let caFile = TestScratch.file("atscheck-atsonly-ca", suffix: ".pem")
        try TestPKI.shared.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        var request = ProbeRequest(
            target: try Target(parsing: "\(host):\(server.port)"), connectAddress: server.host, timeout: 3,
            caFiles: [caFile])
        let prober = TLSProber()
        let full = await prober.scan(request)
        request.scope = .atsOnly
        let limited = await prober.scan(request)
        return (full, limited)
    }

    @Test("same verdict and minimal exception as a full scan, in at most 6 handshakes", arguments: cases)
    func sameJudgement(_ c: Case) async throws {
        try await Self.judgeAlike(c, oneAtATime: false)
    }

    @Test("the same on a server that serves one connection at a time", arguments: cases)
    func sameJudgementOneAtATime(_ c: Case) async throws {
        try await Self.judgeAlike(c, oneAtATime: true)
    }

    static func judgeAlike(_ c: Case, oneAtATime: Bool) async throws {
        let (full, limited) = try await Self.scanBoth(try c.server(), oneAtATime: oneAtATime)
        try #require(full.status == .completed, "full scan: \(full.error ?? "?")")
        try #require(limited.status == .completed, "ats-only scan: \(limited.error ?? "?")")
        #expect(limited.handshakes <= 6, "\(limited.handshakes) handshakes")
        #expect(limited.scope == "ats-only")
        #expect(full.scope == nil)
        #expect(limited.protocols.filter { $0.supported == true }.allSatisfy { !$0.enumerationComplete })
        #expect(limited.protocols.map(\.supported) == full.protocols.map(\.supported))
        let target = try Target(parsing: "https://\(Self.host)/")
        for release in Self.releases {
            let os = try #require(AppleOSVersion(string: release))
            let evaluator = ATSPolicyEvaluator(for: ATSClient(os: os))
            let fullVerdict = evaluator.evaluate(full, host: Self.host).verdict
            let limitedVerdict = evaluator.evaluate(limited, host: Self.host).verdict
            #expect(limitedVerdict == fullVerdict, "iOS \(release)")
            let fullException = ATSDiagnostics.minimalException(profile: full, target: target, for: ATSClient(os: os))
            let limitedException = ATSDiagnostics.minimalException(
                profile: limited, target: target, for: ATSClient(os: os))
            #expect(limitedException == fullException, "iOS \(release)")
            // The whole nscurl matrix (every exception combination) agrees too.
            let fullMatrix = Diag.letters(ATSDiagnostics.run(profile: full, target: target, for: ATSClient(os: os)))
            #expect(
                Diag.letters(ATSDiagnostics.run(profile: limited, target: target, for: ATSClient(os: os)))
                    == fullMatrix, "iOS \(release)")
        }
    }
}
