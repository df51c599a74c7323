import Foundation
import Pinning
import TLSModel
import Testing

/// A TrustKit case: a pin set, a host, what default trust says, and the expected result (docs/pinning-rules.md
/// §3.3–3.4).
struct TrustKitCase: Sendable, CustomTestStringConvertible {
    let label: String
    let host: String
    let pinSet: PinSet
    let chainOK: Bool
    var path: [CertificateFacts] = PinFixtures.path
    var options = TrustKitOptions()
    let result: String
    let verdict: PinVerdict
    var testDescription: String { "TrustKit \(label) → \(result), \(verdict.rawValue.uppercased())" }
}

private let p = PinFixtures.self
private let backup = PinFixtures.spki("spare key")
private func set(_ domains: [String: DomainPins]) -> PinSet { PinSet(domains: domains) }
private let rootPins = DomainPins(pins: [p.root.spkiSHA256, backup])
private let wrongPins = DomainPins(pins: [p.otherCA.spkiSHA256, backup])
private let wrongPinsReportOnly = DomainPins(pins: [p.otherCA.spkiSHA256, backup], enforce: false)

let trustKitCases: [TrustKitCase] = [
    // §3.4 rows, enforce YES and NO.
    TrustKitCase(
        label: "§3.4 Success, enforce YES", host: p.host, pinSet: set([p.host: rootPins]), chainOK: true,
        result: "Success", verdict: .accept),
    TrustKitCase(
        label: "§3.4 Success, enforce NO", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.root.spkiSHA256], enforce: false)]), chainOK: true, result: "Success",
        verdict: .accept),
    TrustKitCase(
        label: "§3.4 FailedNoMatchingPin, enforce YES blocks", host: p.host, pinSet: set([p.host: wrongPins]),
        chainOK: true, result: "FailedNoMatchingPin", verdict: .reject),
    TrustKitCase(
        label: "§3.4 FailedNoMatchingPin, enforce NO allows", host: p.host, pinSet: set([p.host: wrongPinsReportOnly]),
        chainOK: true, result: "FailedNoMatchingPin", verdict: .accept),
    TrustKitCase(
        label: "§3.4 FailedInvalidCertificateChain, enforce YES", host: p.host, pinSet: set([p.host: rootPins]),
        chainOK: false, result: "FailedInvalidCertificateChain", verdict: .reject),
    TrustKitCase(
        label: "§3.4 FailedInvalidCertificateChain, enforce NO still blocks", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.root.spkiSHA256], enforce: false)]), chainOK: false,
        result: "FailedInvalidCertificateChain", verdict: .reject),
    TrustKitCase(
        label: "§3.4 ErrorCouldNotGenerateSpkiHash, enforce NO still blocks", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.leaf.spkiSHA256], enforce: false)]), chainOK: true,
        path: [p.leaf, p.intermediate, p.cert("Big Root", keyBits: 8192)], result: "ErrorCouldNotGenerateSpkiHash",
        verdict: .reject),
    TrustKitCase(
        label: "§3.4 ErrorInvalidParameters: no hostname", host: "", pinSet: set([p.host: rootPins]), chainOK: true,
        result: "ErrorInvalidParameters", verdict: .reject),
    // §3.3 step 2–3: lookup.
    TrustKitCase(
        label: "§3.3 includeSubdomains parent at any depth", host: "a.b.example.com",
        pinSet: set(["example.com": DomainPins(pins: [p.root.spkiSHA256, backup], includeSubdomains: true)]),
        chainOK: true, result: "Success", verdict: .accept),
    TrustKitCase(
        label: "§3.3 parent without includeSubdomains: DomainNotPinned, default trust decides", host: "a.example.com",
        pinSet: set(["example.com": wrongPins]), chainOK: true, result: "DomainNotPinned", verdict: .accept),
    TrustKitCase(
        label: "§3.3 the longest including parent wins", host: "x.b.example.com",
        pinSet: set([
            "example.com": DomainPins(pins: [p.root.spkiSHA256, backup], includeSubdomains: true),
            "b.example.com": DomainPins(pins: [p.otherCA.spkiSHA256, backup], includeSubdomains: true),
        ]), chainOK: true, result: "FailedNoMatchingPin", verdict: .reject),
    TrustKitCase(
        label: "§3.3 exact entry beats an including parent", host: p.host,
        pinSet: set(["example.com": wrongPins, p.host: rootPins]), chainOK: true, result: "Success", verdict: .accept),
    TrustKitCase(
        label: "§3.3 excluded subdomain: DomainNotPinned", host: p.host,
        pinSet: set([
            "example.com": DomainPins(pins: [p.otherCA.spkiSHA256, backup], includeSubdomains: true),
            p.host: DomainPins(pins: [], excludeSubdomainFromParentPolicy: true),
        ]), chainOK: true, result: "DomainNotPinned", verdict: .accept),
    TrustKitCase(
        label: "§3.3 expired policy: DomainNotPinned even with wrong pins", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.otherCA.spkiSHA256, backup], expirationDate: "2026-12-31")]),
        chainOK: true, result: "DomainNotPinned", verdict: .accept),
    TrustKitCase(
        label: "§3.3 expired policy and untrusted chain: default handling rejects", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.root.spkiSHA256, backup], expirationDate: "2020-01-01")]),
        chainOK: false, result: "DomainNotPinned", verdict: .reject),
    TrustKitCase(
        label: "§3.3 expiration date in the future: still pinned", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.otherCA.spkiSHA256, backup], expirationDate: "2027-06-30")]),
        chainOK: true, result: "FailedNoMatchingPin", verdict: .reject),
    // §3.5: key types.
    TrustKitCase(
        label: "§3.5 Ed25519 leaf below the matching root is never hashed", host: p.host,
        pinSet: set([p.host: rootPins]), chainOK: true,
        path: [p.cert(p.host, keyType: .ed25519, keyBits: 256), p.intermediate, p.root], result: "Success",
        verdict: .accept),
    TrustKitCase(
        label: "§3.5 P-521 intermediate above the matching leaf fails closed", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.leaf.spkiSHA256, backup])]), chainOK: true,
        path: [p.leaf, p.cert("P-521 CA", keyType: .ec, keyBits: 521, curve: "secp521r1"), p.root],
        result: "ErrorCouldNotGenerateSpkiHash", verdict: .reject),
    TrustKitCase(
        label: "§3.5 RSA-3072 before 3.0.5 fails closed", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.leaf.spkiSHA256, backup])]), chainOK: true,
        path: [p.leaf, p.intermediate, p.cert("RSA3072 Root", keyBits: 3072)],
        options: TrustKitOptions(rsa3072Supported: false), result: "ErrorCouldNotGenerateSpkiHash", verdict: .reject),
    TrustKitCase(
        label: "§3.5 RSA-3072 from 3.0.5 is hashed", host: p.host,
        pinSet: set([p.host: DomainPins(pins: [p.leaf.spkiSHA256, backup])]), chainOK: true,
        path: [p.leaf, p.intermediate, p.cert("RSA3072 Root", keyBits: 3072)], result: "Success", verdict: .accept),
]

