import ATSCheckKit
import ATSPolicy
import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

@Suite("SARIFRenderer")
struct SARIFRendererTests {
    /// Validates JSON text against the committed SARIF 2.1.0 schema (``SARIFSchemaValidator``).
    static func validate(_ json: String) throws -> (ok: Bool, output: String) {
        try SARIFSchemaValidator.validate(json)
    }

    static func render(_ report: ScanReport = ReportFixtures.report, endpointsFile: String? = nil) throws -> [String:
        Any]
    {
        let text = try SARIFRenderer.render(report, plistFile: "Info.plist", endpointsFile: endpointsFile)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func results(_ log: [String: Any]) throws -> [[String: Any]] {
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        return try #require(run["results"] as? [[String: Any]])
    }

    @Test("the output validates against the SARIF 2.1.0 schema")
    func validatesAgainstSchema() throws {
        #expect(
            FileManager.default.fileExists(atPath: SARIFSchemaValidator.schemaPath),
            "missing \(SARIFSchemaValidator.schemaPath)")
        let text = try SARIFRenderer.render(
            ReportFixtures.report, plistFile: "Info.plist", endpointsFile: "endpoints.txt")
        let (ok, output) = try Self.validate(text)
        #expect(ok, "SARIF schema validation failed: \(output)")
        let empty = try SARIFRenderer.render(ScanReport(endpoints: []), plistFile: nil, endpointsFile: nil)
        #expect(try Self.validate(empty).ok)
    }

