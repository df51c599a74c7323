import Foundation
import Pinning
import TLSModel
import Testing

@Suite("Outage warnings (issue 9)")
struct OutageWarningsTests {
    static let p = PinFixtures.self
    static let spare = PinIdentity.spki(PinFixtures.spki("spare key"))

    static func rules(
        _ pins: [PinIdentity], path: [CertificateFacts] = PinFixtures.path,
        served: [CertificateFacts] = PinFixtures.served, warnDays: Int = 30
    ) -> [RuleID] {
        OutageWarnings.check(
            pins: pins, path: path,
            connection: PinConnection(host: p.host, served: served, now: p.now, warnDays: warnDays)
        ).map(\.rule)
    }

    @Test("a single pin has no backup")
    func noBackup() {
        #expect(Self.rules([.spki(Self.p.intermediate.spkiSHA256)]) == [RuleID.Pins.backupMissing])
        #expect(
            Self.rules([.spki(Self.p.intermediate.spkiSHA256), .spki(Self.p.intermediate.spkiSHA256)]) == [
                RuleID.Pins.backupMissing
            ], "duplicates are one pin")
        #expect(Self.rules([.spki(Self.p.intermediate.spkiSHA256), Self.spare]).isEmpty)
    }

    @Test("every pin on the current path: the backup is not one; no pin on it: an outage")
    func onChainOrNone() {
        #expect(
            Self.rules([.spki(Self.p.intermediate.spkiSHA256), .spki(Self.p.root.spkiSHA256)]) == [
                RuleID.Pins.backupOnChain
            ])
        #expect(Self.rules([.spki(Self.p.otherCA.spkiSHA256), Self.spare]) == [RuleID.Pins.noneMatch])
        #expect(
            Self.rules([.certificate(Self.p.reissuedIntermediate), .certificate(Self.p.otherCA)]) == [
                RuleID.Pins.noneMatch
            ], "certificate pins compare bytes")
        #expect(
            Self.rules([.publicKey(of: Self.p.reissuedIntermediate), .certificate(Self.p.otherCA)]).isEmpty,
            "key pins compare keys")
    }

    @Test("the only matching pin is a leaf that expires within warnDays")
    func leafExpiring() {
        let soon = Self.p.cert(
            Self.p.host, issuer: "Issuing CA", notAfter: Self.p.now.addingTimeInterval(10 * Self.p.day))
        let later = Self.p.cert(
            Self.p.host, issuer: "Issuing CA", notAfter: Self.p.now.addingTimeInterval(60 * Self.p.day))
        let pins = [PinIdentity.spki(soon.spkiSHA256), Self.spare]
        #expect(Self.rules(pins, path: [soon, Self.p.intermediate, Self.p.root]) == [RuleID.Pins.leafExpiring])
        #expect(Self.rules(pins, path: [later, Self.p.intermediate, Self.p.root]).isEmpty)
        #expect(
            Self.rules(pins, path: [later, Self.p.intermediate, Self.p.root], warnDays: 90) == [
                RuleID.Pins.leafExpiring
            ])
        // A CA pin that also matches means the leaf is not the only match.
        #expect(
            Self.rules(
                [.spki(soon.spkiSHA256), .spki(Self.p.root.spkiSHA256), Self.spare],
                path: [soon, Self.p.intermediate, Self.p.root]
            ).isEmpty)
        let message = OutageWarnings.check(
            pins: [.certificate(soon), Self.spare], path: [soon, Self.p.intermediate, Self.p.root],
            connection: PinConnection(host: Self.p.host, served: [soon], now: Self.p.now)
        ).first?.message
        #expect(message?.contains("a certificate pin breaks when it is renewed") == true)
    }

    @Test("a match only at a store root the server did not send is a note")
    func rootOnly() {
        let pins = [PinIdentity.spki(Self.p.root.spkiSHA256), Self.spare]
        #expect(Self.rules(pins) == [RuleID.Pins.rootOnly])
        #expect(Self.rules(pins, served: Self.p.path).isEmpty, "the server sent the root")
        #expect(RuleRegistry.pins.descriptor(for: RuleID.Pins.rootOnly)?.severity == .note)
    }
}

@Suite("Outage warnings inside evaluations")
struct OutageInEvaluationTests {
    static let p = PinFixtures.self

    @Test(
        "a store root pin gets the root-only note in PublicKey mode, not in Certificate mode where the pin is the anchor"
    )
    func rootOnlyByMode() {
        let builder = FakeBuilder(
            system: { _ in TrustPathResult(ok: true, path: PinFixtures.path) },
            pinned: { _, _ in TrustPathResult(ok: true, path: PinFixtures.path) })
        let pins = [Self.p.root, Self.p.otherCA]
        let certificate = AFSecurityPolicyEvaluator.evaluate(
            Self.p.connection(), pinnedCertificates: pins, options: AFSecurityPolicyOptions(mode: .certificate),
            builder: builder)
        let publicKey = AFSecurityPolicyEvaluator.evaluate(
            Self.p.connection(), pinnedCertificates: pins, options: AFSecurityPolicyOptions(mode: .publicKey),
            builder: builder)
        #expect(certificate.verdict == .accept && !certificate.rules.contains(RuleID.Pins.rootOnly))
        #expect(publicKey.verdict == .accept && publicKey.rules == [RuleID.Pins.rootOnly])
        let single = AFSecurityPolicyEvaluator.evaluate(
            Self.p.connection(), pinnedCertificates: [Self.p.intermediate],
            options: AFSecurityPolicyOptions(mode: .publicKey), builder: builder)
        #expect(single.rules == [RuleID.Pins.backupMissing])
    }
}
