import AuditFixtures
import Foundation
import Judging
import TLSModel
import Testing

/// The CT log list the checker carries (docs/apple-rules.md §2.3d, added 2026-11-27): one warning per run when the list
/// judged with is older than 90 days at the judging time.
@Suite("§2.3d Stale trust data is warned about once per run")
struct StaleDataWarningsTests {
    static func endpoint(_ host: String, list: String, date: Date?, line: Int? = nil) -> EndpointResult {
        var profile = AuditFixture.profile(host, AuditFixture.modern)
        profile.certificate?.transparency = CertificateTransparencyReport(
            logList: list, scts: [], requestedDelivered: true, logListDate: date)
        return EndpointResult(profile: profile, source: line.map { SourceLocation(file: "hosts.txt", line: $0) })
    }

    static let now = AuditFixture.now
    static let day = AuditFixture.day

    @Test("a list 91 days old warns once for the whole run, at the first endpoint that used it")
    func once() throws {
        let old = Self.now.addingTimeInterval(-91 * Self.day)
        let endpoints = (1...3).map { Self.endpoint("h\($0).test", list: "Apple list v375", date: old, line: $0 + 4) }
        let findings = StaleDataWarnings.findings(for: endpoints, now: Self.now)
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.rule == .Trust.dataStale)
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("Apple list v375"))
        #expect(finding.message.contains("91 days before \(CalendarDay.string(from: Self.now))"))
        #expect(finding.message.contains("atscheck data update"))
        #expect(finding.file == "hosts.txt" && finding.line == 5)
    }

    @Test("a list 90 days old, or one without a date, does not warn")
    func fresh() {
        let endpoints = [
            Self.endpoint("a.test", list: "recent", date: Self.now.addingTimeInterval(-90 * Self.day)),
            Self.endpoint("b.test", list: "undated", date: nil),
        ]
        #expect(StaleDataWarnings.findings(for: endpoints, now: Self.now).isEmpty)
    }

    @Test("--at in the future ages the same list")
    func judgedLater() {
        let endpoints = [Self.endpoint("a.test", list: "recent", date: Self.now.addingTimeInterval(-10 * Self.day))]
        #expect(StaleDataWarnings.findings(for: endpoints, now: Self.now.addingTimeInterval(100 * Self.day)).count == 1)
    }

    @Test("the report's warnings include it")
    func inReport() {
        let report = ScanReport(endpoints: [
            Self.endpoint("a.test", list: "old", date: Self.now.addingTimeInterval(-400 * Self.day))
        ]).addingExpiryWarnings(days: 30, now: Self.now)
        #expect(report.findings.filter { $0.rule == .Trust.dataStale }.count == 1)
    }
}
