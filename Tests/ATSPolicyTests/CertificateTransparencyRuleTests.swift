import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// Certificate Transparency from SCT facts (docs/apple-rules.md §2.2, support 103214, trustd's log-list converter):
/// which SCTs count, policies (a) and (b), and the three CONFLICTs judged both ways.
@Suite("§2.2 Certificate Transparency from SCT facts")
struct CertificateTransparencyRuleTests {
    static let day: TimeInterval = 86_400
    static let now = Fixture.now
    static let ct: RuleID = "trust.ct"

    static func log(
        _ name: String, _ operatorName: String, _ state: CTLogState = .usable, since: Date? = nil,
        interval: CTLogInterval? = nil, tiled: Bool = false
    ) -> CTLog {
        CTLog(
            id: Data(name.utf8).base64EncodedString(), key: Data([1, 2, 3]), description: name,
            operator: operatorName, state: state, stateSince: since ?? AppleDates.utc(2022, 1, 1), interval: interval,
            tiled: tiled)
    }

    static func sct(
        _ log: CTLog?, _ source: SCTFacts.Source = .embedded, at timestamp: Date? = nil,
        signature: SCTFacts.Signature = .valid
    ) -> SCTFacts {
        SCTFacts(
            source: source, logID: log?.id ?? "dW5rbm93bg==", timestamp: timestamp ?? now.addingTimeInterval(-40 * day),
            signature: log == nil ? .unverified : signature, log: log)
    }

    /// An intermediate valid from 2010, so leaves can be judged at dates before 2020.
    static let intermediate = Fixture.cert(
        "CN=Test Intermediate", sans: [], eku: nil, notBefore: AppleDates.utc(2010, 1, 1), days: 9000, scts: 0,
        isCA: true, issuer: "CN=Test Root")

    static let a1 = log("Log A1", "Operator A"), a2 = log("Log A2", "Operator A"), a3 = log("Log A3", "Operator A")
    static let b1 = log("Log B1", "Operator B"), c1 = log("Log C1", "Operator C")

    /// Evaluates a system-anchored profile whose leaf carries `scts`.
    static func evaluate(
        _ scts: [SCTFacts]?, leaf: CertificateFacts = Fixture.cert(), anchor: AnchorKind = .system,
        at time: Date = now, logList: String = "test list"
    ) -> ATSEvaluation {
        var profile = Fixture.profile(Fixture.modern, leaf: leaf, intermediates: [intermediate], anchor: anchor)
        profile.certificate?.transparency = scts.map {
            CertificateTransparencyReport(logList: logList, scts: $0, requestedDelivered: true)
        }
        profile.certificate?.verifiedAt = time
        return ATSPolicyEvaluator(for: ATSClient(os: AppleOSVersion(string: "26.4")!), now: time).evaluate(profile)
    }

    static func ctMessages(_ evaluation: ATSEvaluation) -> [String] {
        evaluation.violations.filter { $0.rule == ct }.map(\.message)
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var scts: [SCTFacts]
        var leaf: CertificateFacts = Fixture.cert()
        var fails: Bool
        /// Text the failure message (or, when passing, the note) must contain.
        var says: String? = nil
    }

    static let retired = log("Retired Log", "Operator R", .retired, since: now.addingTimeInterval(-30 * day))
    static let frozen = log("Frozen Log", "Operator F", .readonly, since: now.addingTimeInterval(-30 * day))
    static let retiredToo = log("Retired Log 2", "Operator S", .retired, since: now.addingTimeInterval(-30 * day))
    static let window = CTLogInterval(start: AppleDates.utc(2026, 1, 1), end: AppleDates.utc(2026, 7, 1))

