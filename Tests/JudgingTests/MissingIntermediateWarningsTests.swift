import Foundation
import Judging
import TLSModel
import Testing

/// The `trust.missing-intermediate` warning: one per endpoint whose trusted path uses an issuer fetched from a
/// caIssuers URL, none otherwise.
@Suite("Missing intermediate warnings")
struct MissingIntermediateWarningsTests {
    static func facts(_ sha: String) -> CertificateFacts {
        CertificateFacts(
            subject: "CN=\(sha)", issuer: "CN=x", serialNumber: "1", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: Date(timeIntervalSince1970: 2e9), keyType: "RSA", keyBits: 2048,
            signatureAlgorithm: "sha256WithRSAEncryption", signatureHash: "SHA256", sha256: sha, spkiSHA256: "")
    }

    static func endpoint(trusted: Bool, fetched: [String], status: ScanStatus = .completed) -> EndpointResult {
        var report = CertificateReport(
            chain: [facts("leaf")], trusted: trusted, hostnameMatches: true, verifyError: nil,
            verifiedChain: trusted ? [facts("leaf"), facts("int"), facts("root")] : [])
        report.trust = TrustEvaluation(
            source: "apple", label: "test", stores: [],
            issuerFetches: [
                IssuerFetch(
                    certificate: "CN=leaf", url: "http://ca.test/int.der", status: .fetched, certificates: fetched)
            ])
        let profile = ServerProfile(
            target: "api.example.com:443", host: "api.example.com", port: 443, status: status, certificate: report)
        return EndpointResult(profile: profile, source: SourceLocation(file: "endpoints.txt", line: 3))
    }

    @Test("a trusted path through a fetched issuer warns once, naming the URL, at the endpoint's line")
    func warns() throws {
        let findings = MissingIntermediateWarnings.findings(for: [Self.endpoint(trusted: true, fetched: ["int"])])
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.rule == RuleID.Trust.missingIntermediate && finding.severity == .warning)
        #expect(finding.message.contains("http://ca.test/int.der"))
        #expect(finding.message.contains("does not send its intermediate"))
        #expect(finding.file == "endpoints.txt" && finding.line == 3)
    }

    @Test(
        "no warning: untrusted, the fetched certificate off the path, or not scanned",
        arguments: [(false, ["int"], ScanStatus.completed), (true, ["other"], .completed), (true, ["int"], .timeout)])
    func silent(trusted: Bool, fetched: [String], status: ScanStatus) {
        #expect(
            MissingIntermediateWarnings.findings(for: [
                Self.endpoint(trusted: trusted, fetched: fetched, status: status)
            ])
            .isEmpty)
    }
}
