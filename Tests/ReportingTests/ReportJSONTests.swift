import ATSCheckKit
import Foundation
import Reporting
import TLSModel
import Testing

/// Each command's JSON keeps its own top-level shape (docs/json-output.md).
@Suite("ReportJSON: each command's top-level shape")
struct ReportJSONTests {
    static func object(_ document: some ReportDocument) throws -> [String: Any] {
        let json = try ReportRendererRegistry.standard.render(document, as: .json)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    static let reportKeys: Set<String> = ["schemaVersion", "endpoints", "findings", "summary", "tool"]

    @Test("scan and plist: the report alone")
    func scan() throws {
        #expect(Set(try Self.object(ScanDocument(report: ReportFixtures.report)).keys) == Self.reportKeys)
        #expect(Set(try Self.object(DocumentFixtures.plist).keys) == Self.reportKeys)
    }

    @Test("audit: the report with exceptionDebt, pins, policy (without a plist) and auditShard (a shard)")
    func audit() throws {
        let withPlist = try Self.object(DocumentFixtures.audit(defaultPolicy: false))
        #expect(Set(withPlist.keys) == Self.reportKeys.union(["exceptionDebt", "pins"]))
        let withoutPlist = try Self.object(DocumentFixtures.audit(defaultPolicy: true))
        #expect(Set(withoutPlist.keys) == Self.reportKeys.union(["exceptionDebt", "pins", "policy", "auditShard"]))
        #expect(withoutPlist["policy"] as? String == "default")
        #expect((withoutPlist["auditShard"] as? [String: String]) == ["endpoints": "endpoints.txt"])
        let debt = try #require((withoutPlist["exceptionDebt"] as? [[String: Any]])?.first)
        #expect(debt["kind"] as? String == "missing")
        #expect((withoutPlist["pins"] as? [[String: Any]])?.first?["origin"] as? String == "NSPinnedDomains")
    }

    @Test("app: the report with app and, live, live beside it")
    func app() throws {
        let offline = try Self.object(DocumentFixtures.app(live: false))
        #expect(Set(offline.keys) == Self.reportKeys.union(["app"]))
        let live = try Self.object(DocumentFixtures.app(live: true))
        #expect(Set(live.keys) == Self.reportKeys.union(["app", "live"]))
        let facts = try #require(live["app"] as? [String: Any])
        #expect(facts["container"] as? String == "ipa")
        #expect((facts["minimumOS"] as? [String: String])?["key"] == "MinimumOSVersion")
        #expect(facts["build"] == nil, "a missing value is omitted, as before")
        let liveObject = try #require(live["live"] as? [String: Any])
        #expect(Set(liveObject.keys) == ["endpointSource", "eras", "endpoints", "exceptionDebt", "pins"])
        let pin = try #require((liveObject["pins"] as? [[String: Any]])?.last)
        #expect(pin["mode"] is NSNull, "mode is an explicit null")
    }

    @Test("diagnose: the nscurl report with findings beside it")
    func diagnose() throws {
        let object = try Self.object(DocumentFixtures.diagnose)
        let keys: Set = ["schemaVersion", "url", "host", "osVersion", "tests", "minimalException", "notes", "findings"]
        #expect(Set(object.keys) == keys)
        #expect((object["findings"] as? [[String: Any]])?.count == 1)
    }

    @Test("pins check and pins extract: their reports; rules: the catalogue")
    func standalone() throws {
        let pins = try Self.object(PinCheckDocument(report: DocumentFixtures.pinsReport))
        #expect(pins["library"] as? String == "afnetworking")
        let extract = try Self.object(PinExtractDocument(report: DocumentFixtures.pinExtract))
        #expect(extract["recommendation"] != nil)
        let rules = try Self.object(RuleCatalogueDocument(rules: RuleCatalogue.atscheck.all))
        #expect(Set(rules.keys) == ["rules"])
        #expect(
            try ReportRendererRegistry.standard.render(
                RuleCatalogueDocument(rules: RuleCatalogue.atscheck.all), as: .json)
                == RuleCatalogueRenderer.json(RuleCatalogue.atscheck.all))
    }

    @Test("plist --explain: one explanation as an object, several as an array")
    func explanations() throws {
        let one = try ReportRendererRegistry.standard.render(DocumentFixtures.explain(count: 1), as: .json)
        #expect(try JSONSerialization.jsonObject(with: Data(one.utf8)) is [String: Any])
        #expect(one == (try JSONRendering.render(ExplainTextTests.explanation)))
        let two = try ReportRendererRegistry.standard.render(DocumentFixtures.explain(count: 2), as: .json)
        #expect((try JSONSerialization.jsonObject(with: Data(two.utf8)) as? [Any])?.count == 2)
    }
}
