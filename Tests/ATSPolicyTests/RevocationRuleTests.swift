import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// Revocation as trustd decides it (docs/revocation.md), on hand-built revocation facts: a usable revoked staple fails
/// on every OS release, a stale revoked one fails or is ambiguous by whether a responder could be asked, an unusable
/// one is a note, and an online check a device would make is a note.
@Suite("revocation (stapled OCSP, online checks)")
struct RevocationRuleTests {
    static let leaf = Fixture.cert()
    static let now = Fixture.now

    static func staple(
        _ status: StapledOCSPFacts.Status?, problem: StapledOCSPFacts.Problem? = nil,
        responder: StapledOCSPFacts.Responder? = .issuer, certificate: CertificateFacts = leaf
    ) -> StapledOCSPFacts {
        StapledOCSPFacts(
            response: Data([0x30]), status: status, certificateSHA256: certificate.sha256,
            certificate: certificate.subject, revokedAt: status == .revoked ? AppleDates.utc(2025, 5, 20) : nil,
            reason: status == .revoked ? "keyCompromise" : nil, thisUpdate: now, nextUpdate: now + 86_400,
            producedAt: now, responder: responder, responderSubject: "CN=Test Intermediate", problem: problem,
            detail: problem.map { "because \($0.rawValue)" }, checkedAt: now)
    }

    static func profile(_ revocation: RevocationReport?) -> ServerProfile {
        var profile = Fixture.profile(Fixture.modern)
        profile.certificate?.revocation = revocation
        return profile
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let revocation: RevocationReport?
        let verdict: ATSEvaluation.Verdict
        /// A piece of the violation, ambiguity or note that must be there.
        let says: String
        var testDescription: String { name }
    }

    static let ocspURL = "http://ocsp.test.example"
    static let cases: [Case] = [
        Case(name: "no revocation facts (a report from before them)", revocation: nil, verdict: .pass, says: ""),
        Case(
            name: "no staple, no online check: nothing to say", revocation: RevocationReport(), verdict: .pass,
            says: ""),
        Case(
            name: "a good staple", revocation: RevocationReport(stapled: staple(.good)), verdict: .pass, says: ""),
        Case(
            name: "a revoked staple fails",
            revocation: RevocationReport(stapled: staple(.revoked), leafResponders: [ocspURL]), verdict: .fail,
            says: "is revoked: the server staples an OCSP response signed by its issuer 'CN=Test Intermediate' that "
                + "says it was revoked on 2025-05-20 (keyCompromise)"),
        Case(
            name: "a revoked staple from a delegated responder fails",
            revocation: RevocationReport(stapled: staple(.revoked, responder: .delegated)), verdict: .fail,
            says: "signed by the delegated responder"),
        Case(
            name: "an expired revoked staple, no responder to ask: still fails",
            revocation: RevocationReport(stapled: staple(.revoked, problem: .expired)), verdict: .fail,
            says: "names no OCSP responder to ask for a newer one"),
        Case(
            name: "an expired revoked staple with a responder: ambiguous",
            revocation: RevocationReport(stapled: staple(.revoked, problem: .expired), leafResponders: [ocspURL]),
            verdict: .ambiguous, says: "asks the certificate's OCSP responder (\(ocspURL)) for a newer response"),
        Case(
            name: "an unverified revoked staple is ignored",
            revocation: RevocationReport(stapled: staple(.revoked, problem: .unverified, responder: nil)),
            verdict: .pass, says: "the stapled OCSP response is not used: its signature is not from the issuer"),
        Case(
            name: "an expired good staple is ignored",
            revocation: RevocationReport(stapled: staple(.good, problem: .expired)), verdict: .pass,
            says: "not used: it has expired: because expired; trustd ignores such a response"),
        Case(
            name: "a staple about another certificate is ignored",
            revocation: RevocationReport(stapled: staple(nil, problem: .otherCertificate, responder: nil)),
            verdict: .pass, says: "it is about another certificate"),
        Case(
            name: "an unknown staple is a note",
            revocation: RevocationReport(stapled: staple(.unknown)), verdict: .pass,
            says: "'unknown' for 'CN=api.example.com'"),
        Case(
            name: "an EV leaf a device checks online",
            revocation: RevocationReport(
                leafResponders: [ocspURL],
                onlineChecks: [
                    OnlineRevocationCheck(
                        certificate: leaf.subject, certificateSHA256: leaf.sha256, index: 0,
                        reasons: [.extendedValidation], responders: [ocspURL])
                ]), verdict: .pass,
            says: "a device asks about the leaf 'CN=api.example.com' online (the leaf carries an EV policy) and "
                + "atscheck did not"),
        Case(
            name: "Valid leaves the issuer to OCSP, and the leaf names no responder",
            revocation: RevocationReport(
                onlineChecks: [
                    OnlineRevocationCheck(
                        certificate: leaf.subject, certificateSHA256: leaf.sha256, index: 0, reasons: [.validDatabase],
                        responders: [])
                ]), verdict: .pass, says: "it names no OCSP responder, so the device gets no answer"),
    ]

    @Test("the verdict and what it says", arguments: cases)
    func judged(_ test: Case) {
        for os in ["12", "17.0", "26.4"] {
            let evaluation = Fixture.evaluate(Self.profile(test.revocation), os: os)
            #expect(evaluation.verdict == test.verdict, "iOS \(os)")
            let revoked = evaluation.violations.filter { $0.rule == .Trust.revoked }
            #expect(revoked.count == (test.verdict == .fail ? 1 : 0), "iOS \(os)")
            let said = evaluation.violations.map(\.message) + evaluation.notes
            if !test.says.isEmpty {
                #expect(said.contains { $0.contains(test.says) }, "iOS \(os): \(said)")
            } else {
                #expect(!said.contains { $0.contains("stapled OCSP") || $0.contains("revocation:") }, "\(said)")
            }
        }
    }
}
