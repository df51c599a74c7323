import Foundation
import Reporting
import TLSModel
import Testing

/// The text report's `OCSP stapling` line says what trustd makes of the staple (docs/revocation.md); rendered wide, so
/// that each line is whole.
@Suite("Scan text: stapled OCSP")
struct ScanTextRevocationTests {
    static let date = ReportFixtures.date

    static func render(_ staple: StapledOCSPFacts?, stapled: Bool = true) -> String {
        var certificate = ReportFixtures.certificate(trusted: true, hostnameMatches: true)
        certificate.ocspStapled = stapled
        certificate.revocation = RevocationReport(stapled: staple)
        return ScanTextRenderer(now: date, width: 300).render(
            ScanReport(endpoints: [
                EndpointResult(
                    profile: ReportFixtures.profile("api.example.com", certificate: certificate),
                    ats: ATSEvaluation(verdict: .pass, osVersion: "26.4"))
            ]))
    }

    static func staple(
        _ status: StapledOCSPFacts.Status?, problem: StapledOCSPFacts.Problem? = nil,
        responder: StapledOCSPFacts.Responder? = .issuer
    ) -> StapledOCSPFacts {
        StapledOCSPFacts(
            response: Data([0x30]), status: status, certificateSHA256: "00", certificate: "CN=api.example.com",
            revokedAt: status == .revoked ? date : nil, reason: status == .revoked ? "keyCompromise" : nil,
            thisUpdate: date, nextUpdate: date.addingTimeInterval(7 * 86_400), responder: responder,
            problem: problem, detail: problem.map { _ in "nextUpdate 2026-01-01T00:00:00Z is past" }, checkedAt: date)
    }

    @Test(
        "each staple has its line",
        arguments: [
            (staple(.good), "OCSP stapling: yes — good for 'CN=api.example.com', signed by the issuer; this update "),
            (
                staple(.revoked, responder: .delegated),
                "OCSP stapling: yes — revoked on \(CalendarDay.string(from: date)) (keyCompromise) for "
                    + "'CN=api.example.com', signed by a delegated responder"
            ),
            (staple(.unknown), "OCSP stapling: yes — unknown for 'CN=api.example.com'"),
            (
                staple(.good, problem: .expired),
                "OCSP stapling: yes — not used by trustd (expired): says good, nextUpdate 2026-01-01T00:00:00Z is past"
            ),
        ])
    func line(_ staple: StapledOCSPFacts, _ expected: String) {
        let text = Self.render(staple)
        #expect(text.contains(expected), "\(text)")
    }

    @Test("no staple: the line is as before")
    func none() {
        #expect(Self.render(nil, stapled: false).contains("    OCSP stapling: no\n"))
    }
}
