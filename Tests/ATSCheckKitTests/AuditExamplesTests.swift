import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import TLSModel
import Testing

/// The files under Examples/ stay valid: they are what users copy.
@Suite("Audit examples")
struct AuditExamplesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    @Test(
        "every example plist parses and every endpoint list loads",
        arguments: [
            ("strict-app", "endpoints.txt", 4), ("legacy-api-app", "endpoints.yaml", 6),
            ("webview-app", "endpoints.txt", 2),
            ("broken-app", "endpoints.txt", 4),
        ])
    func loads(_ app: String, _ list: String, _ count: Int) throws {
        let dir = Self.examples + "/" + app
        let document = try PlistDocument.load(path: dir + "/Info.plist")
        #expect(document.format == .xml)
        let endpoints = try EndpointList.load(path: dir + "/" + list)
        #expect(endpoints.entries.count == count)
        let invalid = endpoints.findings.filter { $0.rule == EndpointListRuleID.invalid }
        #expect(invalid.count == (app == "broken-app" ? 2 : 0))
    }

    @Test("the broken plist has the mistakes it advertises; the strict one has none")
    func brokenIsBroken() throws {
        let broken = PlistLinter.lint(try PlistDocument.load(path: Self.examples + "/broken-app/Info.plist"))
        let rules = Set(broken.map(\.rule))
        for rule in [
            PlistRuleID.keyMisspelled, PlistRuleID.valueWrongType, PlistRuleID.valueInvalidTLSVersion,
            PlistRuleID.domainUppercase, PlistRuleID.domainPort,
        ] {
            #expect(rules.contains(rule), "\(rule)")
        }
        let strict = PlistLinter.lint(try PlistDocument.load(path: Self.examples + "/strict-app/Info.plist"))
        #expect(strict.filter { $0.severity != .note }.isEmpty)
    }

    @Test("the example baseline is valid")
    func baseline() throws {
        let baseline = try Baseline.load(path: Self.examples + "/baseline.yaml")
        #expect(baseline.waivers.count == 3)
        #expect(baseline.waivers.allSatisfy { $0.problem == nil })
    }

    @Test("the example baseline's waivers do not expire by date alone: none within five years of today")
    func baselineNotExpiring() throws {
        let baseline = try Baseline.load(path: Self.examples + "/baseline.yaml")
        let fiveYears = Date().addingTimeInterval(5 * 366 * 86_400)
        for waiver in baseline.waivers {
            let expires = try #require(waiver.expires.flatMap(CalendarDay.date(from:)))
            #expect(expires > fiveYears, "\(waiver.rule ?? "?") expires \(waiver.expires ?? "?")")
        }
    }
}
