import Foundation
import Pinning
import TLSModel
import Testing

/// An Alamofire case (docs/pinning-rules.md §4): an evaluator, pins, the builder's answers and the expected result.
struct AlamofireCase: Sendable, CustomTestStringConvertible {
    let label: String
    let evaluator: AlamofireEvaluator
    var pins: [CertificateFacts] = []
    /// System anchors: which policies verify (`nil` host = default validation).
    var systemOK: Set<TrustPolicyChoice> = [.ssl(host: nil), .ssl(host: PinFixtures.host)]
    /// Pinned anchors: which policies verify.
    var pinnedOK: Set<TrustPolicyChoice> = []
    var path: [CertificateFacts] = PinFixtures.path
    let result: String
    var calls: [FakeBuilder.Call]? = nil
    var testDescription: String { "Alamofire §4 \(label) → \(result)" }
}

private let p = PinFixtures.self
private let hostPolicy = TrustPolicyChoice.ssl(host: PinFixtures.host)
private let defaultPolicy = TrustPolicyChoice.ssl(host: nil)
private func sys(_ policy: TrustPolicyChoice) -> FakeBuilder.Call { FakeBuilder.Call(pinned: false, policy: policy) }
private func pin(_ policy: TrustPolicyChoice) -> FakeBuilder.Call { FakeBuilder.Call(pinned: true, policy: policy) }

let alamofireCases: [AlamofireCase] = [
    AlamofireCase(
        label: "DefaultTrustEvaluator: host validation, then default validation", evaluator: .defaultTrust(),
        result: "useCredential", calls: [sys(hostPolicy), sys(defaultPolicy)]),
    AlamofireCase(
        label: "DefaultTrustEvaluator: wrong host", evaluator: .defaultTrust(), systemOK: [defaultPolicy],
        result: ".hostValidationFailed"),
    AlamofireCase(
        label: "DefaultTrustEvaluator(validateHost: false): wrong host passes",
        evaluator: .defaultTrust(validateHost: false), systemOK: [defaultPolicy], result: "useCredential",
        calls: [sys(defaultPolicy)]),
    AlamofireCase(
        label: "DefaultTrustEvaluator: untrusted chain", evaluator: .defaultTrust(validateHost: false), systemOK: [],
        result: ".defaultEvaluationFailed"),
    AlamofireCase(
        label: "RevocationTrustEvaluator: default, then host, then revocation (not checked)", evaluator: .revocation(),
        result: "useCredential", calls: [sys(defaultPolicy), sys(hostPolicy)]),
    AlamofireCase(
        label: "RevocationTrustEvaluator: wrong host", evaluator: .revocation(), systemOK: [defaultPolicy],
        result: ".hostValidationFailed"),
    AlamofireCase(
        label: "PinnedCertificates: no certificates", evaluator: .pinnedCertificates(), result: ".noCertificatesFound",
        calls: []),
    AlamofireCase(
        label: "PinnedCertificates defaults: a store root the server did not send counts",
        evaluator: .pinnedCertificates(), pins: [p.root], result: "useCredential",
        calls: [sys(defaultPolicy), sys(hostPolicy)]),
    AlamofireCase(
        label: "PinnedCertificates defaults: renewed leaf not byte-identical", evaluator: .pinnedCertificates(),
        pins: [p.cert(p.host, key: "old leaf key", issuer: "Issuing CA")], result: ".certificatePinningFailed"),
    AlamofireCase(
        label: "PinnedCertificates defaults: self-signed staging fails default validation",
        evaluator: .pinnedCertificates(), pins: [p.selfSignedLeaf], systemOK: [], path: [p.selfSignedLeaf],
        result: ".defaultEvaluationFailed"),
    AlamofireCase(
        label: "PinnedCertificates acceptSelfSigned: pins are the only anchors",
        evaluator: .pinnedCertificates(acceptSelfSignedCertificates: true), pins: [p.selfSignedLeaf], systemOK: [],
        pinnedOK: [defaultPolicy, .ssl(host: "staging.example.com")], path: [p.selfSignedLeaf], result: "useCredential",
        calls: [pin(defaultPolicy), pin(.ssl(host: "staging.example.com"))]),
    AlamofireCase(
        label: "PinnedCertificates acceptSelfSigned: wrong host still fails",
        evaluator: .pinnedCertificates(acceptSelfSignedCertificates: true), pins: [p.selfSignedLeaf], systemOK: [],
        pinnedOK: [defaultPolicy], path: [p.selfSignedLeaf], result: ".hostValidationFailed"),
    AlamofireCase(
        label: "PinnedCertificates with both validations off: only the byte match",
        evaluator: .pinnedCertificates(performDefaultValidation: false, validateHost: false), pins: [p.selfSignedLeaf],
        systemOK: [], path: [p.selfSignedLeaf], result: "useCredential"),
    AlamofireCase(
        label: "PinnedCertificates validateHost only: wrong host fails even without default validation",
        evaluator: .pinnedCertificates(performDefaultValidation: false), pins: [p.root], systemOK: [defaultPolicy],
        result: ".hostValidationFailed", calls: [sys(hostPolicy)]),
    AlamofireCase(label: "PublicKeys: no keys", evaluator: .publicKeys(), result: ".noPublicKeysFound"),
    AlamofireCase(
        label: "PublicKeys: reissued intermediate with the same key matches", evaluator: .publicKeys(),
        pins: [p.reissuedIntermediate], result: "useCredential"),
    AlamofireCase(
        label: "PublicKeys: no key in the chain", evaluator: .publicKeys(), pins: [p.otherCA],
        result: ".publicKeyPinningFailed"),
    AlamofireCase(
        label: "PublicKeys: self-signed only with both validations off", evaluator: .publicKeys(),
        pins: [p.selfSignedLeaf], systemOK: [], path: [p.selfSignedLeaf], result: ".defaultEvaluationFailed"),
    AlamofireCase(
        label: "PublicKeys with both validations off: self-signed key matches",
        evaluator: .publicKeys(performDefaultValidation: false, validateHost: false), pins: [p.selfSignedLeaf],
        systemOK: [], path: [p.selfSignedLeaf], result: "useCredential"),
    AlamofireCase(
        label: "DisabledTrustEvaluator: everything", evaluator: .disabled, systemOK: [], result: "useCredential",
        calls: []),
    AlamofireCase(
        label: "Composite: anchors set by PinnedCertificates stay for DefaultTrust",
        evaluator: .composite([.pinnedCertificates(acceptSelfSignedCertificates: true), .defaultTrust()]),
        pins: [p.root], systemOK: [], pinnedOK: [defaultPolicy, hostPolicy], result: "useCredential",
        calls: [pin(defaultPolicy), pin(hostPolicy), pin(hostPolicy), pin(defaultPolicy)]),
    AlamofireCase(
        label: "Composite: the first failure throws", evaluator: .composite([.defaultTrust(), .publicKeys()]),
        pins: [p.otherCA], result: ".publicKeyPinningFailed"),
]