    static let cases: [Case] = [
        Case(description: "two embedded SCTs, two operators", scts: [sct(a1), sct(b1)], fails: false),
        Case(
            description: "an unknown log leaves one", scts: [sct(nil), sct(a1)], fails: true,
            says: "log dW5rbm93bg== (unknown), embedded: its log is not in the log list"),
        Case(
            description: "an unknown log: the message says which list judged and how to pass a newer one",
            scts: [sct(nil), sct(a1)], fails: true, says: "checked against test list; a log Apple added since"),
        Case(
            description: "a bad signature leaves one", scts: [sct(a1, signature: .invalid), sct(b1)], fails: true,
            says: "'Log A1' (Operator A), embedded: its signature does not verify with the log's key"),
        Case(
            description: "a retired log's SCT from before retirement counts", scts: [sct(retired), sct(a1)],
            fails: false),
        Case(
            description: "a retired log's SCT from after retirement does not",
            scts: [sct(retired, at: now.addingTimeInterval(-10 * day)), sct(a1)], fails: true,
            says:
                "'Retired Log' (Operator R), embedded: the log was retired on 2025-05-02, before this SCT (2025-05-22)"),
        Case(
            description: "a frozen log's SCT from before it froze counts", scts: [sct(frozen), sct(b1)], fails: false),
        Case(
            description: "a log whose interval excludes the leaf's notAfter",
            scts: [sct(log("Shard 2026h1", "Operator S", interval: window)), sct(a1)], fails: true,
            says:
                "'Shard 2026h1' (Operator S), embedded: the log takes certificates expiring in [2026-01-01, 2026-07-01)"
        ),
        Case(
            description: "a log whose interval holds the leaf's notAfter",
            scts: [
                sct(
                    log(
                        "Shard 2025h2", "Operator S",
                        interval: CTLogInterval(start: AppleDates.utc(2025, 7, 1), end: AppleDates.utc(2026, 1, 1)))),
                sct(a1),
            ], fails: false),
        Case(
            description: "an SCT from the future", scts: [sct(a1, at: now.addingTimeInterval(day)), sct(b1)],
            fails: true, says: "after the verification time"),
        Case(
            description: "a pending log", scts: [sct(log("New Log", "Operator N", .pending)), sct(a1)], fails: true,
            says: "'New Log' (Operator N), embedded: the log is pending, not yet trusted"),
        Case(
            description: "a rejected log", scts: [sct(log("Bad Log", "Operator X", .rejected)), sct(a1)], fails: true,
            says: "the log was rejected"),
        Case(
            description: "two SCTs from one log are one log", scts: [sct(a1), sct(a1, .tlsExtension)], fails: true,
            says: "SCTs count from 1 log(s)"),
        Case(
            description: "too few for a 200-day leaf", scts: [sct(a1), sct(b1)], leaf: Fixture.cert(days: 200),
            fails: true, says: "3 embedded SCTs from distinct logs"),
        Case(
            description: "three for a 200-day leaf, two operators", scts: [sct(a1), sct(a2), sct(b1)],
            leaf: Fixture.cert(days: 200), fails: false),
        Case(
            description: "(a): TLS extension and OCSP from current logs",
            scts: [sct(a1, .tlsExtension), sct(b1, .ocsp)], fails: false),
        Case(
            description: "(a): one delivered from a current log and one embedded from a once-approved one",
            scts: [sct(a1, .tlsExtension), sct(retired)], fails: true, says: "1 current log(s), 1 delivered SCT(s)"),
        Case(
            description: "(b) needs an embedded SCT from a current log", scts: [sct(retired), sct(retiredToo)],
            fails: true, says: "none from a current log"),
        Case(
            description: "a frozen log stays current for SCTs up to its freeze (trustd)",
            scts: [sct(frozen), sct(retired)],
            fails: false),
        Case(
            description: "a retired log's SCT counts only when embedded (trustd)",
            scts: [sct(a1, .tlsExtension), sct(retired, .tlsExtension)], fails: true,
            says: "Apple counts only embedded SCTs from a retired log"),
    ]

    @Test("which SCTs count, and the policy", arguments: cases)
    func policy(_ c: Case) throws {
        let evaluation = Self.evaluate(c.scts, leaf: c.leaf)
        let messages = Self.ctMessages(evaluation)
        #expect(messages.isEmpty == !c.fails)
        #expect(evaluation.verdict == (c.fails ? .fail : .pass))
        if let says = c.says {
            let where_ = c.fails ? messages : evaluation.notes
            #expect(where_.contains { $0.contains(says) }, "\(where_)")
        }
    }

