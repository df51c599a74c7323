import TLSModel

/// `--format markdown`: a pull-request comment (``MarkdownRenderer``), after the audit's policy note as a quote;
/// a pin check's table (``PinsFormats/markdown(_:)``); the rule catalogue of docs/rules.md.
public struct MarkdownFormat: ReportRenderer {
    public let format = OutputFormat.markdown
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins, .rules]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        if let rules = document.rules { return RuleCatalogueRenderer.markdown(rules) }
        if let pins = document.pins, document.scan == nil { return PinsFormats.markdown(pins) }
        let note = document.audit?.judgedUnderDefaultPolicy == true ? "> \(AuditSection.defaultPolicyNote)\n\n" : ""
        return note + MarkdownRenderer.render(try document.requireScan(for: format), catalogue: options.catalogue)
    }
}
