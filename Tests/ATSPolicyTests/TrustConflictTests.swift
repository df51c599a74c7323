import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The §2.1 CONFLICTs added 2026-11-23: lifetime boundaries (DOC counts inclusively and caps leaves issued
/// after 2019-07-01; trustd compares `notAfter − notBefore` and caps every system-anchored leaf issued before
/// 2020-09-01 at 825 days + 1 hour) and the scope of the serverAuth EKU rule. Each is evaluated both ways,
/// and the verdict is `ambiguous` exactly where the readings differ.
@Suite("§2.1 trust CONFLICTs (2026-11-23)")
struct TrustConflictTests {
    static let day: TimeInterval = 86_400
    /// An intermediate valid from 2010, so leaves can be judged at dates before 2020.
    static let intermediate = Fixture.cert(
        "CN=Test Intermediate", sans: [], eku: nil, notBefore: AppleDates.utc(2010, 1, 1), days: 9000, scts: 0,
        isCA: true, issuer: "CN=Test Root")

    /// A leaf with `notAfter − notBefore` exactly `seconds`, with enough SCTs for any lifetime.
    static func leaf(issued: Date, seconds: TimeInterval, eku: [ExtendedKeyUsage]? = [.serverAuth]) -> CertificateFacts
    {
        var c = Fixture.cert(eku: eku, notBefore: issued, scts: 5)
        c.notAfter = issued.addingTimeInterval(seconds)
        return c
    }

    /// Judged a day after issue, so no leaf is expired.
    static func evaluate(_ leaf: CertificateFacts, anchor: AnchorKind, os: String = "26.4") -> ATSEvaluation {
        let profile = Fixture.profile(Fixture.modern, leaf: leaf, intermediates: [intermediate], anchor: anchor)
        return ATSPolicyEvaluator(
            for: ATSClient(os: AppleOSVersion(string: os)!), now: leaf.notBefore.addingTimeInterval(day)
        )
        .evaluate(profile)
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var leaf: CertificateFacts
        var anchor: AnchorKind = .system
        var os: String = "26.4"
        /// `pass`, `fail` or `ambiguous`.
        var verdict: ATSEvaluation.Verdict
        /// The violation ids (for `ambiguous`: of the reading that fails).
        var rules: [RuleID] = []
        /// For `ambiguous`: the primary reading's verdict, then the other's.
        var readings: [String: ATSEvaluation.Verdict] = [:]
    }

    static let y2025 = AppleDates.utc(2025, 1, 1)
    static let y2020 = AppleDates.utc(2020, 1, 1)
    static let src = "source-lifetime-trustd", doc = "doc-lifetime-inclusive"
    static let l398: RuleID = "trust.lifetime.398", l825: RuleID = "trust.lifetime.825"

    static let lifetimeCases: [Case] = [
        // 398 days: system root, issued from 2020-09-01.
        Case(description: "398 d − 1 s, system", leaf: leaf(issued: y2025, seconds: 398 * day - 1), verdict: .pass),
        Case(
            description: "exactly 398 × 86,400 s, system", leaf: leaf(issued: y2025, seconds: 398 * day),
            verdict: .ambiguous,
            rules: [l398], readings: [src: .pass, doc: .fail]),
        Case(
            description: "398 d + 1 s, system", leaf: leaf(issued: y2025, seconds: 398 * day + 1), verdict: .fail,
            rules: [l398]),
        Case(
            description: "exactly 398 d, custom root: no 398 cap", leaf: leaf(issued: y2025, seconds: 398 * day),
            anchor: .custom, verdict: .pass),
        Case(
            description: "exactly 398 d, iOS 12: no caps", leaf: leaf(issued: y2025, seconds: 398 * day), os: "12",
            verdict: .pass),
        // 825 days: custom root, issued after 2019-07-01 (DOC inclusive vs trustd's 825 d + 1 h).
        Case(
            description: "825 d − 1 s, custom", leaf: leaf(issued: y2025, seconds: 825 * day - 1), anchor: .custom,
            verdict: .pass),
        Case(
            description: "exactly 825 × 86,400 s, custom", leaf: leaf(issued: y2025, seconds: 825 * day),
            anchor: .custom,
            verdict: .ambiguous, rules: [l825], readings: [src: .pass, doc: .fail]),
        Case(
            description: "825 d + 1 h, custom", leaf: leaf(issued: y2025, seconds: 825 * day + 3_600), anchor: .custom,
            verdict: .ambiguous, rules: [l825], readings: [src: .pass, doc: .fail]),
        Case(
            description: "825 d + 1 h + 1 s, custom", leaf: leaf(issued: y2025, seconds: 825 * day + 3_601),
            anchor: .custom,
            verdict: .fail, rules: [l825]),
        // 825 days: system root, issued between 2019-07-01 and 2020-09-01.
        Case(
            description: "exactly 825 d, system, 2020-01-01", leaf: leaf(issued: y2020, seconds: 825 * day),
            verdict: .ambiguous,
            rules: [l825], readings: [src: .pass, doc: .fail]),
        Case(
            description: "825 d + 1 h + 1 s, system, 2020-01-01", leaf: leaf(issued: y2020, seconds: 825 * day + 3_601),
            verdict: .fail, rules: [l825]),
        // Issue dates: 2020-09-01 switches system leaves to 398 days; trustd caps every earlier one at 825 d + 1 h.
        Case(
            description: "500 d, system, 2020-08-31 23:59:59",
            leaf: leaf(issued: AppleDates.cap398.addingTimeInterval(-1), seconds: 500 * day), verdict: .pass),
        Case(
            description: "500 d, system, 2020-09-01 00:00", leaf: leaf(issued: AppleDates.cap398, seconds: 500 * day),
            verdict: .fail, rules: [l398]),
        Case(
            description: "900 d, system, 2019-06-30 (docs: no cap before 2019-07-01)",
            leaf: leaf(issued: AppleDates.utc(2019, 6, 30), seconds: 900 * day), verdict: .ambiguous, rules: [l825],
            readings: [src: .fail, doc: .pass]),
        Case(
            description: "900 d, system, 2017-01-01 (trustd: no 2018-03-01 lower bound)",
            leaf: leaf(issued: AppleDates.utc(2017, 1, 1), seconds: 900 * day), verdict: .ambiguous, rules: [l825],
            readings: [src: .fail, doc: .pass]),
        Case(
            description: "900 d, system, 2019-07-02",
            leaf: leaf(issued: AppleDates.utc(2019, 7, 2), seconds: 900 * day), verdict: .fail, rules: [l825]),
        Case(
            description: "900 d, custom, 2019-06-30: no cap in either",
            leaf: leaf(issued: AppleDates.utc(2019, 6, 30), seconds: 900 * day), anchor: .custom, verdict: .pass),
        Case(
            description: "900 d, custom, 2019-07-02",
            leaf: leaf(issued: AppleDates.utc(2019, 7, 2), seconds: 900 * day), anchor: .custom, verdict: .fail,
            rules: [l825]),
    ]

    static let esrc = "source-eku-by-anchor", edoc = "doc-eku-after-2019-07-01"
    static let before = AppleDates.utc(2019, 6, 30), after = AppleDates.utc(2019, 7, 2)
    static let ekuCases: [Case] = [
        Case(
            description: "no EKU, system, issued 2019-06-30", leaf: leaf(issued: before, seconds: 365 * day, eku: nil),
            verdict: .ambiguous, rules: ["trust.eku"], readings: [esrc: .fail, edoc: .pass]),
        Case(
            description: "no EKU, system, issued 2019-07-02", leaf: leaf(issued: after, seconds: 365 * day, eku: nil),
            verdict: .fail, rules: ["trust.eku"]),
        Case(
            description: "no EKU, custom, issued 2019-07-02", leaf: leaf(issued: after, seconds: 365 * day, eku: nil),
            anchor: .custom,
            verdict: .ambiguous, rules: ["trust.eku"], readings: [esrc: .pass, edoc: .fail]),
        Case(
            description: "anyExtendedKeyUsage only, custom, issued 2019-07-02",
            leaf: leaf(issued: after, seconds: 365 * day, eku: [.anyExtendedKeyUsage]), anchor: .custom,
            verdict: .ambiguous, rules: ["trust.eku"], readings: [esrc: .pass, edoc: .fail]),
        Case(
            description: "no EKU, custom, issued 2019-06-30", leaf: leaf(issued: before, seconds: 365 * day, eku: nil),
            anchor: .custom, verdict: .pass),
        Case(
            description: "clientAuth only, custom, issued 2019-06-30: fails both ways",
            leaf: leaf(issued: before, seconds: 365 * day, eku: [.clientAuth]), anchor: .custom, verdict: .fail,
            rules: ["trust.eku"]),
        Case(
            description: "serverAuth, system, issued 2019-06-30", leaf: leaf(issued: before, seconds: 365 * day),
            verdict: .pass),
        Case(
            description: "no EKU, system, 2019-06-30, iOS 12: no EKU rule",
            leaf: leaf(issued: before, seconds: 365 * day, eku: nil), os: "12", verdict: .pass),
    ]

    static func check(_ c: Case) {
        let e = evaluate(c.leaf, anchor: c.anchor, os: c.os)
        #expect(e.verdict == c.verdict)
        #expect(e.violations.map(\.rule) == c.rules)
        if c.verdict == .ambiguous {
            #expect(Dictionary(uniqueKeysWithValues: e.readings.map { ($0.name, $0.verdict) }) == c.readings)
            #expect(e.readings.first?.name == (c.readings.keys.contains(src) ? src : esrc))  // trustd/source first
            let failing = e.readings.first { $0.verdict == .fail }
            #expect(failing?.violations.map(\.rule) == c.rules)
            #expect(e.notes.contains { $0.hasPrefix("CONFLICT") && $0.hasSuffix("the readings disagree") })
        } else {
            #expect(e.readings.isEmpty)
        }
    }

    @Test("§2.1 CONFLICT at exactly 398 and 825 days (added 2026-11-23)", arguments: lifetimeCases)
    func lifetime(c: Case) { Self.check(c) }

    @Test("§2.1 CONFLICT on EKU for user-anchored and pre-2019 leaves (added 2026-11-23)", arguments: ekuCases)
    func eku(c: Case) { Self.check(c) }

    @Test("§2.1 lifetime CONFLICT: the failing reading says how it counted")
    func lifetimeMessages() throws {
        let e = Self.evaluate(Self.leaf(issued: Self.y2025, seconds: 398 * Self.day), anchor: .system)
        let doc = try #require(e.readings.first { $0.name == Self.doc })
        #expect(doc.violations.first?.message.contains("valid for 399 days") == true)
        #expect(doc.violations.first?.message.contains("inclusive") == true)
        let late = Self.evaluate(
            Self.leaf(issued: AppleDates.utc(2017, 1, 1), seconds: 900 * Self.day), anchor: .system)
        let src = try #require(late.readings.first { $0.name == Self.src })
        #expect(src.violations.first?.message.contains("825 days + 1 hour") == true)
    }

    @Test("§2.1 CONFLICTs that do not change the verdict leave a note, not ambiguity")
    func agreeing() {
        // No EKU on a pre-2019-07-01 system leaf (the readings differ on EKU), but a wrong host fails both.
        var leaf = Self.leaf(issued: Self.before, seconds: 365 * Self.day, eku: nil)
        leaf.subjectAltNames = ["other.example.com"]  // wrong host: fails under both EKU readings
        let e = Self.evaluate(leaf, anchor: .system)
        #expect(e.verdict == .fail && e.readings.isEmpty)
        #expect(e.violations.map(\.rule) == ["trust.hostname", "trust.eku"])
        #expect(e.notes.contains { $0.hasPrefix("CONFLICT eku-scope") && $0.hasSuffix("both readings give fail") })
    }
}
