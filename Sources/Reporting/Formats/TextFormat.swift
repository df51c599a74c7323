import TLSModel

/// `--format text`, the default: the human report, coloured only on a terminal.
///
/// A standalone section (rules, explanations, extracted pins, a pin check, a diagnosis) is its own text;
/// otherwise the app's header and live verdicts, the audit's policy note, the shard line, the scan report, then a pin
/// check that goes with it (`cert --pins`).
public struct TextFormat: ReportRenderer {
    public let format = OutputFormat.text
    public let sections = Set(ReportDocument.Section.allCases)

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        let style = options.style
        if let rules = document.rules { return RuleCatalogueRenderer.text(rules) }
        if let explanations = document.explanations {
            return explanations.map { plist in
                (explanations.count > 1 ? "== \(ControlEscaping.escape(plist.file))\n" : "")
                    + ExplainTextRenderer.render(plist.explanation, style: style)
            }.joined()
        }
        if let extract = document.pinExtract { return PinsTextRenderer(style: style).render(extract) }
        if let pins = document.pins, document.scan == nil { return PinsTextRenderer(style: style).render(pins) }
        if let diagnosis = document.diagnosis { return DiagnosticsTextRenderer.render(diagnosis) }
        var text = ""
        if let app = document.app {
            text += AppText.header(app.facts, style: style)
            if let live = app.live { text += AppText.live(live, style: style) }
        }
        if document.audit?.judgedUnderDefaultPolicy == true { text += AuditSection.defaultPolicyNote + "\n\n" }
        let scan = try document.requireScan(for: format)
        if let shard = scan.shard {
            text += "shard \(shard.index)/\(shard.count): \(shard.selected) of \(shard.total) endpoints\n\n"
        }
        text += ScanTextRenderer(style: style, now: options.now).render(scan)
        // `atscheck cert --pins` with one library: the chain's verdict, then how the library decided.
        if let pins = document.pins { text += "\n" + PinsTextRenderer(style: style).render(pins) }
        return text
    }
}
