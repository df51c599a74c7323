import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// SCTs delivered by `openssl s_server`, a server no one on this project wrote: in the TLS extension from a
/// `-serverinfo` file (`SSL_CTX_use_serverinfo_file`) and in a stapled OCSP response from `-status_file`. The SCTs
/// are our test logs'; what is under test is that the probe reads them from another TLS stack's handshake, with the
/// right source, and verifies them.
@Suite(
    "openssl s_server delivers SCTs", .serialized,
    .enabled(if: OpenSSLServer.binary != nil, "openssl is not installed: no s_server to deliver SCTs"))
struct OpenSSLServerSCTTests {
    static let logA = try! TestCTLog("s_server Log A", operator: "Operator One")
    static let logB = try! TestCTLog("s_server Log B", operator: "Operator Two")
    static let list = try! TestCTLogList.make([TestCTLogListing(logA), TestCTLogListing(logB)])
    static let pki = try! TestPKI.make(name: "s_server-sct")

    /// How the serverinfo file frames the extension.
    enum Framing: String, CaseIterable, Sendable {
        /// `SERVERINFO FOR`: type and length, sent in a TLS 1.2 ServerHello only (OpenSSL gives v1 data that context).
        case v1TLS12 = "serverinfo v1, TLS 1.2"
        /// `SERVERINFOV2 FOR`: a 4-byte context first, here ClientHello, TLS 1.2 ServerHello and TLS 1.3 Certificate.
        case v2TLS13 = "serverinfo v2, TLS 1.3"
    }

    /// The PEM serverinfo file carrying `list`, the SignedCertificateTimestampList, as extension 18.
    static func serverinfo(_ list: Data, framing: Framing) -> String {
        let body = [UInt8](list)
        var data: [UInt8] = [0x00, 0x12, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        var label = "SERVERINFO FOR signed_certificate_timestamp"
        if framing == .v2TLS13 {
            // SSL_EXT_CLIENT_HELLO | SSL_EXT_TLS1_2_SERVER_HELLO | SSL_EXT_TLS1_3_CERTIFICATE
            let context = UInt32(0x0080 | 0x0100 | 0x1000)
            data = (0..<4).reversed().map { UInt8(truncatingIfNeeded: context >> (UInt32($0) * 8)) } + data
            label = "SERVERINFOV2 FOR signed_certificate_timestamp"
        }
        let base64 = Data(data).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }

    /// Scans `server` with the PKI's root as the system roots and the two test logs as the log list.
    static func scan(_ server: OpenSSLServer) async throws -> ServerProfile {
        let root = TestScratch.file("atscheck-s_server-sct-root", suffix: ".pem")
        try pki.rootPEM.write(toFile: root, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 60)
        request.trustSource = .pemBundle(root)
        request.ctLogList = list
        request.scope = .atsOnly  // the lead handshake carries the certificate and its SCTs; fewer steps to wait on
        return await TLSProber().scan(request)
    }

    @Test("SCTs in the TLS extension and a stapled OCSP response verify", arguments: Framing.allCases)
    func delivered(_ framing: Framing) async throws {
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        let extensionSCT = try Self.logA.sct(for: leaf, at: Date().addingTimeInterval(-60))
        let ocsp = try TestOCSPResponse.good(
            for: leaf, issuer: Self.pki.intermediate, scts: [try Self.logB.sct(for: leaf, at: Date())])
        let server = try OpenSSLServer.start(chain: Self.pki.chain(for: leaf)) { directory in
            try Self.serverinfo(TestCTLog.list([extensionSCT]), framing: framing).write(
                toFile: directory + "/serverinfo.pem", atomically: true, encoding: .utf8)
            try ocsp.write(to: URL(fileURLWithPath: directory + "/ocsp.der"))
            return ["-serverinfo", directory + "/serverinfo.pem", "-status_file", directory + "/ocsp.der"]
                + (framing == .v1TLS12 ? ["-no_tls1_3"] : [])
        }
        defer { server.stop() }
        let profile = try await Self.scan(server)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        #expect(profile.supported(.tls1_3) == (framing == .v2TLS13))
        let certificate = try #require(profile.certificate)
        #expect(certificate.chain.first?.sha256 == server.leafSHA256)
        #expect(certificate.trusted == true)
        #expect(certificate.ocspStapled == true)
        let ct = try #require(certificate.transparency)
        #expect(ct.requestedDelivered)
        let bySource = Dictionary(ct.scts.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(ct.scts.map(\.source).sorted { $0.rawValue < $1.rawValue } == [.ocsp, .tlsExtension])
        #expect(bySource[.tlsExtension]?.log?.description == "s_server Log A")
        #expect(bySource[.tlsExtension]?.signature == .valid)
        #expect(bySource[.ocsp]?.log?.description == "s_server Log B")
        #expect(bySource[.ocsp]?.signature == .valid)
    }

    @Test("a corrupted SCT in s_server's TLS extension is invalid")
    func corrupted() async throws {
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        let sct = try Self.logA.sct(for: leaf, at: Date(), corruptSignature: true)
        let server = try OpenSSLServer.start(chain: Self.pki.chain(for: leaf)) { directory in
            try Self.serverinfo(TestCTLog.list([sct]), framing: .v2TLS13).write(
                toFile: directory + "/serverinfo.pem", atomically: true, encoding: .utf8)
            return ["-serverinfo", directory + "/serverinfo.pem"]
        }
        defer { server.stop() }
        let ct = try #require(try await Self.scan(server).certificate?.transparency)
        #expect(ct.scts.map(\.source) == [.tlsExtension])
        #expect(ct.scts.map(\.signature) == [.invalid])
    }
}
