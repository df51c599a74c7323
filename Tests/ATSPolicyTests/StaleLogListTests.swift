import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The CT log list the checker carries (docs/apple-rules.md §2.3d, added 2026-11-27): an SCT from a log the list does
/// not know, timestamped after the list was published, makes CT ambiguous unless the other SCTs already meet the
/// policy; an unknown log older than the list, and a log the list knows and rejected, stay failures.
@Suite("§2.3d The CT log list the checker carries")
struct StaleLogListTests {
    typealias CT = CertificateTransparencyRuleTests
    static let day: TimeInterval = 86_400
    static let now = Fixture.now

    static func unknownSCT(_ name: String, at timestamp: Date) -> SCTFacts {
        SCTFacts(
            source: .embedded, logID: Data(name.utf8).base64EncodedString(), timestamp: timestamp,
            signature: .unverified, log: nil)
    }

    static func evaluate(_ scts: [SCTFacts], listDate: Date?) -> ATSEvaluation {
        var profile = Fixture.profile(Fixture.modern, leaf: Fixture.cert(), intermediates: [CT.intermediate])
        profile.certificate?.transparency = CertificateTransparencyReport(
            logList: "test list (version 7)", scts: scts, requestedDelivered: true, logListDate: listDate)
        profile.certificate?.verifiedAt = now
        return ATSPolicyEvaluator(for: ATSClient(os: AppleOSVersion(string: "26.4")!), now: now).evaluate(profile)
    }

    static let listDate = now.addingTimeInterval(-200 * day)
    static let afterList = now.addingTimeInterval(-40 * day)
    static let beforeList = now.addingTimeInterval(-300 * day)

    @Test("an SCT from a log newer than the list, with one known log: ambiguous, saying how to update")
    func newerUnknownLogIsAmbiguous() throws {
        let evaluation = Self.evaluate(
            [Self.unknownSCT("Argon 2027h1", at: Self.afterList), CT.sct(CT.a1)],
            listDate: Self.listDate)
        #expect(evaluation.verdict == .ambiguous)
        #expect(evaluation.violations.isEmpty)
        let reason = try #require(evaluation.notes.first { $0.contains("cannot be judged") })
        #expect(reason.contains("test list (version 7), published \(CalendarDay.string(from: Self.listDate))"))
        #expect(reason.contains("atscheck data update"))
        #expect(reason.contains("--ct-log-list"))
    }

    @Test("two SCTs from logs newer than the list and none known: still ambiguous, not a failure")
    func onlyNewerUnknownLogs() {
        let evaluation = Self.evaluate(
            [Self.unknownSCT("Argon 2027h1", at: Self.afterList), Self.unknownSCT("Oak 2027h1", at: Self.afterList)],
            listDate: Self.listDate)
        #expect(evaluation.verdict == .ambiguous)
    }

    @Test("an unknown log whose SCT is older than the list is a failure: the list would know it")
    func olderUnknownLogFails() {
        let evaluation = Self.evaluate(
            [Self.unknownSCT("Gone", at: Self.beforeList), CT.sct(CT.a1)],
            listDate: Self.listDate)
        #expect(evaluation.verdict == .fail)
        #expect(CT.ctMessages(evaluation).first?.contains("its log is not in the log list") == true)
    }

    @Test("a list without a date (a report saved before the field) keeps the old failure")
    func undatedListFails() {
        let evaluation = Self.evaluate(
            [Self.unknownSCT("Argon 2027h1", at: Self.afterList), CT.sct(CT.a1)],
            listDate: nil)
        #expect(evaluation.verdict == .fail)
    }

    @Test("the known SCTs already meet the policy: pass, whatever the unknown log is")
    func knownSCTsSuffice() {
        let evaluation = Self.evaluate(
            [Self.unknownSCT("Argon 2027h1", at: Self.afterList), CT.sct(CT.a1), CT.sct(CT.b1)],
            listDate: Self.listDate)
        #expect(evaluation.verdict == .pass)
    }

    @Test("a log the list knows and rejected stays a failure even beside a newer unknown log")
    func rejectedLogStillFails() {
        let rejected = CT.log("Bad Log", "Operator X", .rejected)
        let evaluation = Self.evaluate(
            [Self.unknownSCT("Argon 2027h1", at: Self.afterList), CT.sct(rejected)], listDate: Self.listDate)
        // One new log at best: two distinct approved logs are still missing, so no newer list could make it pass.
        #expect(evaluation.verdict == .fail)
    }
}
