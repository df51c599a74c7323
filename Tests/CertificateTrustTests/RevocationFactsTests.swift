import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import CertificateTrust

/// Which certificates of a path a device would ask its OCSP responder about online (trustd's `allow_fetch` in
/// `SecPathBuilderCheckRevocation`): EV leaves, issuers Apple's Valid data leaves to OCSP, none with a usable staple.
@Suite("online revocation checks a device would make")
struct RevocationFactsTests {
    static let pki = try! TestPKI.make(name: "revocation-facts")
    static let url = "http://ocsp.revocation-facts.test"

    static func leaf(_ spec: CertificateSpec) throws -> [X509Certificate] {
        let leaf = try pki.leaf(spec)
        return try [leaf, pki.intermediate, pki.root].map { try X509Certificate(der: [UInt8]($0.der)) }
    }

    static let plain = CertificateSpec.leaf("localhost").withExtension("authorityInfoAccess", "OCSP;URI:\(url)")
    /// certificatePolicies as DER (OpenSSL's config form for it needs a config database): the CA/Browser Forum's EV
    /// OID 2.23.140.1.1.
    static let ev = plain.withExtension("certificatePolicies", "DER:30:09:30:07:06:05:67:81:0C:01:01")
    static var validFlagsIntermediate: ValidRestrictions {
        ValidRestrictions(onlineCheckIssuers: [pki.intermediate.sha256.uppercased()])
    }

    @Test("a plain leaf without Valid data: no online check, its responder listed")
    func plainLeaf() throws {
        let report = RevocationFacts.report(
            path: try Self.leaf(Self.plain), stapled: nil, restrictions: nil, at: Date())
        #expect(report.leafResponders == [Self.url])
        #expect(report.onlineChecks.isEmpty)
        #expect(report.stapled == nil)
    }

    @Test("a leaf without an OCSP URL names no responder (Let's Encrypt since 2025)")
    func noResponder() throws {
        let path = try Self.leaf(.leaf("localhost"))
        let report = RevocationFacts.report(path: path, stapled: nil, restrictions: nil, at: Date())
        #expect(report.leafResponders.isEmpty)
        #expect(path[0].ocspResponders().isEmpty)
    }

    @Test("an EV leaf: every certificate with an issuer is checked online")
    func evLeaf() throws {
        let path = try Self.leaf(Self.ev)
        #expect(RevocationFacts.couldBeEV(path[0]))
        let report = RevocationFacts.report(path: path, stapled: nil, restrictions: nil, at: Date())
        #expect(report.onlineChecks.map(\.index) == [0, 1])
        #expect(report.onlineChecks.map(\.reasons) == [[.extendedValidation], [.extendedValidation]])
        #expect(report.onlineChecks.first?.responders == [Self.url])
        #expect(report.onlineChecks.last?.responders == [])
    }

    @Test(
        "a leaf that is not EV-shaped is not EV",
        arguments: [
            ev.withExtension("keyUsage", "critical,digitalSignature,keyCertSign"),
            ev.withExtension("certificatePolicies", "DER:30:07:30:05:06:03:2A:03:04"),  // 1.2.3.4
            {
                var spec = ev
                spec.digest = .sha1
                return spec
            }(),
        ])
    func notEV(_ spec: CertificateSpec) throws {
        #expect(!RevocationFacts.couldBeEV(try Self.leaf(spec)[0]))
    }

    @Test("Apple's Valid data leaves the intermediate's certificates to OCSP: the leaf and what is above it")
    func valid() throws {
        let report = RevocationFacts.report(
            path: try Self.leaf(Self.plain), stapled: nil, restrictions: Self.validFlagsIntermediate, at: Date())
        #expect(report.onlineChecks.map(\.index) == [0, 1])
        #expect(report.onlineChecks.allSatisfy { $0.reasons == [.validDatabase] })
    }

    @Test("Valid data for another issuer asks nothing")
    func validOther() throws {
        let restrictions = ValidRestrictions(onlineCheckIssuers: [String(repeating: "AB", count: 32)])
        let report = RevocationFacts.report(
            path: try Self.leaf(Self.plain), stapled: nil, restrictions: restrictions, at: Date())
        #expect(report.onlineChecks.isEmpty)
    }

    @Test("a usable good staple settles the leaf; an expired one does not")
    func stapleSettles() throws {
        let leaf = try Self.pki.leaf(Self.ev)
        let path = try [leaf, Self.pki.intermediate, Self.pki.root].map { try X509Certificate(der: [UInt8]($0.der)) }
        let good = try TestOCSPResponse.make(for: leaf, issuer: Self.pki.intermediate)
        let settled = RevocationFacts.report(path: path, stapled: [UInt8](good), restrictions: nil, at: Date())
        #expect(settled.stapled?.usable == true)
        #expect(settled.onlineChecks.map(\.index) == [1])
        let stale = RevocationFacts.report(
            path: path, stapled: [UInt8](good), restrictions: nil, at: Date().addingTimeInterval(30 * 86_400))
        #expect(stale.stapled?.problem == .expired)
        #expect(stale.onlineChecks.map(\.index) == [0, 1])
    }

    @Test("a certificate with id-pkix-ocsp-nocheck is never checked")
    func noCheck() throws {
        let report = RevocationFacts.report(
            path: try Self.leaf(Self.ev.withExtension("noCheck", "DER:05:00")), stapled: nil, restrictions: nil,
            at: Date())
        #expect(report.onlineChecks.map(\.index) == [1])
    }
}
