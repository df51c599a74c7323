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
            --format json prints the catalogue for tools.
            """
    )

    /// The formats of the catalogue: those whose renderer shows ``ReportDocument/rules`` (kept as its own list so
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

    @Option(name: .long, help: "Output format.")
    var format: Format = .text

    func run() throws {
        try OutputOptions.emit(ReportDocument(rules: RuleCatalogue.all), as: format.outputFormat, color: false)
    }
}
