/// The formats a report is rendered in: `--format` and `--report FORMAT=PATH`.
///
/// Each case has exactly one renderer in ``ReportRendererRegistry/standard`` (a test checks it). To add a
/// format: a case here, a file in `Formats/` with a type conforming to ``ReportRenderer``, and a line in that
/// registry; no command changes (see docs/architecture.md, "How to add a report format").
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, jsonl, sarif, junit, markdown, github, codeclimate, html
}
