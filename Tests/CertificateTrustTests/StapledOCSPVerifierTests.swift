import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import CertificateTrust

/// Stapled OCSP responses minted with OpenSSL's OCSP API, each judged as trustd judges one (docs/revocation.md):
/// the signer, the CertID against the path, the status and the times with trustd's 1 h 15 min leeway.
@Suite("stapled OCSP responses checked as trustd checks them")
struct StapledOCSPVerifierTests {
    static let pki = try! TestPKI.make(name: "ocsp-verifier")
    static let leaf = try! pki.leaf(.leaf("localhost", "127.0.0.1"))
    static let other = try! pki.leaf(.leaf("other.example"))
    /// A responder the intermediate certified: OCSP-signing EKU, digitalSignature, not a CA.
    static let responder = try! pki.intermediate.issue(
        CertificateSpec(commonName: "ocsp-verifier OCSP Responder", keySlot: "ocsp-responder")
            .withExtendedKeyUsage(["OCSPSigning"]).withExtension("keyUsage", "critical,digitalSignature"))
    /// The same, without the OCSP-signing EKU.
    static let responderWithoutEKU = try! pki.intermediate.issue(
        CertificateSpec(commonName: "ocsp-verifier Plain Responder", keySlot: "ocsp-responder")
            .withExtendedKeyUsage(["serverAuth"]).withExtension("keyUsage", "critical,digitalSignature"))
    /// The same, marked as a CA.
    static let responderCA = try! pki.intermediate.issue(
        CertificateSpec(commonName: "ocsp-verifier CA Responder", keySlot: "ocsp-responder")
            .withExtendedKeyUsage(["OCSPSigning"]).withExtension("keyUsage", "critical,digitalSignature")
            .withExtension("basicConstraints", "critical,CA:TRUE"))
    /// A certificate with the intermediate's subject and another key: its signature is not the issuer's.
    static let forged = try! TestCertificate.selfSigned(
        { () -> CertificateSpec in
            var spec = CertificateSpec.ca("ocsp-verifier Test Intermediate CA")
            spec.keySlot = "ocsp-forged"
            return spec
        }())

    static func path(_ certificates: [TestCertificate]) throws -> [X509Certificate] {
        try certificates.map { try X509Certificate(der: [UInt8]($0.der)) }
    }

    static func verify(_ response: Data, path: [TestCertificate]? = nil, at: Date = Date()) throws -> StapledOCSPFacts {
        StapledOCSPVerifier.verify(
            [UInt8](response), path: try Self.path(path ?? [leaf, pki.intermediate, pki.root]), at: at)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let response: @Sendable () throws -> Data
        let status: StapledOCSPFacts.Status?
        let problem: StapledOCSPFacts.Problem?
        let responder: StapledOCSPFacts.Responder?
        var detail: String? = nil
        var testDescription: String { name }
    }

