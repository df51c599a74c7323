import Foundation
import Reporting
import TLSModel
import Testing

/// The text report names each certificate OpenSSL could not read, under the chain, with the parser's reason; rendered
/// wide, so that each line is whole.
@Suite("Scan text: unreadable certificates")
struct ScanTextUnparsedCertificateTests {
    static func render(_ unparsed: [UnparsedCertificate]?) -> String {
        var certificate = ReportFixtures.certificate(trusted: true, hostnameMatches: true)
        certificate.unparsedCertificates = unparsed
        return ScanTextRenderer(now: ReportFixtures.date, width: 300).render(
            ScanReport(endpoints: [
                EndpointResult(
                    profile: ReportFixtures.profile("api.example.com", certificate: certificate),
                    ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"))
            ]))
    }

    static func unparsed(_ origin: UnparsedCertificate.Origin, _ position: Int) -> UnparsedCertificate {
        UnparsedCertificate(
            origin: origin, position: position, reason: "parsing a certificate (DER): header too long",
            sha256: String(repeating: "ab", count: 32), der: Data([0x30, 0x00]))
    }

    @Test(
        "each unreadable certificate has its line",
        arguments: [
            (unparsed(.served, 2), "unreadable certificate 2 as sent: parsing a certificate (DER): header too long"),
            (unparsed(.fetched, 1), "unreadable issuer 1 fetched (AIA): parsing a certificate (DER): header too long"),
            (unparsed(.served, 1), "the leaf could not be read: the chain was not judged"),
        ])
    func line(_ unparsed: UnparsedCertificate, _ expected: String) {
        let text = Self.render([unparsed])
        #expect(text.contains(expected), "\(text)")
        #expect(text.contains("        SHA-256: \(unparsed.sha256)\n"), "\(text)")
    }

    @Test("every certificate read: no such line")
    func none() {
        let text = Self.render(nil)
        #expect(!text.contains("unreadable"))
        #expect(!text.contains("could not be read"))
    }

    @Test("a served certificate that is not the leaf does not say the chain was not judged")
    func notLeaf() {
        #expect(!Self.render([Self.unparsed(.served, 2)]).contains("the chain was not judged"))
    }
}
