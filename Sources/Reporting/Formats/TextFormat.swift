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
        let width = options.width
        if let rules = document.rules { return RuleCatalogueRenderer.text(rules, width: width) }
        if let explanations = document.explanations {
            return explanations.map { plist in
                (explanations.count > 1
                    ? TextLayout.fit(
                        "== \(ControlEscaping.escape(plist.file))"
                            + (plist.explanation.configuration.map { " (\(ControlEscaping.escape($0)))" } ?? "") + "\n",
                        width: width) : "")
                    + ExplainTextRenderer.render(plist.explanation, style: style, width: width)
            }.joined()
        }
        let pinsText = PinsTextRenderer(style: style, width: width)
        // The reports without a scan report end with the trust data the run judged with, as a scan report does.
        let trustData =
            document.trustData.map { data in
                data.summary.isEmpty
                    ? "" : TextLayout.fit("Trust data: \(ControlEscaping.escape(data.summary))\n", width: width)
            } ?? ""
        if let extract = document.pinExtract { return pinsText.render(extract) + trustData }
        if let pins = document.pins, document.scan == nil { return pinsText.render(pins) + trustData }
        if let diagnosis = document.diagnosis {
            return DiagnosticsTextRenderer.render(diagnosis, width: width) + trustData
        }
        var text = ""
        if let app = document.app {
            text += AppText.header(app.facts, style: style, width: width)
            if let live = app.live { text += AppText.live(live, style: style, width: width) }
        }
        if document.audit?.judgedUnderDefaultPolicy == true {
            text += TextLayout.fit(AuditSection.defaultPolicyNote, width: width) + "\n\n"
        }
        let scan = try document.requireScan(for: format)
        if let shard = scan.shard {
            text += "shard \(shard.index)/\(shard.count): \(shard.selected) of \(shard.total) endpoints\n\n"
        }
        text += ScanTextRenderer(catalogue: options.catalogue, style: style, now: options.now, width: width).render(
            scan)
        // `atscheck cert --pins` with one library: the chain's verdict, then how the library decided.
        if let pins = document.pins { text += "\n" + pinsText.render(pins) }
        return text
    }
}
