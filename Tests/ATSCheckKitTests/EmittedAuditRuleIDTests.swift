import ATSCheckKit
import ATSPolicy
import AuditFixtures
import Foundation
import Judging
import TLSModel
import Testing

@testable import Reporting

/// Every rule id an audit emits over the examples and fixtures is in the catalogue, and reaches SARIF
/// with its real text.
@Suite("Audit rule ids are catalogued")
struct EmittedAuditRuleIDTests {
    static let examples = AuditExamplesTests.examples

    @Test("audits of the example apps and fixture endpoints emit only catalogued ids")
    func audits() throws {
        var seen: Set<RuleID> = []
        var reports: [ScanReport] = []
        for (app, list) in [
            ("strict-app", "endpoints.txt"), ("legacy-api-app", "endpoints.yaml"),
            ("webview-app", "endpoints.txt"), ("broken-app", "endpoints.txt"),
        ] {
            let dir = Self.examples + "/" + app
            let document = try PlistDocument.load(path: dir + "/Info.plist")
            let endpoints = try EndpointList.load(path: dir + "/" + list)
            seen.formUnion(endpoints.findings.map(\.rule))
            // Every endpoint judged as a failing RSA-key-exchange server, or as cleartext.
            let result = try AuditFixture.audit(
                document,
                endpoints.entries.map {
                    (
                        $0.target.original,
                        $0.isHTTP
                            ? nil : AuditFixture.profile($0.target.host, AuditFixture.rsaKxOnly, port: $0.target.port)
                    )
                })
            seen.formUnion(result.report.findings.map(\.rule))
            seen.formUnion(result.exceptionDebt.map(\.rule))
            seen.formUnion(result.report.endpoints.flatMap { $0.ats.violations.map(\.rule) })
            reports.append(result.report)
        }
        let baseline = try Baseline.load(path: Self.examples + "/baseline.yaml")
        for report in reports {
            let (waived, own) = baseline.apply(to: report, now: AuditFixture.now)
            seen.formUnion(waived.findings.map(\.rule) + own.map(\.rule))
        }
        let uncatalogued = seen.filter { RuleCatalogue.atscheck.descriptor(for: $0) == nil }
        #expect(uncatalogued.isEmpty, "not in RuleCatalogue: \(uncatalogued.sorted())")
        #expect(seen.contains(RuleID.Audit.exceptionMissing) || seen.contains(RuleID.Audit.endpointFails))

        // SARIF describes each with the catalogue text, never the placeholder.
        for report in reports {
            let sarif = try SARIFRenderer.render(
                report, catalogue: .atscheck, plistFile: "Info.plist", endpointsFile: "endpoints.txt")
            #expect(!sarif.contains("atscheck rule "), "placeholder rule text in SARIF")
        }
    }
}
