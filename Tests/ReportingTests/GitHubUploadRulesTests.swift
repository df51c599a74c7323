import ATSCheckKit
import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import Reporting

/// GitHub code scanning rejects a whole SARIF file when one result lacks a physical location (issue 24: `scan TARGET`
/// did). Every command's SARIF is checked against the 2.1.0 schema and against GitHub's documented upload rules.
@Suite("SARIF that GitHub code scanning accepts")
struct GitHubUploadRulesTests {
    static let sarifCases = DocumentFixtures.all.filter { $0.formats.contains(.sarif) }

    @Test(
        "every command's SARIF: schema-valid, and every result has a physical location GitHub accepts",
        arguments: sarifCases)
    func everyCommand(_ fixture: DocumentFixtures.Case) throws {
        for root in [nil, ArtifactRoot(sourceRoot: "/repo", workingDirectory: "/repo/app")] {
            var document = fixture.document
            if let root { document.complete(root: root, trustData: nil) }
            let text = try ReportRendererRegistry.standard.render(document, as: .sarif, options: RenderOptions())
            let schema = try SARIFSchemaValidator.validate(text)
            #expect(schema.ok, "\(fixture.command): \(schema.output)")
            let violations = GitHubSARIFRules.violations(text)
            #expect(violations.isEmpty, "\(fixture.command): \(violations)")
        }
    }

    @Test("the rules check fails on a result without a physical location, a bad base id and a bad severity")
    func rulesCanFail() {
        let bad = """
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "rules": [
              {"id": "r", "properties": {"security-severity": "high", "tags": ["a"]}}]}},
              "originalUriBaseIds": {"%SRCROOT%": {"uri": "file:///repo/"}},
              "results": [
                {"ruleId": "r", "ruleIndex": 0, "message": {"text": "m"},
                 "locations": [{"logicalLocations": [{"fullyQualifiedName": "api.example.com:443"}]}]},
                {"ruleId": "r", "ruleIndex": 0, "message": {"text": "m"},
                 "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a", "uriBaseId": "ROOT"}}}]}]}]}
            """
        let violations = GitHubSARIFRules.violations(bad)
        #expect(violations.contains { $0.contains("without a physicalLocation") }, "\(violations)")
        #expect(violations.contains { $0.contains("uriBaseId ROOT is not in originalUriBaseIds") }, "\(violations)")
        #expect(violations.contains { $0.contains("security-severity") }, "\(violations)")
    }

    @Test("repository-relative URIs: inside the root relative to %SRCROOT%, outside an absolute file URI")
    func repositoryRelative() throws {
        let root = ArtifactRoot(sourceRoot: "/repo", workingDirectory: "/repo/app")
        #expect(root.location(of: "Info.plist") == ("app/Info.plist", "%SRCROOT%"))
        #expect(root.location(of: "../ats/endpoints.yaml") == ("ats/endpoints.yaml", "%SRCROOT%"))
        #expect(root.location(of: "/repo/My App/Info.plist") == ("My%20App/Info.plist", "%SRCROOT%"))
        #expect(root.location(of: "/tmp/list.txt") == ("file:///tmp/list.txt", nil))
        #expect(root.location(of: "/repository/x") == ("file:///repository/x", nil), "a prefix is not a parent")
        #expect(root.sourceRootURI == "file:///repo/")

        let document = ScanDocument(
            report: ReportFixtures.report, sources: ReportSources(plistFile: "Info.plist", root: root))
        let text = try ReportRendererRegistry.standard.render(document, as: .sarif, options: RenderOptions())
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"] == "file:///repo/")
        let uris = Set(
            (run["results"] as? [[String: Any]] ?? []).compactMap {
                ((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                    "artifactLocation"] as? [String: Any])?["uri"] as? String
            })
        #expect(uris.contains("app/Info.plist") && uris.contains("app/endpoints.txt"), "\(uris)")

        // Targets given on the command line: the invocation artifact, the workflow file under GitHub Actions.
        #expect(
            ArtifactRoot.workflowFile("octo/app/.github/workflows/ats.yml@refs/heads/main")
                == ".github/workflows/ats.yml")
        #expect(ArtifactRoot.workflowFile("nonsense") == nil)
    }

    @Test("rules carry their OWASP MASVS control and MASTG test as tags and properties")
    func masvsTags() throws {
        let text = try SARIFRenderer.render(ReportFixtures.report, plistFile: "Info.plist", endpointsFile: nil)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let driver = try #require(
            ((log["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = Dictionary(
            uniqueKeysWithValues: (driver["rules"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
        let fs = try #require(rules["ats.tls.forward-secrecy"]?["properties"] as? [String: Any])
        #expect((fs["tags"] as? [String])?.contains("MASVS-NETWORK-1") == true)
        #expect(fs["mastg"] as? [String] == ["MASTG-TEST-0066"])
        #expect(fs["security-severity"] as? String == "7.5")
        let unreachable = try #require(rules["scan.unreachable"]?["properties"] as? [String: Any])
        #expect(unreachable["masvs"] == nil, "a scan that did not finish checks no control")
        // Every catalogue rule of the pin families names MASVS-NETWORK-2.
        for entry in RuleCatalogue.atscheck.all where entry.family == .pins {
            #expect(entry.standards.masvs == ["MASVS-NETWORK-2"], "\(entry.id)")
        }
        for entry in RuleCatalogue.atscheck.all where entry.family == .trust {
            #expect(entry.standards.mastg == ["MASTG-TEST-0067"], "\(entry.id)")
        }
    }
}
