import ATSCheckKit
import ArgumentParser
import Foundation
import Reporting
import TLSModel

/// `atscheck rules`: the catalogue of every rule id the tool reports.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule id atscheck reports, with its severity, meaning and fix.",
        discussion: """
            --format markdown prints docs/rules.md (the documentation SARIF helpUri links point at); \
            --format json prints the catalogue for tools. Give rule ids to print only those: \
            `atscheck rules trust.key-usage`.
            """
    )

    /// The formats of the catalogue: those whose renderer shows a ``RuleCatalogueDocument`` (kept as its own list so
    /// that `--help` and the message for another value stay as they were).
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json

        var outputFormat: OutputFormat {
            switch self {
            case .text: return .text
            case .markdown: return .markdown
            case .json: return .json
            }
        }
    }

    @Argument(help: ArgumentHelp("Only these rules (e.g. trust.key-usage): their help and fix.", valueName: "id"))
    var ids: [String] = []

    @Option(name: .long, help: "Output format.")
    var format: Format = .text

    func validate() throws {
        let known = Set(RuleCatalogue.atscheck.all.map(\.id.rawValue))
        for id in ids where !known.contains(id) {
            let near = known.filter { $0.hasPrefix(id) || id.hasPrefix($0) || $0.contains(id) }.sorted()
            throw ValidationError(
                "no rule '\(id)'"
                    + (near.isEmpty
                        ? "; `atscheck rules` lists them all"
                        : ": did you mean \(near.prefix(5).joined(separator: ", "))?"))
        }
    }

    func run() throws {
        let rules =
            ids.isEmpty
            ? RuleCatalogue.atscheck.all : RuleCatalogue.atscheck.all.filter { ids.contains($0.id.rawValue) }
        guard ids.isEmpty || format != .text else {
            // Named rules: each one's whole help (what it means and how to fix it), not the catalogue's one line.
            let text = rules.map { rule in
                "\(rule.id.rawValue) (\(rule.severity.rawValue)): \(rule.title)\n\n\(rule.help)\n"
                    + (rule.standards.tags.isEmpty ? "" : "\nOWASP: \(rule.standards.tags.joined(separator: ", "))")
                    + "\nMore: \(rule.helpURI)\n"
            }.joined(separator: "\n")
            // Paragraphs of prose: their lines continue at their own indent.
            let width = Terminal.width()
            let fitted = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                TextLayout.wrap(String(line), width: width, hang: line.prefix { $0 == " " }.count)
            }.joined(separator: "\n")
            FileHandle.standardOutput.write(Data(fitted.utf8))
            return
        }
        try OutputOptions.emit(RuleCatalogueDocument(rules: rules), as: format.outputFormat, color: false)
    }
}
