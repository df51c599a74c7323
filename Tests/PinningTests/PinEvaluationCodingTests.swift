import Foundation
import Pinning
import TLSModel
import Testing

@Suite("PinEvaluation JSON and the pins.* catalogue")
struct PinEvaluationCodingTests {
    static let p = PinFixtures.self

    @Test("could-not-tell fields are explicit nulls; the value round-trips")
    func coding() throws {
        let e = AFSecurityPolicyEvaluator.evaluate(
            Self.p.connection(), pinnedCertificates: [], options: AFSecurityPolicyOptions(mode: .none),
            builder: FakeBuilder(systemOK: true, for: .ssl(host: Self.p.host)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(e)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""pinMatched":null"#) && text.contains(#""noMatchReason":"no pin comparison ran""#))
        #expect(text.contains(#""library":"afnetworking""#) && text.contains(#""verdict":"accept""#))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(PinEvaluation.self, from: data) == e)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "library", "host", "options", "verdict", "result", "steps", "path", "matches", "pinMatched",
                "noMatchReason",
                "trustChecks", "findings", "limitations",
            ])
    }

    @Test("every pins.* rule but the loader's is emitted by some evaluation")
    func emitted() throws {
        var seen = Set<RuleID>()
        let ok = FakeBuilder(systemOK: true, for: .ssl(host: Self.p.host))
        let spare = PinFixtures.spki("spare")
        seen.formUnion(
            AFSecurityPolicyEvaluator.evaluate(
                Self.p.connection(), pinnedCertificates: [Self.p.otherCA],
                options: AFSecurityPolicyOptions(mode: .publicKey), builder: ok
            ).rules)
        for options in [
            AFSecurityPolicyOptions(mode: .none, allowInvalidCertificates: true, validatesDomainName: false),
            AFSecurityPolicyOptions(mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false),
        ] {
            let builder = FakeBuilder(
                system: { _ in TrustPathResult(ok: false, path: PinFixtures.path, error: "x") },
                pinned: { _, _ in TrustPathResult(ok: true, path: PinFixtures.path) })
            let c = try #require(
                DebugReleaseComparison.compare(
                    Self.p.connection(), pinnedCertificates: [Self.p.root], options: options, builder: builder))
            seen.formUnion(c.risks.map(\.rule))
            seen.formUnion(c.debug.rules)
            seen.formUnion(c.release.rules)
        }
        let trustKit: [PinSet] = [
            PinSet(domains: [Self.p.host: DomainPins(pins: [Self.p.otherCA.spkiSHA256, spare], enforce: false)]),
            PinSet(domains: [
                Self.p.host: DomainPins(pins: [Self.p.root.spkiSHA256, spare], expirationDate: "2020-01-01")
            ]),
        ]
        for set in trustKit {
            seen.formUnion(TrustKitEvaluator.evaluate(Self.p.connection(), pinSet: set, builder: ok).rules)
        }
        let ed = FakeBuilder(
            systemOK: true, for: .ssl(host: Self.p.host),
            path: [Self.p.leaf, Self.p.cert("Ed CA", keyType: .ed25519, keyBits: 256)])
        seen.formUnion(
            TrustKitEvaluator.evaluate(
                Self.p.connection(),
                pinSet: PinSet(domains: [Self.p.host: DomainPins(pins: [Self.p.leaf.spkiSHA256, spare])]), builder: ed
            ).rules)
        let soon = Self.p.cert(Self.p.host, notAfter: Self.p.now.addingTimeInterval(Self.p.day))
        seen.formUnion(
            OutageWarnings.check(
                pins: [.spki(soon.spkiSHA256)], path: [soon, Self.p.root], connection: Self.p.connection()
            ).map(\.rule))
        seen.formUnion(
            OutageWarnings.check(
                pins: [.spki(Self.p.root.spkiSHA256), .spki(spare)], path: Self.p.path, connection: Self.p.connection()
            ).map(\.rule))
        seen.formUnion(
            OutageWarnings.check(
                pins: [.spki(Self.p.leaf.spkiSHA256), .spki(Self.p.root.spkiSHA256)], path: Self.p.path,
                connection: Self.p.connection()
            ).map(\.rule))
        for evaluator in [
            AlamofireEvaluator.disabled, .revocation(),
            .pinnedCertificates(performDefaultValidation: false, validateHost: false),
        ] {
            let all = FakeBuilder(system: { _ in TrustPathResult(ok: true, path: PinFixtures.path) })
            seen.formUnion(
                AlamofireTrustEvaluation.evaluate(
                    Self.p.connection(), evaluator: evaluator, pinnedCertificates: [Self.p.root], builder: all
                ).rules)
        }
        seen.formUnion(
            PinnedDomainsEvaluator.evaluate(
                Self.p.connection(), configuration: PinnedDomainsConfiguration(domains: [:]), builder: ok
            ).rules)
        seen.formUnion(
            PinConfigurationParser.trustKit(["TSKPinnedDomains": [Self.p.host: ["TSKPublicKeyHashes": ["abc def"]]]])
                .findings.map(\.rule))
        let placeholder = String(repeating: "A", count: 43) + "="
        seen.formUnion(
            PinConfigurationParser.trustKit(
                ["TSKPinnedDomains": [Self.p.host: ["TSKPublicKeyHashes": [Self.p.leaf.spkiSHA256, placeholder]]]]
            ).findings.map(\.rule))
        let loaderSide: Set<RuleID> = [RuleID.Pins.pemInCer, RuleID.Pins.frameworkBundle]
        let expected = Set(RuleRegistry.pins.entries.map(\.id)).subtracting(loaderSide)
        #expect(expected.subtracting(seen).isEmpty, "never emitted: \(expected.subtracting(seen).sorted())")
        #expect(seen.allSatisfy { RuleRegistry.pins.descriptor(for: $0)?.family == .pins })
    }
}
