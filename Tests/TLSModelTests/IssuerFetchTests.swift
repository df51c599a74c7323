import Foundation
import TLSModel
import Testing

/// The record of issuers fetched from caIssuers URLs: what counts as unfetched, which certificates a path builder
/// adds, and that reports from before the field still decode.
@Suite("IssuerFetch records")
struct IssuerFetchTests {
    static func facts(_ sha: String) -> CertificateFacts {
        CertificateFacts(
            subject: "CN=\(sha)", issuer: "CN=x", serialNumber: "1", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: Date(timeIntervalSince1970: 1e9), keyType: "RSA", keyBits: 2048,
            signatureAlgorithm: "sha256WithRSAEncryption", signatureHash: "SHA256", sha256: sha, spkiSHA256: "",
            der: Data(sha.utf8))
    }

    static func record(_ certificate: String, _ status: IssuerFetch.Status, shas: [String] = []) -> IssuerFetch {
        IssuerFetch(certificate: certificate, url: "http://ca.test/\(certificate)", status: status, certificates: shas)
    }

    @Test("an issuer is unfetched when a fetch for it failed or was off and no other fetch for it succeeded")
    func unfetched() {
        func evaluation(_ fetches: [IssuerFetch]?) -> TrustEvaluation {
            TrustEvaluation(source: "host", label: "host", stores: [], issuerFetches: fetches)
        }
        #expect(evaluation(nil).unfetchedIssuer == nil)
        #expect(evaluation([Self.record("leaf", .failed)]).unfetchedIssuer?.certificate == "leaf")
        #expect(evaluation([Self.record("leaf", .disabled)]).unfetchedIssuer?.status == .disabled)
        #expect(evaluation([Self.record("leaf", .skipped)]).unfetchedIssuer == nil, "trustd skips it too")
        #expect(evaluation([Self.record("leaf", .failed), Self.record("leaf", .fetched)]).unfetchedIssuer == nil)
        // The next issuer up failed after the first was fetched: that one is unfetched.
        let deeper = evaluation([Self.record("leaf", .fetched, shas: ["i1"]), Self.record("CN=i1", .failed)])
        #expect(deeper.unfetchedIssuer?.certificate == "CN=i1")
        #expect(deeper.fetchedIssuers.count == 1)
    }

    @Test("the fetched certificates come with their DER from the report, once each")
    func fetchedCertificates() {
        var report = CertificateReport(
            chain: [Self.facts("leaf")], trusted: true, hostnameMatches: true, verifyError: nil,
            verifiedChain: [Self.facts("leaf"), Self.facts("i1"), Self.facts("root")])
        report.trust = TrustEvaluation(
            source: "host", label: "host", stores: [], certificates: [Self.facts("i2")],
            issuerFetches: [
                Self.record("leaf", .fetched, shas: ["i1", "i2"]), Self.record("leaf2", .fetched, shas: ["i1"]),
                Self.record("x", .failed),
            ])
        #expect(report.fetchedIssuerCertificates.map(\.sha256) == ["i1", "i2"])
        #expect(report.fetchedIssuerCertificates.map(\.der) == [Data("i1".utf8), Data("i2".utf8)])
    }

    @Test("a trust evaluation saved before issuerFetches existed decodes, and the field round-trips")
    func coding() throws {
        let old = #"{"source":"host","label":"host","stores":[],"certificates":[]}"#
        let decoded = try JSONDecoder().decode(TrustEvaluation.self, from: Data(old.utf8))
        #expect(decoded.issuerFetches == nil)
        let encoded = try JSONEncoder().encode(decoded)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("issuerFetches"), "absent, not null")
        var withFetch = decoded
        withFetch.issuerFetches = [Self.record("leaf", .failed)]
        let again = try JSONDecoder().decode(TrustEvaluation.self, from: try JSONEncoder().encode(withFetch))
        #expect(again == withFetch)
    }
}
