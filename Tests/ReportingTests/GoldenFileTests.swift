import Foundation
import Judging
import TLSModel
import Testing

@testable import Reporting

/// The terminal text of `scan`, `plist`, `audit` and `diagnose`, and the JUnit XML, against golden files
/// (`ATSCHECK_RECORD_SNAPSHOTS=1` re-records). A layout change shows up here as a diff to review.
@Suite("Golden files: terminal text and JUnit")
struct GoldenFileTests {
    /// A plist-only report, as `atscheck plist` renders it.
    static var plistReport: ScanReport { ScanReport(endpoints: [], findings: ReportFixtures.report.findings) }

    /// An audit report: the endpoints plus exception-debt and endpoint-list findings with files and lines.
    static var auditReport: ScanReport {
        var report = ReportFixtures.report
        report.findings += [
            Finding(
                rule: RuleID.Audit.exceptionMissing, severity: .error,
                message: "legacy.example.com fails ATS; add <key>legacy.example.com</key><dict>…</dict>",
                file: "endpoints.txt", line: 3,
                keyPath: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com"),
            Finding(
                rule: RuleID.Audit.exceptionUnneeded, severity: .warning,
                message: "NSExceptionDomains.old.example.com relaxes ATS but its endpoints pass without it",
                file: "Info.plist", line: 31, keyPath: "NSAppTransportSecurity.NSExceptionDomains.old.example.com"),
            Finding(
                rule: RuleID.Endpoints.duplicate, severity: .note, message: "api.example.com is listed twice",
                file: "endpoints.txt", line: 7),
        ]
        return report
    }

    @Test("scan: terminal text without colour")
    func scanText() throws {
        try Snapshot.assert(
            ScanTextRenderer(style: TextStyle(enabled: false)).render(ReportFixtures.report), named: "scan.txt")
    }

    @Test("plist: terminal text without colour")
    func plistText() throws {
        try Snapshot.assert(
            ScanTextRenderer(style: TextStyle(enabled: false)).render(Self.plistReport), named: "plist.txt")
    }

    @Test("audit: terminal text without colour")
    func auditText() throws {
        try Snapshot.assert(
            ScanTextRenderer(style: TextStyle(enabled: false)).render(Self.auditReport), named: "audit.txt")
    }

    @Test("diagnose: the nscurl-style matrix")
    func diagnoseText() throws {
        try Snapshot.assert(DiagnosticsTextRenderer.render(DiagnosticsTextTests.report), named: "diagnose.txt")
    }

    @Test("JUnit XML of the audit report")
    func junit() throws {
        try Snapshot.assert(JUnitRenderer.render(Self.auditReport), named: "junit.xml")
    }

    @Test("colour is ANSI SGR only and vanishes without it")
    func colour() {
        let plain = ScanTextRenderer(style: TextStyle(enabled: false)).render(ReportFixtures.report)
        let coloured = ScanTextRenderer(style: TextStyle(enabled: true)).render(ReportFixtures.report)
        #expect(coloured != plain)
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
    }
}