    @Test("every SCT that does not count is named in the notes, even when the leaf passes")
    func notesNameIgnoredSCTs() {
        let evaluation = Self.evaluate([Self.sct(Self.a1), Self.sct(Self.b1), Self.sct(nil)])
        #expect(evaluation.verdict == .pass)
        let note = evaluation.notes.first { $0.hasPrefix("Certificate Transparency:") } ?? ""
        #expect(note.contains("3 SCT(s) checked against test list"))
        #expect(note.contains("counted: 'Log A1' (Operator A), embedded; 'Log B1' (Operator B), embedded"))
        #expect(note.contains("not counted: log dW5rbm93bg== (unknown), embedded: its log is not in the log list"))
    }

    @Test("no CT for a custom root, an expired leaf, a leaf issued before 2018-10-16")
    func scope() {
        #expect(Self.ctMessages(Self.evaluate([], anchor: .custom)).isEmpty)
        let expired = Fixture.cert(notBefore: Self.now.addingTimeInterval(-100 * Self.day), days: 90)
        #expect(Self.ctMessages(Self.evaluate([], leaf: expired)).isEmpty)
        let old = Fixture.cert(notBefore: AppleDates.utc(2018, 10, 15), days: 90)
        #expect(Self.ctMessages(Self.evaluate([], leaf: old, at: AppleDates.utc(2018, 11, 1))).isEmpty)
        #expect(Self.ctMessages(Self.evaluate([])).count == 1)  // the same, in scope, fails
    }

    @Test("a chain to one of Apple's own roots needs no CT (§2.2); the same chain to another system root does")
    func appleAnchors() throws {
        var profile = Fixture.profile(Fixture.modern, leaf: Fixture.cert(), intermediates: [Self.intermediate])
        let certificate = try #require(profile.certificate)
        let path = (certificate.verifiedChain.isEmpty ? certificate.chain : certificate.verifiedChain).map(\.sha256)
        func judged(appleAnchor: Bool) -> ATSEvaluation {
            profile.certificate?.trust = TrustEvaluation(
                source: "apple", label: "test",
                stores: [
                    StoreOutcome(
                        store: "Apple iOS 26.0", iOS: "26.0", trusted: true, anchor: .system, path: path,
                        appleAnchor: appleAnchor)
                ])
            profile.certificate?.transparency = CertificateTransparencyReport(
                logList: "test list", scts: [], requestedDelivered: true)
            return ATSPolicyEvaluator(for: ATSClient(os: AppleOSVersion(string: "26.4")!), now: Self.now).evaluate(
                profile)
        }
        let apple = judged(appleAnchor: true)
        #expect(Self.ctMessages(apple).isEmpty)
        #expect(apple.notes.contains { $0.contains("one of Apple's own roots") })
        #expect(Self.ctMessages(judged(appleAnchor: false)).count == 1)
    }

