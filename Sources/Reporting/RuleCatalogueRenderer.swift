import Foundation
import TLSModel

/// Renders the rule catalogue (``RuleCatalogue``) for `atscheck rules`: the Markdown of `docs/rules.md`,
/// JSON for tools, and a plain listing.
package enum RuleCatalogueRenderer {
    /// The Markdown of `docs/rules.md`: one section per family, one entry per rule, each with an explicit
    /// anchor (``RuleDescriptor/anchor``) that SARIF `helpUri` points at.
    /// - Parameter entries: The rules to document (`RuleCatalogue.all`, or some of them).
    /// - Returns: Markdown text ending in a newline.
    package static func markdown(_ entries: [RuleDescriptor]) -> String {
        var lines = [
            "# atscheck rules",
            "",
            "<!-- Generated from the rule catalogue (Sources/TLSModel/Rules) by `atscheck rules --format markdown`;",
            "     do not edit. Tests fail when this file is stale: ATSCHECK_RECORD_SNAPSHOTS=1 swift test rewrites "
                + "it. -->",
            "",
            "Every rule id atscheck reports, by family: what it means, what Apple does, and how to fix it.",
            "The severity is the usual one; a few plist and audit rules vary it with context (the text says when).",
            "Ids are stable: a retired rule keeps its id unused.",
            "",
        ]
        for family in RuleFamily.allCases {
            let rules = entries.filter { $0.family == family }
            guard !rules.isEmpty else { continue }
            lines += ["## \(family.title)", ""]
            lines += ["| id | severity | rule |", "| --- | --- | --- |"]
            for rule in rules {
                lines.append("| [`\(rule.id)`](#\(rule.anchor)) | \(rule.severity.rawValue) | \(escape(rule.title)) |")
            }
            lines.append("")
            for rule in rules {
                lines += ["<a id=\"\(rule.anchor)\"></a>", "### `\(rule.id)`", "", "**\(rule.title)**", ""]
                var facts = ["Severity: \(rule.severity.rawValue)."]
                if let key = rule.appleKey { facts.append("Info.plist key: `\(key)`.") }
                if !rule.standards.tags.isEmpty {
                    facts.append("OWASP: \(rule.standards.tags.joined(separator: ", ")).")
                }
                lines += [facts.joined(separator: " "), "", rule.help, ""]
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One line per rule: id, severity, title; families as headings. A title wraps under its column.
    /// - Parameters:
    ///   - entries: The rules to list (`RuleCatalogue.all`, or some of them).
    ///   - width: The display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: Plain text ending in a newline.
    package static func text(_ entries: [RuleDescriptor], width: Int = TextLayout.defaultWidth)
        -> String
    {
        // One set of columns for every family, sized from the ids listed.
        let columns = [entries.map(\.id.rawValue.count).max() ?? 0, 7]
        var lines: [String] = []
        for family in RuleFamily.allCases {
            let rules = entries.filter { $0.family == family }
            guard !rules.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(TextLayout.wrap(family.title.replacingOccurrences(of: "`", with: ""), width: width))
            let rows = rules.map { [$0.id.rawValue, $0.severity.rawValue, $0.title] }
            lines += TextLayout.table(rows, indent: 2, width: width, columns: columns + [0])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The catalogue as JSON: `{"rules": [{id, family, severity, title, help, appleKey, helpUri, masvs, mastg}]}`.
    /// - Parameter entries: The rules to render (`RuleCatalogue.all`, or some of them).
    /// - Returns: Pretty-printed JSON with sorted keys.
    /// - Throws: An `EncodingError` if encoding fails (it does not for catalogue entries).
    package static func json(_ entries: [RuleDescriptor]) throws -> String {
        try JSONRendering.render(Document(rules: entries.map(Entry.init)))
    }

    struct Document: Encodable {
        var rules: [Entry]
    }

    struct Entry: Encodable {
        var id: RuleID
        var family: RuleFamily
        var severity: Finding.Severity
        var title: String
        var help: String
        var appleKey: String?
        var helpUri: String
        var masvs: [String]?
        var mastg: [String]?

        init(_ rule: RuleDescriptor) {
            (id, family, severity, title, help) = (rule.id, rule.family, rule.severity, rule.title, rule.help)
            (appleKey, helpUri) = (rule.appleKey, rule.helpURI)
            let standards = rule.standards
            (masvs, mastg) = (
                standards.masvs.isEmpty ? nil : standards.masvs, standards.mastg.isEmpty ? nil : standards.mastg
            )
        }
    }

    /// A table cell: pipes escaped.
    private static func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
