import ATSCheckKit
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
        #expect(rules.compactMap { $0["id"] as? String } == RuleCatalogue.atscheck.all.map(\.id.rawValue))

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

    @Test("rules ID prints that rule's whole help and fix; an unknown id is a usage error that suggests near ones")
    func oneRule() throws {
        let one = try CLI.run(["rules", "trust.key-usage"])
        #expect(one.status == 0)
        let descriptor = try #require(RuleCatalogue.atscheck.all.first { $0.id.rawValue == "trust.key-usage" })
        #expect(one.stdout.hasPrefix("trust.key-usage (warning): "))
        // The help is wrapped to the width (80 in a pipe): the same words, in order.
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(flat(one.stdout).contains(flat(descriptor.help)))
        #expect(!one.stdout.contains("trust.eku"))
        let json = try CLI.run(["rules", "trust.eku", "trust.sha1", "--format", "json"])
        let rules = try #require((json.json as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(Set(rules.compactMap { $0["id"] as? String }) == ["trust.eku", "trust.sha1"])
        let unknown = try CLI.run(["rules", "trust.key"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no rule 'trust.key': did you mean trust.key-algorithm, trust.key-size"))
    }
}
