import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

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

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown, json
    }

    @Option(name: .long, help: "Output format.")
    var format: Format = .text

    func run() throws {
        switch format {
        case .text: print(RuleCatalogueRenderer.text(), terminator: "")
        case .markdown: print(RuleCatalogueRenderer.markdown(), terminator: "")
        case .json: print(try RuleCatalogueRenderer.json(), terminator: "")
        }
    }
}
