import Foundation
import Pinning
import TLSModel
import Testing

/// One row of docs/pinning-rules.md §1.3 (AF 3.x/4.x, domain non-nil). nil is the table's "—" / "any" / "ignored":
/// the value is not consulted, so the test runs every value and expects the same verdict.
struct AFRow: Sendable, CustomTestStringConvertible {
    let number: Int
    let mode: AFSecurityPolicyOptions.Mode
    let allowInvalid: Bool
    let validatesDomain: Bool?
    /// P: pinned certificates non-empty.
    let pins: Bool?
    /// SV: the system evaluation under the step-2 policy passes.
    let sv: Bool?
    /// AV (Certificate mode) or K (PublicKey mode).
    let avOrK: Bool?
    let verdict: PinVerdict
    let note: String

    var testDescription: String { "AF §1.3 row \(number): \(note) → \(verdict.rawValue.uppercased())" }
}

let afTable: [AFRow] = [
    AFRow(
        number: 1, mode: .none, allowInvalid: false, validatesDomain: true, pins: nil, sv: true, avOrK: nil,
        verdict: .accept, note: "None, system trust plus hostname"),
    AFRow(
        number: 2, mode: .none, allowInvalid: false, validatesDomain: true, pins: nil, sv: false, avOrK: nil,
        verdict: .reject, note: "None, system trust fails"),
    AFRow(
        number: 3, mode: .none, allowInvalid: false, validatesDomain: false, pins: nil, sv: true, avOrK: nil,
        verdict: .accept, note: "None, BasicX509 passes, no hostname check"),
    AFRow(
        number: 4, mode: .none, allowInvalid: false, validatesDomain: false, pins: nil, sv: false, avOrK: nil,
        verdict: .reject, note: "None, BasicX509 fails"),
    AFRow(
        number: 5, mode: .none, allowInvalid: true, validatesDomain: true, pins: nil, sv: nil, avOrK: nil,
        verdict: .reject, note: "None, self-signed guard"),
    AFRow(
        number: 6, mode: .none, allowInvalid: true, validatesDomain: false, pins: nil, sv: nil, avOrK: nil,
        verdict: .accept, note: "None, no validation at all"),
    AFRow(
        number: 7, mode: .certificate, allowInvalid: false, validatesDomain: true, pins: false, sv: nil, avOrK: nil,
        verdict: .reject, note: "Certificate, no anchors"),
    AFRow(
        number: 8, mode: .certificate, allowInvalid: false, validatesDomain: true, pins: true, sv: false, avOrK: nil,
        verdict: .reject, note: "Certificate, system trust fails"),
    AFRow(
        number: 9, mode: .certificate, allowInvalid: false, validatesDomain: true, pins: true, sv: true, avOrK: true,
        verdict: .accept, note: "Certificate, path reaches a pinned cert"),
    AFRow(
        number: 10, mode: .certificate, allowInvalid: false, validatesDomain: true, pins: true, sv: true, avOrK: false,
        verdict: .reject, note: "Certificate, pinned cert not on any path"),
    AFRow(
        number: 11, mode: .certificate, allowInvalid: false, validatesDomain: false, pins: true, sv: true, avOrK: true,
        verdict: .accept, note: "Certificate, BasicX509, any hostname"),
    AFRow(
        number: 12, mode: .certificate, allowInvalid: true, validatesDomain: true, pins: false, sv: nil, avOrK: nil,
        verdict: .reject, note: "Certificate, self-signed guard"),
    AFRow(
        number: 13, mode: .certificate, allowInvalid: true, validatesDomain: true, pins: true, sv: nil, avOrK: true,
        verdict: .accept, note: "Certificate, anchored SSL+host passes"),
    AFRow(
        number: 14, mode: .certificate, allowInvalid: true, validatesDomain: true, pins: true, sv: nil, avOrK: false,
        verdict: .reject, note: "Certificate, anchored SSL+host fails"),
    AFRow(
        number: 15, mode: .certificate, allowInvalid: true, validatesDomain: false, pins: true, sv: nil, avOrK: true,
        verdict: .accept, note: "Certificate, the seed's DEBUG configuration"),
    AFRow(
        number: 16, mode: .certificate, allowInvalid: true, validatesDomain: false, pins: true, sv: nil, avOrK: false,
        verdict: .reject, note: "Certificate, anchored BasicX509 fails"),
    AFRow(
        number: 17, mode: .certificate, allowInvalid: true, validatesDomain: false, pins: false, sv: nil, avOrK: false,
        verdict: .reject, note: "Certificate, guard not triggered but no anchors"),
    AFRow(
        number: 18, mode: .publicKey, allowInvalid: false, validatesDomain: true, pins: false, sv: true, avOrK: nil,
        verdict: .reject, note: "PublicKey, no keys"),
    AFRow(
        number: 19, mode: .publicKey, allowInvalid: false, validatesDomain: nil, pins: true, sv: false, avOrK: nil,
        verdict: .reject, note: "PublicKey, system trust fails"),
    AFRow(
        number: 20, mode: .publicKey, allowInvalid: false, validatesDomain: true, pins: true, sv: true, avOrK: true,
        verdict: .accept, note: "PublicKey, key in path"),
    AFRow(
        number: 21, mode: .publicKey, allowInvalid: false, validatesDomain: true, pins: true, sv: true, avOrK: false,
        verdict: .reject, note: "PublicKey, key not in path"),
    AFRow(
        number: 22, mode: .publicKey, allowInvalid: false, validatesDomain: false, pins: true, sv: true, avOrK: true,
        verdict: .accept, note: "PublicKey, BasicX509, any hostname"),
    AFRow(
        number: 23, mode: .publicKey, allowInvalid: true, validatesDomain: true, pins: false, sv: nil, avOrK: nil,
        verdict: .reject, note: "PublicKey, self-signed guard"),
    AFRow(
        number: 24, mode: .publicKey, allowInvalid: true, validatesDomain: nil, pins: true, sv: nil, avOrK: true,
        verdict: .accept, note: "PublicKey, trust ignored, key matches"),
    AFRow(
        number: 25, mode: .publicKey, allowInvalid: true, validatesDomain: nil, pins: true, sv: nil, avOrK: false,
        verdict: .reject, note: "PublicKey, trust ignored, no key"),
]

