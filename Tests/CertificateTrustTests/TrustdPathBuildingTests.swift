import CertificateTrust
import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// Path building as trustd does it, where OpenSSL alone differs (issue 23; docs/rules.md "How the path is built"):
/// alternative paths, non-self-signed anchors, a leaf that is its own anchor, and trustd's structural checks.
@Suite("Path building as trustd does")
struct TrustdPathBuildingTests {
    static func pem(_ certificates: [TestCertificate]) throws -> String {
        let path = TestScratch.file("atscheck-trustd", suffix: ".pem")
        try TestCertificate.pemBundle(certificates).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func report(_ chain: [TestCertificate], anchors: [TestCertificate], host: String = "a.atscheck.test")
        throws -> CertificateReport
    {
        try ChainReports(source: .none, caFiles: [try pem(anchors)], logList: nil).report(
            chain: chain.map(\.der), host: host, now: Date())
    }

    @Test("a cross-signed intermediate: when the first path breaks a name constraint, the other path is tried")
    func alternativePath() throws {
        // Two roots; the intermediate's key and subject are certified by both. Root A's certificate of it excludes
        // the leaf's domain, root B's does not. The server sends the constrained one first.
        let rootA = try TestCertificate.selfSigned(.ca("trustd root A"))
        let rootB = try TestCertificate.selfSigned(.ca("trustd root B"))
        let spec = CertificateSpec.ca("trustd cross intermediate")
        let constrained = try rootA.issue(spec.withExtension("nameConstraints", "critical,excluded;DNS:atscheck.test"))
        let open = try rootB.issue(spec)
        let leaf = try constrained.issue(.leaf("a.atscheck.test"))
        let first = try Self.report([leaf, constrained], anchors: [rootA, rootB])
        #expect(first.trusted == false, "only the constrained path was served")
        let both = try Self.report([leaf, constrained, open], anchors: [rootA, rootB])
        #expect(both.trusted == true, "\(both.verifyError ?? "")")
        #expect(both.verifiedChain.map(\.der) == [leaf.der, open.der, rootB.der])
    }

    @Test("a trusted certificate that is not self-signed anchors the path (trustd's anchor sources)")
    func intermediateAnchor() throws {
        let pki = try TestPKI.make(name: "trustd intermediate anchor")
        let leaf = try pki.leaf(.leaf("a.atscheck.test"))
        let report = try Self.report([leaf, pki.intermediate], anchors: [pki.intermediate])
        #expect(report.trusted == true, "\(report.verifyError ?? "")")
        #expect(report.verifiedChain.count == 2)
        #expect(report.anchor == .custom)
    }

    @Test("a leaf that is itself an anchor is the whole path: what the server sends after it is not checked")
    func leafAnchor() throws {
        let leaf = try TestCertificate.selfSigned(.leaf("a.atscheck.test"))
        let expiredCA = try TestCertificate.selfSigned(CertificateSpec.ca("trustd expired").expired())
        let report = try Self.report([leaf, expiredCA], anchors: [leaf])
        #expect(report.trusted == true, "\(report.verifyError ?? "")")
        #expect(report.verifiedChain.count == 1)
    }

    @Test("trustd's checks: an unknown critical extension fails below the anchor, not on it")
    func structuralChecks() throws {
        let root = try TestCertificate.selfSigned(.ca("trustd structural root"))
        let unknownCritical = try root.issue(
            CertificateSpec.leaf("a.atscheck.test").withExtension("1.3.6.1.4.1.55738.666.1", "critical,ASN1:NULL"))
        let report = try Self.report([unknownCritical], anchors: [root])
        #expect(report.trusted == false)
        #expect(report.verifyError?.contains("unknown critical extension 1.3.6.1.4.1.55738.666.1") == true)
        // The same extension on the anchor itself is not processed (RFC 5280 §6.1: the anchor is an input).
        let oddRoot = try TestCertificate.selfSigned(
            CertificateSpec.ca("trustd odd root").withExtension("1.3.6.1.4.1.55738.666.1", "critical,ASN1:NULL"))
        let leaf = try oddRoot.issue(.leaf("a.atscheck.test"))
        let anchored = try Self.report([leaf], anchors: [oddRoot])
        #expect(anchored.trusted == true, "\(anchored.verifyError ?? "")")
    }

    @Test("valid through the second of notAfter, as trustd counts (OpenSSL calls that second expired)")
    func notAfterInclusive() throws {
        let root = try TestCertificate.selfSigned(.ca("trustd notafter root"))
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down))
        let leaf = try root.issue(CertificateSpec.leaf("a.atscheck.test").valid(from: start, days: 2))
        let end = leaf.spec.notAfter
        let reports = try ChainReports(source: .none, caFiles: [try Self.pem([root])], logList: nil)
        let at = try reports.report(chain: [leaf.der], host: "a.atscheck.test", now: end)
        #expect(at.trusted == true, "\(at.verifyError ?? "")")
        let after = try reports.report(chain: [leaf.der], host: "a.atscheck.test", now: end.addingTimeInterval(1))
        #expect(after.trusted == false)
    }

    /// An authorityKeyIdentifier as DER: keyIdentifier 01, then an authorityCertIssuer (CN=x) and/or a serial (1234).
    static func authorityKeyID(issuer: Bool, serial: Bool) -> String {
        let keyID = "80:01:01"
        let name = "A1:10:A4:0E:30:0C:31:0A:30:08:06:03:55:04:03:0C:01:78"
        let number = "82:02:04:D2"
        let body = [keyID] + (issuer ? [name] : []) + (serial ? [number] : [])
        let length = body.joined(separator: ":").split(separator: ":").count
        return "DER:30:" + String(format: "%02X", length) + ":" + body.joined(separator: ":")
    }

    @Test(
        "trustd's AKI parser: an issuer name needs its serial and the reverse, on the anchor too",
        arguments: [(true, false, false), (false, true, false), (true, true, true), (false, false, true)])
    func authorityKeyIdentifierPairs(_ issuer: Bool, _ serial: Bool, _ trusted: Bool) throws {
        let root = try TestCertificate.selfSigned(
            CertificateSpec.ca("trustd aki root \(issuer) \(serial)")
                .withExtension("authorityKeyIdentifier", Self.authorityKeyID(issuer: issuer, serial: serial)))
        let leaf = try root.issue(.leaf("a.atscheck.test"))
        let report = try Self.report([leaf], anchors: [root])
        #expect(report.trusted == trusted, "\(report.verifyError ?? "")")
        if !trusted {
            #expect(report.verifyError?.contains("authority key identifier with an issuer name and no serial") == true)
        }
    }

    @Test("a critical subject key identifier on the anchor is accepted, as trustd never checks its criticality")
    func criticalSKI() throws {
        let root = try TestCertificate.selfSigned(
            CertificateSpec.ca("trustd critical ski root").withExtension("subjectKeyIdentifier", "critical,hash"))
        let leaf = try root.issue(.leaf("a.atscheck.test"))
        let report = try Self.report([leaf], anchors: [root])
        #expect(report.trusted == true, "\(report.verifyError ?? "")")
    }
}
