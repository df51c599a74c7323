import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

@Suite("Apple trust requirements (§1.5, §2, §6)")
struct TrustRuleTests {
    static let d = Fixture.day
    static let after2020 = AppleDates.utc(2025, 1, 1)

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var leaf: CertificateFacts?
        var intermediates: [CertificateFacts]? = nil
        var anchor: AnchorKind = .system
        var trusted: Bool? = true
        var os: String = "26.4"
        var rules: [RuleID]
        /// The verdict when it is not simply pass/fail by `rules` (the §2.1 CONFLICTs of 2026-11-23).
        var verdict: ATSEvaluation.Verdict? = nil
    }

    static let cases: [Case] = [
        Case(description: "good chain", leaf: nil, rules: []),
        Case(description: "RSA-1024 leaf", leaf: Fixture.cert(bits: 1024), rules: ["trust.key-size"]),
        Case(
            description: "RSA-1024 leaf, iOS 10: ATS leaf rule", leaf: Fixture.cert(bits: 1024), os: "10",
            rules: ["trust.key-size"]),
        Case(description: "EC P-224 leaf", leaf: Fixture.cert(keyType: "EC", bits: 224), rules: ["trust.key-size"]),
        Case(description: "EC P-256 leaf", leaf: Fixture.cert(keyType: "EC", bits: 256), rules: []),
        Case(
            description: "2048 leaf under a 1024-bit intermediate",
            leaf: nil, intermediates: [Fixture.cert("CN=Weak CA", bits: 1024, sans: [], eku: nil, isCA: true)],
            rules: ["trust.key-size"]),
        Case(description: "SHA-1 leaf", leaf: Fixture.cert(hash: "SHA1"), rules: ["trust.sha1"]),
        Case(description: "MD5 leaf", leaf: Fixture.cert(hash: "MD5"), rules: ["trust.sha1"]),
        Case(
            description: "SHA-1 spelled SHA-1 (a hand-written profile)", leaf: Fixture.cert(hash: "SHA-1"),
            rules: ["trust.sha1"]),
        Case(
            description: "SHA-1 leaf, iOS 9: ATS rule", leaf: Fixture.cert(hash: "SHA1"), os: "9", rules: ["trust.sha1"]
        ),
        Case(description: "wrong host", leaf: Fixture.cert(sans: ["other.example.com"]), rules: ["trust.hostname"]),
        Case(description: "wildcard one label", leaf: Fixture.cert(sans: ["*.example.com"]), rules: []),
        Case(description: "wildcard two labels", leaf: Fixture.cert(sans: ["*.com"]), rules: ["trust.hostname"]),
        Case(
            description: "name only in CN, iOS 13+", leaf: Fixture.cert(sans: [], cn: "api.example.com"),
            rules: ["trust.hostname"]),
        Case(
            description: "name only in CN, iOS 12", leaf: Fixture.cert(sans: [], cn: "api.example.com"), os: "12",
            rules: []),
        Case(description: "no EKU, system root", leaf: Fixture.cert(eku: nil), rules: ["trust.eku"]),
        Case(
            description: "clientAuth EKU", leaf: Fixture.cert(eku: ["clientAuth"]), anchor: .custom,
            rules: ["trust.eku"]),
        // §2.1 CONFLICT (2026-11-23): the docs require serverAuth on every leaf issued after 2019-07-01.
        Case(
            description: "no EKU, custom root", leaf: Fixture.cert(eku: nil), anchor: .custom, rules: ["trust.eku"],
            verdict: .ambiguous),
        Case(description: "no EKU, iOS 12", leaf: Fixture.cert(eku: nil), os: "12", rules: []),
        Case(
            description: "400 days from a system root (2024)", leaf: Fixture.cert(notBefore: after2020, days: 400),
            rules: ["trust.lifetime.398"]),
        Case(
            description: "398 days exactly from a system root", leaf: Fixture.cert(notBefore: after2020, days: 398),
            rules: []),
        Case(
            description: "400 days from a custom root", leaf: Fixture.cert(notBefore: after2020, days: 400),
            anchor: .custom, rules: []),
        Case(
            description: "900 days from a custom root", leaf: Fixture.cert(notBefore: after2020, days: 900),
            anchor: .custom, rules: ["trust.lifetime.825"]),
        Case(
            description: "2500 days from a system root (2019)",
            leaf: Fixture.cert(notBefore: AppleDates.utc(2019, 1, 1), days: 2500, scts: 5),
            // §2.1: the docs cap only leaves issued after 2019-07-01
            rules: ["trust.lifetime.825"], verdict: .ambiguous),
        Case(
            description: "over-long leaf before iOS 13", leaf: Fixture.cert(notBefore: after2020, days: 900), os: "12",
            rules: []),
        Case(description: "2 SCTs for a 90-day leaf", leaf: Fixture.cert(scts: 2), rules: []),
        Case(description: "1 SCT for a 90-day leaf", leaf: Fixture.cert(scts: 1), rules: ["trust.ct"]),
        Case(description: "2 SCTs for a 365-day leaf", leaf: Fixture.cert(days: 365, scts: 2), rules: ["trust.ct"]),
        Case(description: "no SCTs, custom root", leaf: Fixture.cert(scts: 0), anchor: .custom, rules: []),
        Case(description: "no SCTs, iOS 12.0", leaf: Fixture.cert(scts: 0), os: "12", rules: []),
        Case(description: "no SCTs, iOS 12.1", leaf: Fixture.cert(scts: 0), os: "12.1", rules: ["trust.ct"]),
        Case(
            description: "self-signed", leaf: Fixture.cert(selfSigned: true), intermediates: [], trusted: false,
            rules: ["trust.untrusted"]),
        Case(
            description: "expired at evaluation time",
            leaf: Fixture.cert(notBefore: Fixture.now.addingTimeInterval(-100 * d), days: 90), rules: ["trust.expired"]),
    ]

    @Test("rules fired per certificate", arguments: cases)
    func rules(c: Case) {
        let p = Fixture.profile(
            Fixture.modern, leaf: c.leaf, intermediates: c.intermediates, trusted: c.trusted,
            verifyError: c.trusted == false ? "self-signed certificate" : nil,
            anchor: c.anchor)
        let e = Fixture.evaluate(p, os: c.os)
        #expect(e.violations.map(\.rule) == c.rules)
        #expect(e.verdict == c.verdict ?? (c.rules.isEmpty ? .pass : .fail))
    }

    @Test("system trust applies with ATS off and no key relaxes it")
    func systemTrustWithATSOff() {
        let aal = Fixture.config(["NSAllowsArbitraryLoads": true])
        let selfSigned = Fixture.profile(
            Fixture.modern, leaf: Fixture.cert(selfSigned: true), intermediates: [], trusted: false)
        let e = Fixture.evaluate(selfSigned, aal)
        #expect(e.verdict == .fail && e.violations.allSatisfy { $0.keyPath == nil })
        #expect(e.violations.first?.message.contains("trust-evaluation code") == true)
        // RSA-1024 on iOS 13+ is refused by system trust even with PFS off.
        let weak = Fixture.profile(Fixture.modern, leaf: Fixture.cert(bits: 1024))
        let rfs = Fixture.config([
            "NSExceptionDomains": ["api.example.com": ["NSExceptionRequiresForwardSecrecy": false]]
        ])
        #expect(Fixture.evaluate(weak, rfs).verdict == .fail)
        // On iOS 10, RFS = NO drops the ATS leaf key-size check.
        #expect(Fixture.evaluate(weak, rfs, os: "10").verdict == .pass)
    }

    @Test("CT requirement table (support 103214)")
    func ctTable() {
        let new = AppleDates.utc(2022, 1, 1), old = AppleDates.utc(2019, 1, 1)
        #expect(CertificateTransparencyRule.requiredSCTs(for: Fixture.cert(notBefore: new, days: 180)) == 2)
        #expect(CertificateTransparencyRule.requiredSCTs(for: Fixture.cert(notBefore: new, days: 181)) == 3)
        #expect(CertificateTransparencyRule.requiredSCTs(for: Fixture.cert(notBefore: old, days: 365)) == 2)
        #expect(CertificateTransparencyRule.requiredSCTs(for: Fixture.cert(notBefore: old, days: 600)) == 3)
        #expect(CertificateTransparencyRule.requiredSCTs(for: Fixture.cert(notBefore: old, days: 1000)) == 4)
        #expect(CertificateTransparencyRule.requiredSCTs(for: Fixture.cert(notBefore: old, days: 1300)) == 5)
    }
}
