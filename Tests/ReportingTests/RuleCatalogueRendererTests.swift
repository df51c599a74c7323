import ATSCheckKit
import Foundation
import TLSModel
import Testing

@testable import Reporting

@Suite("RuleCatalogueRenderer")
struct RuleCatalogueRendererTests {
    static let docsURL = ReportFixtures.packageRoot.appendingPathComponent("docs/rules.md")

    @Test("docs/rules.md is the generated Markdown; ATSCHECK_RECORD_SNAPSHOTS=1 rewrites it")
    func docsAreCurrent() throws {
        let text = RuleCatalogueRenderer.markdown(RuleCatalogue.atscheck.all)
        if ProcessInfo.processInfo.environment["ATSCHECK_RECORD_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: Self.docsURL)
            Issue.record("recorded \(Self.docsURL.path); run again without ATSCHECK_RECORD_SNAPSHOTS")
            return
        }
        let committed = try String(contentsOf: Self.docsURL, encoding: .utf8)
        #expect(
            text == committed,
            "docs/rules.md is stale: regenerate with `atscheck rules --format markdown > docs/rules.md` or ATSCHECK_RECORD_SNAPSHOTS=1"
        )
    }

    @Test("the Markdown has one anchored section per rule, in family order")
    func markdownSections() {
        let text = RuleCatalogueRenderer.markdown(RuleCatalogue.atscheck.all)
        for rule in RuleCatalogue.atscheck.all {
            #expect(text.contains("<a id=\"\(rule.anchor)\"></a>\n### `\(rule.id)`"), "\(rule.id)")
            #expect(text.contains(rule.help))
        }
        let tls = text.range(of: "## ATS: TLS negotiation")
        let plist = text.range(of: "## Info.plist")
        #expect(tls != nil && plist != nil && tls!.lowerBound < plist!.lowerBound)
        #expect(text.contains("## Pins"), "the pins family has rules, so it gets a section")
    }

    @Test("JSON lists every rule with its documentation link; text lists every id")
    func jsonAndText() throws {
        let json = try RuleCatalogueRenderer.json(RuleCatalogue.atscheck.all)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.count == RuleCatalogue.atscheck.all.count)
        let fs = try #require(rules.first { $0["id"] as? String == "ats.tls.forward-secrecy" })
        #expect(fs["family"] as? String == "tls" && fs["severity"] as? String == "error")
        #expect(fs["appleKey"] as? String == "NSExceptionRequiresForwardSecrecy")
        #expect(fs["helpUri"] as? String == RuleCatalogue.documentationURL + "#ats-tls-forward-secrecy")
        let text = RuleCatalogueRenderer.text(RuleCatalogue.atscheck.all)
        for rule in RuleCatalogue.atscheck.all { #expect(text.contains("  \(rule.id) "), "\(rule.id)") }
    }
}
