import AuditFixtures
import Foundation
import Judging
import TLSModel
import Testing

/// Announced lifetime reductions (docs/apple-rules.md §2.3, CA/Browser Forum ballot SC-081v3): a warning for a publicly
/// trusted leaf longer than the ballot allows for its issuance date; Apple's 398-day rule is unchanged.
@Suite("§2.3 Announced lifetime reductions (SC-081)")
struct LifetimeScheduleTests {
    static func endpoint(issued: String, days: Double, anchor: AnchorKind = .system) -> EndpointResult {
        var profile = AuditFixture.profile("api.test", AuditFixture.modern)
        let notBefore = CalendarDay.date(from: issued)!
        profile.certificate?.chain[0].notBefore = notBefore
        profile.certificate?.chain[0].notAfter = notBefore.addingTimeInterval(days * 86_400 - 1)
        profile.certificate?.anchor = anchor
        return EndpointResult(profile: profile)
    }

    @Test(
        "the limit by issuance date",
        arguments: [
            ("2026-03-14", nil), ("2026-03-15", 200), ("2027-03-14", 200), ("2027-03-15", 100), ("2029-03-15", 47),
            ("2031-01-01", 47),
        ] as [(String, Int?)])
    func limits(day: String, limit: Int?) {
        #expect(LifetimeSchedule.maximumDays(issuedAt: CalendarDay.date(from: day)!) == limit)
    }

    @Test("a 300-day certificate issued in April 2026 is warned about, naming the ballot and the limit")
    func warned() throws {
        let findings = LifetimeSchedule.findings(for: [Self.endpoint(issued: "2026-04-01", days: 300)])
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.rule == .Trust.lifetimeSchedule && finding.severity == .warning)
        #expect(finding.message.contains("valid for 300 days"))
        #expect(finding.message.contains("SC-081 allows at most 200 days for certificates issued from 2026-03-15"))
        #expect(finding.message.contains("398 days"))
    }

    @Test("within the limit, before 2026-03-15, or under a custom root: no warning")
    func quiet() {
        #expect(LifetimeSchedule.findings(for: [Self.endpoint(issued: "2026-04-01", days: 200)]).isEmpty)
        #expect(LifetimeSchedule.findings(for: [Self.endpoint(issued: "2026-03-01", days: 397)]).isEmpty)
        #expect(
            LifetimeSchedule.findings(for: [Self.endpoint(issued: "2026-04-01", days: 300, anchor: .custom)]).isEmpty)
    }

    @Test("a renewal on a future date: what it may have, and whether this certificate's lifetime fits")
    func renewal() throws {
        let leaf = try #require(Self.endpoint(issued: "2026-04-01", days: 180).profile.certificate?.leaf)
        let note = try #require(LifetimeSchedule.renewalNote(at: CalendarDay.date(from: "2027-06-01")!, current: leaf))
        #expect(
            note == "a renewal issued on 2027-06-01 may be valid for at most 100 days (CA/Browser Forum ballot "
                + "SC-081); this certificate's 180 days would not")
        #expect(LifetimeSchedule.renewalNote(at: CalendarDay.date(from: "2026-01-01")!, current: leaf) == nil)
    }
}
