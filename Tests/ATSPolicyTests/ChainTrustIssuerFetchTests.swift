import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// `ChainTrustRule` and a served chain that lacks its intermediate (docs/path-building.md, "Missing intermediates"):
/// a fetch that was off or failed makes the verdict ambiguous, never `trust.untrusted`; a fetch trustd would not make
/// leaves the failure; a path completed by a fetch passes with a note.
@Suite("Chain trust with issuers fetched from caIssuers URLs")
struct ChainTrustIssuerFetchTests {
    static let url = "http://ca.example/int.der"

    /// A leaf-only chain that the store's verification stopped at: `code` is OpenSSL's error.
    static func incomplete(_ fetches: [IssuerFetch], code: Int = 20, leaf: CertificateFacts = Fixture.cert())
        -> ServerProfile
    {
        var profile = Fixture.profile(
            Fixture.modern, leaf: leaf, intermediates: [], trusted: false,
            verifyError: "unable to get local issuer certificate")
        profile.certificate?.verifyErrorCode = code
        profile.certificate?.trust = TrustEvaluation(
            source: "apple", label: "test",
            stores: [
                StoreOutcome(
                    store: "Apple iOS 26.0", iOS: "26.0", trusted: false,
                    verifyError: "unable to get local issuer certificate", verifyErrorCode: code, anchor: .none,
                    path: [leaf.sha256])
            ], issuerFetches: fetches)
        return profile
    }

    static func record(_ status: IssuerFetch.Status, _ reason: String?) -> IssuerFetch {
        IssuerFetch(certificate: "CN=api.example.com", url: url, status: status, reason: reason)
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var fetches: [IssuerFetch]
        var code = 20
        var verdict: ATSEvaluation.Verdict
        var untrusted: Bool
    }

    static let cases: [Case] = [
        Case(
            description: "fetching off: ambiguous", fetches: [record(.disabled, "fetching is off (--no-fetch)")],
            verdict: .ambiguous, untrusted: false),
        Case(
            description: "the fetch failed: ambiguous",
            fetches: [record(.failed, "\(url): no answer before the deadline")], verdict: .ambiguous, untrusted: false),
        Case(
            description: "an https:// URL trustd skips: untrusted, as on the device",
            fetches: [record(.skipped, "trustd fetches caIssuers URLs over http:// only")], verdict: .fail,
            untrusted: true),
        Case(
            description: "a failed fetch, but the chain fails for another reason (self-signed): untrusted",
            fetches: [record(.failed, "refused")], code: 18, verdict: .fail, untrusted: true),
        Case(description: "no caIssuers URL at all: untrusted", fetches: [], verdict: .fail, untrusted: true),
    ]

    @Test("the verdict of a chain that stops at a missing issuer", arguments: cases)
    func verdicts(_ c: Case) {
        let evaluation = Fixture.evaluate(Self.incomplete(c.fetches, code: c.code))
        #expect(evaluation.verdict == c.verdict)
        #expect(evaluation.violations.contains { $0.rule == .Trust.untrusted } == c.untrusted)
        if c.verdict == .ambiguous {
            let reason = evaluation.notes.first { $0.contains(Self.url) }
            #expect(reason?.contains("iOS fetches it from \(Self.url)") == true, "\(evaluation.notes)")
            #expect(reason?.contains(c.fetches[0].reason ?? "?") == true)
        }
    }

    @Test("another failing rule still fails the endpoint: an ambiguity never hides a violation")
    func violationWins() {
        let evaluation = Fixture.evaluate(
            Self.incomplete([Self.record(.disabled, "off")], leaf: Fixture.cert(sans: ["other.example.com"])))
        #expect(evaluation.verdict == .fail)
        #expect(evaluation.violations.map(\.rule).contains(.Trust.hostname))
    }

    @Test("a path completed by a fetch passes, with a note naming the URL")
    func completed() {
        var leaf = Fixture.cert()
        leaf.sha256 = "1eaf"
        var intermediate = Fixture.intermediate
        intermediate.sha256 = "1417"
        var root = Fixture.root
        root.sha256 = "2007"
        var profile = Fixture.profile(Fixture.modern, leaf: leaf, intermediates: [])
        profile.certificate?.verifiedChain = [leaf, intermediate, root]
        let path = [leaf, intermediate, root].map(\.sha256)
        profile.certificate?.trust = TrustEvaluation(
            source: "apple", label: "test",
            stores: [StoreOutcome(store: "Apple iOS 26.0", iOS: "26.0", trusted: true, anchor: .system, path: path)],
            issuerFetches: [
                IssuerFetch(
                    certificate: "CN=api.example.com", url: Self.url, status: .fetched,
                    certificates: [intermediate.sha256])
            ])
        let evaluation = Fixture.evaluate(profile)
        #expect(evaluation.verdict == .pass, "\(evaluation.violations)")
        #expect(evaluation.notes.contains { $0.contains("fetched from \(Self.url)") })
        // A fetched certificate that is not on the judged path adds no note.
        profile.certificate?.trust?.issuerFetches?[0].certificates = ["0ther"]
        #expect(!Fixture.evaluate(profile).notes.contains { $0.contains("fetched from") })
    }
}