    @Test("the validator rejects invalid SARIF, so the check can fail")
    func validatorRejects() throws {
        let (ok, output) = try Self.validate(#"{"version": "2.1.0", "runs": [{"results": []}]}"#)
        #expect(!ok)
        #expect(output.contains("tool"), "\(output)")
    }

    @Test("header, tool and rules")
    func header() throws {
        let log = try Self.render()
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == SARIFRenderer.schemaURI)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "atscheck")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count, "each rule once")
        #expect(ids.contains("scan.unreachable"))
        #expect(ids.contains("ats.tls.forward-secrecy"))
        // Every result's ruleIndex points at its rule.
        for result in try Self.results(log) {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ids[index] == result["ruleId"] as? String)
        }
    }

    @Test("rule descriptions given by the caller are used")
    func ruleDescriptions() throws {
        let text = try SARIFRenderer.render(
            ReportFixtures.report, plistFile: nil, endpointsFile: nil,
            ruleDescriptions: ["plist.key.misspelled": "A misspelled key."])
        #expect(text.contains("\"text\" : \"A misspelled key.\""))
    }

    @Test("findings point at the plist line; a finding without a line has no region")
    func findingLocations() throws {
        let results = try Self.results(try Self.render())
        let misspelled = try #require(results.first { $0["ruleId"] as? String == "plist.key.misspelled" })
        #expect(misspelled["level"] as? String == "error")
        let physical = try #require(
            ((misspelled["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Info.plist")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 12)
        let note = try #require(results.first { $0["ruleId"] as? String == "plist.review.justification" })
        #expect(note["level"] as? String == "note")
        let notePhysical = try #require(
            ((note["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((notePhysical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Binary.plist")
        #expect(notePhysical["region"] == nil)
    }

    @Test("a key path with a dotted domain keeps its keys: the property bag, and the last key as the location's name")
    func keyPathComponents() throws {
        var finding = Finding(
            rule: RuleID.Plist.domainTrailingDot, severity: .warning, message: "m", file: "Info.plist", line: 9,
            keyPath: "NSAppTransportSecurity.NSExceptionDomains.api.example.com")
        finding.keyPathComponents = ["NSAppTransportSecurity", "NSExceptionDomains", "api.example.com"]
        let text = try SARIFRenderer.render(
            ScanReport(endpoints: [], findings: [finding]), plistFile: "Info.plist", endpointsFile: nil)
        #expect(try Self.validate(text).ok)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let result = try #require(try Self.results(log).first)
        let properties = try #require(result["properties"] as? [String: Any])
        #expect(properties["keyPathComponents"] as? [String] == finding.keyPathComponents)
        let logical = try #require(
            ((result["locations"] as? [[String: Any]])?.first?["logicalLocations"] as? [[String: Any]])?.first)
        #expect(logical["name"] as? String == "api.example.com")
        #expect(logical["fullyQualifiedName"] as? String == finding.keyPath)
    }

    @Test("each violation of a failing endpoint is a result at the endpoint file line")
    func endpointResults() throws {
        let results = try Self.results(try Self.render())
        let legacy = results.filter {
            (($0["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("legacy.example.com:443") == true
        }
        #expect(legacy.count == 2)
        #expect(Set(legacy.compactMap { $0["ruleId"] as? String }) == ["ats.tls.forward-secrecy", "trust.chain"])
        for result in legacy {
            #expect(result["level"] as? String == "error")
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "endpoints.txt")
            #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 3)
            let logical = try #require((location["logicalLocations"] as? [[String: Any]])?.first)
            #expect(logical["fullyQualifiedName"] as? String == "legacy.example.com:443")
        }
        let down = try #require(results.first { $0["ruleId"] as? String == "scan.unreachable" })
        #expect(down["level"] as? String == "warning")
        #expect(
            (down["message"] as? [String: Any])?["text"] as? String
                == "down.example.com:443 could not be scanned (unreachable): connection refused")
        let texts: [String] = results.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(!texts.contains { $0.hasPrefix("api.example.com") }, "passing endpoints produce no result")
        // 3 findings, 2 violations, 1 unreachable, the ambiguous verdict (its violation in its message), 1 unknown.
        #expect(results.count == 8)
        #expect(results.count == IssueCounts(ReportIssues.of(ReportFixtures.report)).total)
    }

    @Test("an endpoint without a source is placed in the endpoints file, else the plist, else the invocation")
    func endpointWithoutSource() throws {
        let results = try Self.results(try Self.render())
        let ambiguous = try #require(results.first { $0["ruleId"] as? String == "ats.ambiguous" })
        let location = try #require((ambiguous["locations"] as? [[String: Any]])?.first)
        let placed = try #require(location["physicalLocation"] as? [String: Any])
        #expect((placed["artifactLocation"] as? [String: Any])?["uri"] as? String == "Info.plist")
        let bareText = try SARIFRenderer.render(ReportFixtures.report, plistFile: nil, endpointsFile: nil)
        let bare = try Self.results(
            try #require(try JSONSerialization.jsonObject(with: Data(bareText.utf8)) as? [String: Any]))
        let invocation = try #require(bare.first { $0["ruleId"] as? String == "ats.ambiguous" })
        let artifact = try #require(
            (((invocation["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])?[
                "artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == ArtifactRoot.defaultInvocationArtifact)
        #expect(artifact["uriBaseId"] as? String == ArtifactRoot.sourceRootID)
        #expect(
            (location["logicalLocations"] as? [[String: Any]])?.first?["name"] as? String == "deep.sub.example.com:443")

        let withFile = try Self.results(try Self.render(endpointsFile: "list.txt"))
        let again = try #require(withFile.first { $0["ruleId"] as? String == "ats.ambiguous" })
        let physical = try #require(
            ((again["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "list.txt")
        #expect(physical["region"] == nil)
    }

    @Test("file names with spaces become valid URI references")
    func uriEncoding() {
        #expect(ArtifactRoot.encoded("My App/Info.plist") == "My%20App/Info.plist")
    }
}

@Suite("SARIF rules come from the catalogue")
struct SARIFRuleCatalogueTests {
    static func rules(_ log: [String: Any]) throws -> (driver: [String: Any], rules: [String: [String: Any]]) {
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        return (driver, Dictionary(uniqueKeysWithValues: rules.map { ($0["id"] as? String ?? "", $0) }))
    }

    @Test("each catalogued rule carries its title, help, usual level and documentation link")
    func catalogueText() throws {
        let (driver, rules) = try Self.rules(try SARIFRendererTests.render())
        #expect(driver["informationUri"] as? String == RuleCatalogue.informationURL)
        var checked = 0
        for (id, rule) in rules {
            guard let entry = RuleCatalogue.atscheck.descriptor(for: RuleID(id)) else { continue }  // see unknownID()
            checked += 1
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == entry.title)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == entry.help)
            #expect((rule["help"] as? [String: Any])?["text"] as? String == entry.help)
            #expect(rule["helpUri"] as? String == entry.helpURI)
            #expect(
                (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
                    == SARIFRenderer.level(entry.severity))
        }
        #expect(checked >= 6, "plist findings, ATS violations, scan and verdict rules")
        // The ambiguous endpoint's violation is a warning result, but the rule's default level stays error.
        let fs = try #require(rules["ats.tls.forward-secrecy"])
        #expect((fs["helpUri"] as? String)?.hasSuffix("docs/rules.md#ats-tls-forward-secrecy") == true)
        #expect((fs["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
    }

    @Test("an id the catalogue does not know keeps a placeholder and its first level")
    func unknownID() throws {
        let (_, rules) = try Self.rules(try SARIFRendererTests.render())
        // ReportFixtures uses the made-up id trust.chain.
        let chain = try #require(rules["trust.chain"])
        #expect((chain["shortDescription"] as? [String: Any])?["text"] as? String == "atscheck rule trust.chain.")
        #expect(chain["helpUri"] == nil && chain["fullDescription"] == nil)
        #expect((chain["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
    }
}