@Suite("AFSecurityPolicy decision table (docs/pinning-rules.md §1.3)")
struct AFSecurityPolicyTableTests {
    static func values(_ v: Bool?) -> [Bool] { v.map { [$0] } ?? [true, false] }

    /// The fake builder for one combination: system trust answers `sv` only for the step-2 policy, the
    /// pinned-anchor evaluation answers `av` only for it, so a wrong policy changes the verdict.
    static func builder(policy: TrustPolicyChoice, sv: Bool, av: Bool) -> FakeBuilder {
        FakeBuilder(
            system: { asked in
                TrustPathResult(
                    ok: asked == policy && sv, path: PinFixtures.path,
                    error: asked == policy && sv ? nil : "system evaluation fails")
            },
            pinned: { anchors, asked in
                let ok = asked == policy && av && anchors == [PinFixtures.root]
                return TrustPathResult(
                    ok: ok, path: ok ? PinFixtures.path : [PinFixtures.leaf],
                    error: ok ? nil : "unable to get local issuer certificate")
            })
    }

    static func pinned(_ row: AFRow, pins: Bool, avOrK: Bool) -> [CertificateFacts] {
        guard pins else { return [] }
        switch row.mode {
        case .none, .certificate: return [PinFixtures.root]
        case .publicKey: return [avOrK ? PinFixtures.reissuedIntermediate : PinFixtures.otherCA]
        }
    }