    static let day: TimeInterval = 86_400
    static let cases: [Case] = [
        Case(
            name: "good, signed by the issuer",
            response: { try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate) },
            status: .good, problem: nil, responder: .issuer),
        Case(
            name: "good, ResponderID by key, SHA-256 CertID",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate, responderIDByKey: true, digest: .sha256)
            }, status: .good, problem: nil, responder: .issuer),
        Case(
            name: "revoked with a reason",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate,
                    status: .revoked(at: Date().addingTimeInterval(-3 * day), reason: 1))
            }, status: .revoked, problem: nil, responder: .issuer),
        Case(
            name: "unknown",
            response: { try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate, status: .unknown) },
            status: .unknown, problem: nil, responder: .issuer),
        Case(
            name: "good, signed by a delegated responder it carries",
            response: {
                try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate, signer: responder, includeSigner: true)
            }, status: .good, problem: nil, responder: .delegated),
        Case(
            name: "expired: nextUpdate 3 days ago",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate, thisUpdate: Date().addingTimeInterval(-10 * day),
                    nextUpdate: Date().addingTimeInterval(-3 * day))
            }, status: .good, problem: .expired, responder: .issuer, detail: "nextUpdate"),
        Case(
            name: "nextUpdate an hour ago is inside trustd's leeway",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate, thisUpdate: Date().addingTimeInterval(-day),
                    nextUpdate: Date().addingTimeInterval(-3_600))
            }, status: .good, problem: nil, responder: .issuer),
        Case(
            name: "no nextUpdate and thisUpdate two days ago: past trustd's 24 h default",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate, thisUpdate: Date().addingTimeInterval(-2 * day),
                    nextUpdate: .distantPast)
            }, status: .good, problem: .expired, responder: .issuer, detail: "no nextUpdate"),
        Case(
            name: "not yet valid: thisUpdate in 3 hours",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate, thisUpdate: Date().addingTimeInterval(3 * 3_600))
            }, status: .good, problem: .notYetValid, responder: .issuer, detail: "thisUpdate"),
        Case(
            name: "signed with another key under the issuer's name",
            response: { try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate, signer: forged) },
            status: .good, problem: .unverified, responder: nil, detail: "does not verify"),
        Case(
            name: "signed by a carried certificate the issuer did not issue",
            response: {
                try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate, signer: forged, includeSigner: true)
            }, status: .good, problem: .unverified, responder: nil, detail: "not issued and signed"),
        Case(
            name: "a delegated responder without the OCSP-signing EKU",
            response: {
                try TestOCSPResponse.make(
                    for: leaf, issuer: pki.intermediate, signer: responderWithoutEKU, includeSigner: true)
            }, status: .good, problem: .unverified, responder: nil, detail: "OCSP-signing"),
        Case(
            name: "a delegated responder that is a CA",
            response: {
                try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate, signer: responderCA, includeSigner: true)
            }, status: .good, problem: .unverified, responder: nil, detail: "is a CA"),
        Case(
            name: "a delegated responder the response does not carry",
            response: { try TestOCSPResponse.make(for: leaf, issuer: pki.intermediate, signer: responder) },
            status: .good, problem: .unverified, responder: nil, detail: "ResponderID"),
        Case(
            name: "about another certificate",
            response: { try TestOCSPResponse.make(for: other, issuer: pki.intermediate) },
            status: nil, problem: .otherCertificate, responder: nil, detail: "serial"),
        Case(
            name: "an unsuccessful response (tryLater)", response: { try TestOCSPResponse.unsuccessful() },
            status: nil, problem: .unsuccessful, responder: nil, detail: "tryLater"),
        Case(
            name: "not an OCSP response", response: { Data("HTTP/1.1 200 OK\r\n".utf8) }, status: nil,
            problem: .malformed, responder: nil),
    ]

    @Test("a response is judged as trustd judges it", arguments: cases)
    func judged(_ test: Case) throws {
        let facts = try Self.verify(try test.response())
        #expect(facts.status == test.status)
        #expect(facts.problem == test.problem, "\(facts.detail ?? "")")
        #expect(facts.responder == test.responder)
        #expect(facts.usable == (test.problem == nil))
        if let detail = test.detail { #expect(facts.detail?.contains(detail) == true, "\(facts.detail ?? "nil")") }
        if test.status != nil, test.problem != .otherCertificate {
            #expect(facts.certificateSHA256 == Self.leaf.sha256)
        }
    }

    @Test("a revoked response says when and why")
    func revokedDetails() throws {
        let at = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 5 * Self.day).rounded(.down))
        let facts = try Self.verify(
            try TestOCSPResponse.make(
                for: Self.leaf, issuer: Self.pki.intermediate, status: .revoked(at: at, reason: 1)))
        #expect(facts.revokedAt == at)
        #expect(facts.reason == "keyCompromise")
        #expect(facts.responderSubject?.contains("ocsp-verifier Test Intermediate CA") == true)
        #expect(facts.revokedOutsideValidity == false)
    }

    @Test("an expired revoked response is kept as revoked, outside its validity")
    func revokedExpired() throws {
        let facts = try Self.verify(
            try TestOCSPResponse.make(
                for: Self.leaf, issuer: Self.pki.intermediate, status: .revoked(at: Date(), reason: nil)),
            at: Date().addingTimeInterval(30 * Self.day))
        #expect(facts.status == .revoked)
        #expect(facts.problem == .expired)
        #expect(facts.reason == nil)
        #expect(facts.revokedOutsideValidity)
        #expect(!facts.usable)
    }

    @Test("a response about the intermediate, signed by the root, speaks for the intermediate")
    func intermediate() throws {
        let facts = try Self.verify(
            try TestOCSPResponse.make(
                for: Self.pki.intermediate, issuer: Self.pki.root, status: .revoked(at: Date(), reason: 2)))
        #expect(facts.usable)
        #expect(facts.status == .revoked)
        #expect(facts.certificateSHA256 == Self.pki.intermediate.sha256)
        #expect(facts.certificate?.contains("Intermediate") == true)
    }

    @Test("a chain of the leaf alone gives no issuer to check against")
    func noIssuer() throws {
        let facts = try Self.verify(
            try TestOCSPResponse.make(for: Self.leaf, issuer: Self.pki.intermediate), path: [Self.leaf])
        #expect(facts.problem == .noIssuer)
        #expect(facts.status == nil)
    }
}
