import Foundation
import Pinning
import TLSModel
import Testing

/// The seed's case (docs/pinning-rules.md §2): release (rows 8–10) next to DEBUG (rows 15–17).
struct SeedCase: Sendable, CustomTestStringConvertible {
    let label: String
    /// What the builder says: system trust under SSL(host), and the pinned-anchor evaluation per policy.
    let systemSSL: Bool
    let pinnedSSL: Bool
    let pinnedBasic: Bool
    let release: PinVerdict
    let debug: PinVerdict
    var testDescription: String {
        "§2 \(label): release \(release.rawValue.uppercased()), DEBUG \(debug.rawValue.uppercased())"
    }
}

let seedCases: [SeedCase] = [
    SeedCase(
        label: "public-CA chain, pinned cert on the path", systemSSL: true, pinnedSSL: true, pinnedBasic: true,
        release: .accept, debug: .accept),
    SeedCase(
        label: "pinned cert not on the path (leaf renewed, intermediate rotated)", systemSSL: true, pinnedSSL: false,
        pinnedBasic: false, release: .reject, debug: .reject),
    SeedCase(
        label: "self-signed staging cert that is itself pinned", systemSSL: false, pinnedSSL: false, pinnedBasic: true,
        release: .reject, debug: .accept),
    SeedCase(
        label: "private CA pinned, not installed on the device", systemSSL: false, pinnedSSL: true, pinnedBasic: true,
        release: .reject, debug: .accept),
    SeedCase(
        label: "pinned chain for a different hostname", systemSSL: false, pinnedSSL: false, pinnedBasic: true,
        release: .reject, debug: .accept),
    SeedCase(
        label: "expired leaf or pinned anchor", systemSSL: false, pinnedSSL: false, pinnedBasic: false,
        release: .reject, debug: .reject),
]

@Suite("Debug next to release (docs/pinning-rules.md §2)")
struct DebugReleaseComparisonTests {
    static let p = PinFixtures.self
    static let debugOptions = AFSecurityPolicyOptions(
        mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false)

    static func builder(_ c: SeedCase) -> FakeBuilder {
        FakeBuilder(
            system: { policy in
                TrustPathResult(
                    ok: policy == .ssl(host: PinFixtures.host) && c.systemSSL, path: PinFixtures.path,
                    error: "self-signed certificate")
            },
            pinned: { _, policy in
                let ok = policy == .basic ? c.pinnedBasic : c.pinnedSSL
                return TrustPathResult(ok: ok, path: PinFixtures.path, error: ok ? nil : "fails")
            })
    }

    @Test(arguments: seedCases)
    func seed(_ c: SeedCase) throws {
        let comparison = try #require(
            DebugReleaseComparison.compare(
                Self.p.connection(), pinnedCertificates: [Self.p.root], options: Self.debugOptions,
                builder: Self.builder(c)))
        #expect(comparison.release.verdict == c.release && comparison.debug.verdict == c.debug)
        #expect(comparison.release.options.contains(PinOption("allowInvalidCertificates", "NO")))
        #expect(comparison.release.options.contains(PinOption("validatesDomainName", "YES")))
        let differs = comparison.risks.contains { $0.rule == RuleID.Pins.debugReleaseDiffers }
        #expect(differs == (c.debug == .accept && c.release == .reject))
        #expect(comparison.risks.contains { $0.rule == RuleID.Pins.debugAnyHost })
        #expect(comparison.risks.contains { $0.rule == RuleID.Pins.debugHygieneSkipped })
        #expect(comparison.risks.contains { $0.rule == RuleID.Pins.debugAllowInvalid })
    }

    @Test("the risks follow the relaxation")
    func risks() throws {
        let builder = FakeBuilder(systemOK: true, for: .ssl(host: Self.p.host))
        func risks(_ options: AFSecurityPolicyOptions, pins: [CertificateFacts] = [PinFixtures.root]) throws
            -> [Finding]
        {
            try #require(
                DebugReleaseComparison.compare(
                    Self.p.connection(), pinnedCertificates: pins, options: options, builder: builder)
            ).risks
        }
        let none = try risks(
            AFSecurityPolicyOptions(mode: .none, allowInvalidCertificates: true, validatesDomainName: false))
        #expect(
            none.first?.message.hasPrefix(
                "debug accepts any certificate for any host: a proxy on the network can read this traffic") == true)
        #expect(Set(none.map(\.rule)) == [RuleID.Pins.debugNoValidation, RuleID.Pins.debugAllowInvalid])
        let publicKey = try risks(AFSecurityPolicyOptions(mode: .publicKey, allowInvalidCertificates: true))
        #expect(
            publicKey.map(\.rule).contains(RuleID.Pins.debugNoValidation)
                && !publicKey.map(\.rule).contains(RuleID.Pins.debugAnyHost))
        let caPinned = try risks(AFSecurityPolicyOptions(mode: .certificate, validatesDomainName: false))
        #expect(caPinned.first { $0.rule == RuleID.Pins.debugAnyHost }?.message.contains("pinned CA") == true)
        #expect(!caPinned.map(\.rule).contains(RuleID.Pins.debugAllowInvalid))
        let leafPinned = try risks(
            AFSecurityPolicyOptions(mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false),
            pins: [PinFixtures.selfSignedLeaf])
        #expect(leafPinned.first { $0.rule == RuleID.Pins.debugAnyHost }?.message.contains("key stolen") == true)
        // Row 13 (allowInvalid, hostname kept): no any-host or hygiene risk.
        let row13 = try risks(AFSecurityPolicyOptions(mode: .certificate, allowInvalidCertificates: true))
        #expect(row13.map(\.rule) == [RuleID.Pins.debugAllowInvalid])
        #expect(
            DebugReleaseComparison.compare(
                Self.p.connection(), pinnedCertificates: [], options: AFSecurityPolicyOptions(mode: .certificate),
                builder: builder) == nil)
        #expect(none.map(\.severity) == none.map(\.severity).sorted(by: >), "most severe first")
    }
}
