import Foundation
import Pinning
import TLSModel
import Testing

/// An NSPinnedDomains case (docs/pinning-rules.md §5, docs/apple-rules.md §3.3).
struct PinnedDomainsCase: Sendable, CustomTestStringConvertible {
    let label: String
    var host = PinFixtures.host
    let domains: [String: PinnedDomainEntry]
    var chainOK = true
    var path: [CertificateFacts] = PinFixtures.path
    let result: String
    let verdict: PinVerdict
    var testDescription: String { "NSPinnedDomains \(label) → \(verdict.rawValue.uppercased())" }
}

private let p = PinFixtures.self
private let backup = PinFixtures.spki("spare key")

let pinnedDomainsCases: [PinnedDomainsCase] = [
    PinnedDomainsCase(
        label: "leaf identity matches position 0",
        domains: [p.host: PinnedDomainEntry(leafIdentities: [p.leaf.spkiSHA256, backup])], result: "pins-matched",
        verdict: .accept),
    PinnedDomainsCase(
        label: "leaf identity holding the intermediate's key: leaf position only",
        domains: [p.host: PinnedDomainEntry(leafIdentities: [p.intermediate.spkiSHA256])], result: "pin-mismatch",
        verdict: .reject),
    PinnedDomainsCase(
        label: "CA identity matches the store root the server did not send",
        domains: [p.host: PinnedDomainEntry(caIdentities: [p.root.spkiSHA256])], result: "pins-matched",
        verdict: .accept),
    PinnedDomainsCase(
        label: "CA identity matches the intermediate",
        domains: [p.host: PinnedDomainEntry(caIdentities: [p.intermediate.spkiSHA256])], result: "pins-matched",
        verdict: .accept),
    PinnedDomainsCase(
        label: "CA identity holding the leaf's key: positions 1…n-1 only",
        domains: [p.host: PinnedDomainEntry(caIdentities: [p.leaf.spkiSHA256])], result: "pin-mismatch",
        verdict: .reject),
    PinnedDomainsCase(
        label: "CA identity with a one-certificate path always fails",
        domains: [p.host: PinnedDomainEntry(caIdentities: [p.selfSignedLeaf.spkiSHA256])], path: [p.selfSignedLeaf],
        result: "pin-mismatch", verdict: .reject),
    PinnedDomainsCase(
        label: "both keys: leaf matches, CA does not (AND)",
        domains: [p.host: PinnedDomainEntry(leafIdentities: [p.leaf.spkiSHA256], caIdentities: [p.otherCA.spkiSHA256])],
        result: "pin-mismatch", verdict: .reject),
    PinnedDomainsCase(
        label: "both keys match",
        domains: [p.host: PinnedDomainEntry(leafIdentities: [p.leaf.spkiSHA256], caIdentities: [p.root.spkiSHA256])],
        result: "pins-matched", verdict: .accept),
    PinnedDomainsCase(
        label: "present but empty identity array fails every connection",
        domains: [p.host: PinnedDomainEntry(caIdentities: [])], result: "pin-mismatch", verdict: .reject),
    PinnedDomainsCase(
        label: "pins only tighten: default trust must pass",
        domains: [p.host: PinnedDomainEntry(caIdentities: [p.root.spkiSHA256])], chainOK: false,
        result: "default-trust-failed", verdict: .reject),
    PinnedDomainsCase(
        label: "includeSubdomains covers one extra label", host: "a.example.com",
        domains: ["example.com": PinnedDomainEntry(includesSubdomains: true, caIdentities: [p.otherCA.spkiSHA256])],
        result: "pin-mismatch", verdict: .reject),
    PinnedDomainsCase(
        label: "includeSubdomains does not cover two extra labels", host: "b.a.example.com",
        domains: ["example.com": PinnedDomainEntry(includesSubdomains: true, caIdentities: [p.otherCA.spkiSHA256])],
        result: "not-pinned", verdict: .accept),
    PinnedDomainsCase(
        label: "a parent without includeSubdomains does not apply", host: "a.example.com",
        domains: ["example.com": PinnedDomainEntry(caIdentities: [p.otherCA.spkiSHA256])], result: "not-pinned",
        verdict: .accept),
    PinnedDomainsCase(
        label: "case-insensitive, one trailing dot removed", host: "API.Example.com.",
        domains: [p.host: PinnedDomainEntry(caIdentities: [p.otherCA.spkiSHA256])], result: "pin-mismatch",
        verdict: .reject),
    PinnedDomainsCase(
        label: "exact and including parent merge: the parent's CA list adds a check",
        domains: [
            p.host: PinnedDomainEntry(leafIdentities: [p.leaf.spkiSHA256]),
            "example.com": PinnedDomainEntry(includesSubdomains: true, caIdentities: [p.otherCA.spkiSHA256]),
        ], result: "pin-mismatch", verdict: .reject),
]

@Suite("NSPinnedDomains (docs/pinning-rules.md §5)")
struct PinnedDomainsEvaluatorTests {
    @Test(arguments: pinnedDomainsCases)
    func decide(_ c: PinnedDomainsCase) {
        let builder = FakeBuilder(systemOK: c.chainOK, for: .ssl(host: c.host), path: c.path)
        let e = PinnedDomainsEvaluator.evaluate(
            PinFixtures.connection(host: c.host), configuration: PinnedDomainsConfiguration(domains: c.domains),
            builder: builder)
        #expect(e.result == c.result, "\(e.steps.map { "\($0.name) \($0.status): \($0.detail)" })")
        #expect(e.verdict == c.verdict)
        #expect(
            builder.calls == [FakeBuilder.Call(pinned: false, policy: .ssl(host: c.host))],
            "default trust with SSL(host), system anchors")
        #expect(e.findings.allSatisfy { RuleRegistry.pins.descriptor(for: $0.rule) != nil })
    }

    @Test("matches report the position and role of each category")
    func positions() {
        let e = PinnedDomainsEvaluator.evaluate(
            p.connection(),
            configuration: PinnedDomainsConfiguration(domains: [
                p.host: PinnedDomainEntry(
                    leafIdentities: [p.leaf.spkiSHA256], caIdentities: [p.intermediate.spkiSHA256, p.root.spkiSHA256])
            ]),
            builder: FakeBuilder(systemOK: true, for: .ssl(host: p.host)))
        #expect(e.matches.map(\.position) == [0, 1, 2] && e.matches.map(\.role) == ["leaf", "intermediate", "anchor"])
        #expect(e.pinMatched == true && e.noMatchReason == nil)
        #expect(e.step("leaf identities")?.status == .passed && e.step("CA identities")?.status == .passed)
    }

    @Test("the lookup merges identities from the exact entry and the including parent")
    func merge() throws {
        let configuration = PinnedDomainsConfiguration(domains: [
            p.host: PinnedDomainEntry(caIdentities: ["A"]),
            "example.com": PinnedDomainEntry(includesSubdomains: true, caIdentities: ["B"]),
        ])
        let applicable = try #require(PinnedDomainsEvaluator.applicable(host: p.host, in: configuration))
        #expect(
            applicable.domains == [p.host, "example.com"].sorted() && applicable.ca == ["A", "B"]
                && applicable.leaf == nil)
        #expect(PinnedDomainsEvaluator.applicable(host: "example.org", in: configuration) == nil)
    }
}
