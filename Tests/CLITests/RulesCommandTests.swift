import Foundation
import TLSModel
import Testing

@Suite("atscheck rules (CLI)")
struct RulesCommandTests {
    @Test("--format json lists the whole catalogue; markdown is docs/rules.md; text is the default")
    func formats() throws {
        let json = try CLI.run(["rules", "--format", "json"])
        #expect(json.status == 0)
        let rules = try #require((json.json as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == RuleCatalogue.all.map(\.id.rawValue))

        let markdown = try CLI.run(["rules", "--format", "markdown"])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        #expect(
            markdown.stdout == (try String(contentsOf: root.appendingPathComponent("docs/rules.md"), encoding: .utf8)))

        let text = try CLI.run(["rules"])
        #expect(
            text.status == 0 && text.stdout.contains("  trust.eku ") && text.stdout.contains("Apple certificate trust"))

        let bad = try CLI.run(["rules", "--format", "yaml"])
        #expect(bad.status == 64)
    }
}