    @Test("without SCT facts (older reports, or no log list) the embedded count decides, as before")
    func embeddedCountFallback() {
        let one = Self.evaluate(nil, leaf: Fixture.cert(scts: 1))
        #expect(
            Self.ctMessages(one) == [
                "the certificate embeds 1 SCT(s); Apple requires 2 for a 90-day certificate from a preinstalled root (SCTs "
                    + "in the TLS extension or a stapled OCSP response are not seen)"
            ])
        #expect(one.notes.contains { $0.contains("cannot be seen by this scan") })
        #expect(Self.ctMessages(Self.evaluate(nil, leaf: Fixture.cert(scts: 2))).isEmpty)
        // A scan without a log list cannot weigh logs: the count, not "every log unknown".
        let unknown = [Self.sct(nil), Self.sct(nil)]
        #expect(Self.ctMessages(Self.evaluate(unknown, leaf: Fixture.cert(scts: 1), logList: "none")).count == 1)
        #expect(Self.ctMessages(Self.evaluate([], leaf: Fixture.cert(scts: 2), logList: "none")).isEmpty)
    }

    struct ConflictCase: Sendable, CustomStringConvertible {
        var description: String
        var scts: [SCTFacts]
        var leaf: CertificateFacts
        var at: Date = CertificateTransparencyRuleTests.now
        /// Reading name → verdict.
        var readings: [String: ATSEvaluation.Verdict]
    }

    /// A leaf whose `notAfter − notBefore` is exactly `seconds`.
    static func leaf(issued: Date, seconds: TimeInterval) -> CertificateFacts {
        var c = Fixture.cert(notBefore: issued)
        c.notAfter = issued.addingTimeInterval(seconds)
        return c
    }

    static let conflictCases: [ConflictCase] = [
        ConflictCase(
            description: "ct-sct-count: exactly 180 × 86,400 s (trustd 2; docs count 181 days: 3)",
            scts: [sct(a1), sct(b1)], leaf: leaf(issued: now.addingTimeInterval(-30 * day), seconds: 180 * day),
            readings: ["source-ct-v2-thresholds": .pass, "doc-ct-lifetime-table": .fail]),
        ConflictCase(
            description: "ct-operator-cap: a 90-day leaf with two logs of one operator",
            scts: [sct(a1), sct(a2)], leaf: Fixture.cert(),
            readings: ["source-ct-no-operator-cap": .pass, "doc-ct-operator-cap": .fail]),
        ConflictCase(
            description: "ct-operator-cap: a 200-day leaf with three logs of one operator",
            scts: [sct(a1), sct(a2), sct(a3)], leaf: Fixture.cert(days: 200),
            readings: ["source-ct-no-operator-cap": .pass, "doc-ct-operator-cap": .fail]),
        ConflictCase(
            description: "ct-rfc6962-log: every counted SCT from a tiled log",
            scts: [sct(log("Tiled A", "Operator A", tiled: true)), sct(log("Tiled B", "Operator B", tiled: true))],
            leaf: Fixture.cert(), readings: ["ct-tiled-logs-suffice": .pass, "doc-ct-rfc6962-log-required": .fail]),
    ]

    @Test("each CT CONFLICT that decides is ambiguous, with both readings", arguments: conflictCases)
    func conflicts(_ c: ConflictCase) {
        let evaluation = Self.evaluate(c.scts, leaf: c.leaf, at: c.at)
        #expect(evaluation.verdict == .ambiguous)
        let readings = Dictionary(uniqueKeysWithValues: evaluation.readings.map { ($0.name, $0.verdict) })
        #expect(readings == c.readings)
        #expect(evaluation.violations.map(\.rule) == [Self.ct])
    }

    @Test("a CT CONFLICT that does not decide is not ambiguous")
    func conflictsThatAgree() {
        // One RFC 6962 log among tiled ones; two operators; a 90-day leaf: every reading passes.
        let mixed = Self.evaluate([Self.sct(Self.log("Tiled A", "Operator A", tiled: true)), Self.sct(Self.b1)])
        #expect(mixed.verdict == .pass)
        #expect(mixed.readings.isEmpty)
        // Too few for every reading.
        #expect(Self.evaluate([Self.sct(Self.a1)]).verdict == .fail)
    }

    @Test("the legacy table helper keeps the documented counts")
    func documentedTable() {
        let new = AppleDates.utc(2022, 1, 1), old = AppleDates.utc(2019, 1, 1)
        #expect(SCTCounts.documented(for: Fixture.cert(notBefore: new, days: 180)) == 2)
        #expect(SCTCounts.documented(for: Fixture.cert(notBefore: new, days: 181)) == 3)
        // trustd's v1 table before 2021-04-21: whole months between notBefore and notAfter.
        #expect(SCTCounts.source(for: Fixture.cert(notBefore: old, days: 365)) == 2)
        #expect(SCTCounts.source(for: Fixture.cert(notBefore: old, days: 826)) == 3)
        #expect(SCTCounts.source(for: Fixture.cert(notBefore: old, days: 900)) == 4)
        #expect(SCTCounts.operatorCap(for: Fixture.cert(notBefore: new, days: 180)) == 1)
        #expect(SCTCounts.operatorCap(for: Fixture.cert(notBefore: new, days: 200)) == 2)
        #expect(SCTCounts.operatorCap(for: Fixture.cert(notBefore: old, days: 200)) == nil)
    }
}