@Suite("Alamofire 5 evaluators (docs/pinning-rules.md §4)")
struct AlamofireEvaluatorTests {
    static func builder(_ c: AlamofireCase) -> FakeBuilder {
        FakeBuilder(
            system: { policy in
                TrustPathResult(
                    ok: c.systemOK.contains(policy), path: c.path, error: c.systemOK.contains(policy) ? nil : "fails")
            },
            pinned: { _, policy in
                TrustPathResult(
                    ok: c.pinnedOK.contains(policy), path: c.path, error: c.pinnedOK.contains(policy) ? nil : "fails")
            })
    }

    @Test(arguments: alamofireCases)
    func decide(_ c: AlamofireCase) {
        let host =
            c.path == [PinFixtures.selfSignedLeaf] && c.label.contains("acceptSelfSigned: pins")
            ? "staging.example.com" : PinFixtures.host
        let builder = Self.builder(c)
        let e = AlamofireTrustEvaluation.evaluate(
            PinFixtures.connection(host: host), evaluator: c.evaluator, pinnedCertificates: c.pins, builder: builder)
        #expect(e.result == c.result, "\(e.steps.map { "\($0.name) \($0.status): \($0.detail)" })")
        #expect(e.verdict == (c.result == "useCredential" ? .accept : .reject))
        if let calls = c.calls {
            #expect(builder.calls == calls)
        }
        #expect(e.findings.allSatisfy { RuleRegistry.pins.descriptor(for: $0.rule) != nil })
    }

    @Test("warnings: validations off, disabled evaluator, unchecked revocation")
    func warnings() {
        func run(_ evaluator: AlamofireEvaluator, pins: [CertificateFacts] = [p.root]) -> PinEvaluation {
            AlamofireTrustEvaluation.evaluate(
                p.connection(), evaluator: evaluator, pinnedCertificates: pins,
                builder: FakeBuilder(systemOK: true, for: hostPolicy))
        }
        #expect(
            run(.pinnedCertificates(performDefaultValidation: false, validateHost: false)).rules.contains(
                RuleID.Pins.alamofireValidationOff))
        #expect(
            !run(.pinnedCertificates(performDefaultValidation: false)).rules.contains(
                RuleID.Pins.alamofireValidationOff))
        #expect(run(.disabled).rules.contains(RuleID.Pins.alamofireDisabled))
        let revocation = AlamofireTrustEvaluation.evaluate(
            p.connection(), evaluator: .revocation(), pinnedCertificates: [],
            builder: Self.builder(AlamofireCase(label: "", evaluator: .revocation(), result: "")))
        #expect(revocation.rules == [RuleID.Pins.revocationUnchecked] && revocation.check(.revocation) == .unchecked)
        #expect(revocation.step("revocation")?.status == .skipped)
    }

    @Test("the pinned-certificates match lists every pinned certificate of the chain with its position")
    func matches() {
        let e = AlamofireTrustEvaluation.evaluate(
            p.connection(), evaluator: .pinnedCertificates(), pinnedCertificates: [p.leaf, p.root, p.otherCA],
            builder: Self.builder(AlamofireCase(label: "", evaluator: .pinnedCertificates(), result: "")))
        #expect(e.matches.map(\.position) == [0, 2] && e.matches.map(\.role) == ["leaf", "anchor"])
        #expect(e.path.map(\.sentByServer) == [true, true, false])
        #expect(
            e.options == [
                PinOption(
                    "evaluator",
                    "PinnedCertificatesTrustEvaluator(acceptSelfSignedCertificates: false, performDefaultValidation: true, validateHost: true)"
                )
            ])
    }
}