@Suite("TrustKit (docs/pinning-rules.md §3.3–3.5)")
struct TrustKitEvaluatorTests {
    @Test(arguments: trustKitCases)
    func decide(_ c: TrustKitCase) {
        let builder = FakeBuilder(systemOK: c.chainOK, for: .ssl(host: c.host), path: c.path)
        let e = TrustKitEvaluator.evaluate(
            PinFixtures.connection(host: c.host), pinSet: c.pinSet, options: c.options, builder: builder)
        #expect(e.result == c.result, "\(e.steps.map { "\($0.name) \($0.status): \($0.detail)" })")
        #expect(e.verdict == c.verdict)
        #expect(e.findings.allSatisfy { RuleRegistry.pins.descriptor(for: $0.rule) != nil })
        if !c.host.isEmpty {
            #expect(
                builder.calls.allSatisfy { !$0.pinned && $0.policy == .ssl(host: c.host) },
                "TrustKit forces SSL(host) with system anchors")
        }
    }

    @Test("the walk runs root → leaf and stops at the first pinned key")
    func walkOrder() {
        let pins = DomainPins(pins: [p.leaf.spkiSHA256, p.intermediate.spkiSHA256])
        let e = TrustKitEvaluator.evaluate(
            p.connection(), pinSet: set([p.host: pins]), builder: FakeBuilder(systemOK: true, for: .ssl(host: p.host)))
        #expect(
            e.matches == [
                PinMatch(
                    pin: p.intermediate.spkiSHA256, kind: .spkiSHA256, position: 1, role: "intermediate",
                    subject: "CN=Issuing CA")
            ])
        #expect(e.check(.hostname) == .applied && e.check(.serverAuthEKU) == .applied)
    }

    @Test("enforce = NO: accepted, but the report says the pin failed")
    func notEnforced() {
        let e = TrustKitEvaluator.evaluate(
            p.connection(), pinSet: set([p.host: wrongPinsReportOnly]),
            builder: FakeBuilder(systemOK: true, for: .ssl(host: p.host)))
        #expect(e.verdict == .accept && e.pinMatched == false && e.noMatchReason != nil)
        #expect(e.rules.contains(RuleID.Pins.notEnforced) && !e.rules.contains(RuleID.Pins.rejected))
        #expect(e.step("decision")?.detail.contains("enforcePinning = NO") == true)
    }

    @Test("an expired policy warns that pinning is off; an unsupported key is an error finding")
    func findings() {
        let expired = TrustKitEvaluator.evaluate(
            p.connection(),
            pinSet: set([p.host: DomainPins(pins: [p.root.spkiSHA256, backup], expirationDate: "2026-01-01")]),
            builder: FakeBuilder(systemOK: true, for: .ssl(host: p.host)))
        #expect(
            expired.rules == [RuleID.Pins.trustKitExpired, RuleID.Pins.domainNotPinned] && expired.pinMatched == nil)
        let ed = p.cert("Ed Root", keyType: .ed25519, keyBits: 256)
        let unsupported = TrustKitEvaluator.evaluate(
            p.connection(), pinSet: set([p.host: DomainPins(pins: [p.leaf.spkiSHA256, backup])]),
            builder: FakeBuilder(systemOK: true, for: .ssl(host: p.host), path: [p.leaf, p.intermediate, ed]))
        #expect(unsupported.rules.contains(RuleID.Pins.trustKitUnsupportedKey))
        #expect(unsupported.noMatchReason?.contains("Ed25519") == true)
    }

    @Test("lookup: case-insensitive host, exclusion and expiry are DomainNotPinned")
    func lookup() {
        let pinSet = set([
            "Example.com": DomainPins(pins: ["a", "b"], includeSubdomains: true),
            "skip.example.com": DomainPins(pins: [], excludeSubdomainFromParentPolicy: true),
        ])
        guard
            case .pinned(let domain, _, true) = TrustKitPolicyLookup.lookup(
                host: "API.example.com", in: pinSet, now: p.now)
        else {
            Issue.record("expected the parent's policy")
            return
        }
        #expect(domain == "Example.com")
        guard
            case .notPinned(let reason, nil) = TrustKitPolicyLookup.lookup(
                host: "skip.example.com", in: pinSet, now: p.now)
        else {
            Issue.record("expected excluded")
            return
        }
        #expect(reason.contains("excluded"))
        guard case .notPinned(_, nil) = TrustKitPolicyLookup.lookup(host: "example.org", in: pinSet, now: p.now) else {
            Issue.record("expected not pinned")
            return
        }
    }
}