    @Test(arguments: afTable)
    func row(_ row: AFRow) {
        var combinations = 0
        for validates in Self.values(row.validatesDomain) {
            for pins in Self.values(row.pins) {
                for sv in Self.values(row.sv) {
                    for avOrK in Self.values(row.avOrK) {
                        combinations += 1
                        let policy: TrustPolicyChoice = validates ? .ssl(host: PinFixtures.host) : .basic
                        let options = AFSecurityPolicyOptions(
                            mode: row.mode, allowInvalidCertificates: row.allowInvalid, validatesDomainName: validates)
                        let e = AFSecurityPolicyEvaluator.evaluate(
                            PinFixtures.connection(), pinnedCertificates: Self.pinned(row, pins: pins, avOrK: avOrK),
                            options: options,
                            builder: Self.builder(policy: policy, sv: sv, av: avOrK))
                        #expect(
                            e.verdict == row.verdict,
                            "row \(row.number) validatesDomain=\(validates) P=\(pins) SV=\(sv) AV/K=\(avOrK): \(e.steps.map { "\($0.name) \($0.status): \($0.detail)" })"
                        )
                        #expect(
                            e.findings.allSatisfy { RuleRegistry.pins.descriptor(for: $0.rule) != nil },
                            "uncatalogued finding")
                        #expect(e.verdict == .accept || e.rules.contains(RuleID.Pins.rejected))
                    }
                }
            }
        }
        #expect(combinations >= 1)
    }

    @Test("rows 13–16: AFNetworking 4 does not run the system evaluation with allowInvalidCertificates")
    func systemGateSkipped() {
        let builder = Self.builder(policy: .basic, sv: false, av: true)
        let e = AFSecurityPolicyEvaluator.evaluate(
            PinFixtures.connection(), pinnedCertificates: [PinFixtures.root],
            options: AFSecurityPolicyOptions(
                mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false), builder: builder)
        #expect(e.step("system trust")?.status == .skipped)
        #expect(builder.calls == [FakeBuilder.Call(pinned: true, policy: .basic)])
        #expect(
            e.matches == [
                PinMatch(
                    pin: PinIdentity.certificate(PinFixtures.root).label, kind: .certificate, position: 2,
                    role: "anchor", subject: "CN=Root CA")
            ])
        #expect(e.check(.hostname) == .skipped && e.check(.dates) == .applied && e.check(.serverAuthEKU) == .skipped)
    }

    @Test("row 13 checks the hostname under the pinned anchors; row 9 runs system trust then the anchored evaluation")
    func policiesUsed() {
        let host = TrustPolicyChoice.ssl(host: PinFixtures.host)
        let b13 = Self.builder(policy: host, sv: false, av: true)
        let e13 = AFSecurityPolicyEvaluator.evaluate(
            PinFixtures.connection(), pinnedCertificates: [PinFixtures.root],
            options: AFSecurityPolicyOptions(mode: .certificate, allowInvalidCertificates: true), builder: b13)
        #expect(e13.verdict == .accept && e13.check(.hostname) == .applied && e13.check(.lifetimeCaps) == .applied)
        let b9 = Self.builder(policy: host, sv: true, av: true)
        _ = AFSecurityPolicyEvaluator.evaluate(
            PinFixtures.connection(), pinnedCertificates: [PinFixtures.root],
            options: AFSecurityPolicyOptions(mode: .certificate), builder: b9)
        #expect(
            b9.calls == [FakeBuilder.Call(pinned: false, policy: host), FakeBuilder.Call(pinned: true, policy: host)])
    }

    @Test("PublicKey mode compares keys, not certificate bytes, and says so")
    func publicKeyComparison() {
        let e = AFSecurityPolicyEvaluator.evaluate(
            PinFixtures.connection(), pinnedCertificates: [PinFixtures.reissuedIntermediate],
            options: AFSecurityPolicyOptions(mode: .publicKey),
            builder: FakeBuilder(systemOK: true, for: .ssl(host: PinFixtures.host)))
        #expect(e.verdict == .accept && e.pinMatched == true)
        #expect(e.matches.map(\.position) == [1] && e.matches.first?.kind == .publicKey)
        #expect(e.step("public-key match")?.detail.contains("SPKI equality") == true)
        // The same certificate in Certificate mode is not byte-identical, so the anchored path cannot end at it.
        let certificateMode = AFSecurityPolicyEvaluator.evaluate(
            PinFixtures.connection(), pinnedCertificates: [PinFixtures.reissuedIntermediate],
            options: AFSecurityPolicyOptions(mode: .certificate),
            builder: FakeBuilder(
                system: { _ in TrustPathResult(ok: true, path: PinFixtures.path) },
                pinned: { _, _ in TrustPathResult(ok: true, path: PinFixtures.path) }))
        #expect(certificateMode.verdict == .reject && certificateMode.result == "no-pin-in-path")
    }

    @Test("§1.4: 2.x/3.x run the system evaluation and ignore it; 2.6.x misses a pinned root the server did not send")
    func versions() {
        let served = PinFixtures.served  // no root
        func builder() -> FakeBuilder {
            FakeBuilder(
                system: { _ in TrustPathResult(ok: false, path: served, error: "unable to get local issuer certificate")
                },
                pinned: { _, _ in TrustPathResult(ok: true, path: PinFixtures.path) })
        }
        var results: [Int: PinEvaluation] = [:]
        for version in [2, 3, 4] {
            results[version] = AFSecurityPolicyEvaluator.evaluate(
                PinFixtures.connection(served), pinnedCertificates: [PinFixtures.root],
                options: AFSecurityPolicyOptions(
                    mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false, afVersion: version),
                builder: builder())
        }
        #expect(results[4]?.verdict == .accept && results[3]?.verdict == .accept)
        #expect(results[2]?.verdict == .reject && results[2]?.result == "no-pin-in-path")
        #expect(
            results[3]?.step("system trust")?.status == .ignored && results[4]?.step("system trust")?.status == .skipped
        )
        #expect(results[4]?.path.last?.sentByServer == false)
    }
}
