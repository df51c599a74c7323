/// The formats a report is rendered in: `--format` and `--report FORMAT=PATH`.
///
/// Each case names its renderer in ``renderer`` (the switch does not compile without it), and
/// ``ReportRendererRegistry/standard`` is those renderers. To add a format: a case and its line in ``renderer``
/// here, and a file in `Formats/` with a type conforming to ``ReportRenderer``; no command changes (see
/// docs/architecture.md, "How to add a report format").
package enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, jsonl, sarif, junit, markdown, github, codeclimate, html

    /// The format's renderer in ``ReportRendererRegistry/standard``.
    package var renderer: any ReportRenderer {
        switch self {
        case .text: TextFormat()
        case .json: JSONFormat()
        case .jsonl: JSONLinesFormat()
        case .sarif: SARIFFormat()
        case .junit: JUnitFormat()
        case .markdown: MarkdownFormat()
        case .github: GitHubFormat()
        case .codeclimate: CodeClimateFormat()
        case .html: HTMLFormat()
        }
    }
}
