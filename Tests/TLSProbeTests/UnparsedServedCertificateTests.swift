import CertificateTrust
import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// A served certificate that does not parse is reported, never dropped (issue 34): the prober's certificate report
/// of a handshake's chain names it with its position and OpenSSL's reason.
@Suite("Unreadable served certificates")
struct UnparsedServedCertificateTests {
    static let pki = try! TestPKI.make(name: "unparsed-served")

    @Test("the prober's report of a handshake's chain names the certificate OpenSSL could not read")
    func handshakeChain() throws {
        let ca = TestScratch.file("atscheck-unparsed-served", suffix: ".pem")
        try Self.pki.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
        let trust = try TrustStoreSet(source: .none, caFiles: [ca], useSystemStore: false)
        let leaf = try Self.pki.leaf(.leaf("localhost"))
        let garbage: [UInt8] = [0x30, 0x82, 0x01, 0x00, 0x02]  // a SEQUENCE that claims 256 bytes and holds 1
        let accepted = HandshakeResult.Accepted(
            version: .tls1_2, suite: CipherSuite(0xC02F), openSSLName: "ECDHE-RSA-AES128-GCM-SHA256", group: nil,
            groupBits: nil, chainDER: [[UInt8](leaf.der), garbage, [UInt8](Self.pki.intermediate.der)],
            ocspStapled: false)
        let request = ProbeRequest(target: try Target(parsing: "localhost:443"), timeout: 1)
        let report = TLSProber.certificateReport(accepted, request: request, trust: trust)
        #expect(report.unparsedCertificates?.map(\.position) == [2])
        #expect(report.unparsedCertificates?.first?.origin == .served)
        #expect(report.unparsedCertificates?.first?.der == Data(garbage))
        #expect(report.unparsedCertificates?.first?.reason.lowercased().contains("asn1") == true)
        #expect(report.chain.count == 2)
        #expect(report.trusted == true, "\(report.verifyError ?? "")")
    }
}
