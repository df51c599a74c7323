import TLSModel

/// `--format text`, the default: the human report, coloured only on a terminal.
///
/// A standalone document (rules, explanations, extracted pins, a pin check, a diagnosis) is its own text, ending
/// with the trust data the run judged with; the others are the scan report, after the app's header and live
/// verdicts or the audit's policy note and the shard line, and before the pin check that goes with a `cert`.
package struct TextFormat: ReportRenderer {
    package let format = OutputFormat.text

    package init() {}

    package var scan: Rendering<ScanDocument> { .text { document, options in Self.report(document.report, options) } }

    package var audit: Rendering<AuditDocument> {
        .text { document, options in
            let note =
                document.audit.judgedUnderDefaultPolicy
                ? TextLayout.fit(AuditSection.defaultPolicyNote, width: options.width) + "\n\n" : ""
            return note + Self.report(document.report, options)
        }
    }

    package var app: Rendering<AppDocument> {
        .text { document, options in
            let app = document.app
            var text = AppText.header(app.facts, style: options.style, width: options.width)
            if let live = app.live { text += AppText.live(live, style: options.style, width: options.width) }
            return text + Self.report(document.report, options)
        }
    }

    package var diagnosis: Rendering<DiagnosisDocument> {
        .text { document, options in
            let section = document.diagnosis
            let text =
                section.tls.map {
                    TLSDiagnosticsTextRenderer.render($0, findings: section.findings, width: options.width)
                } ?? DiagnosticsTextRenderer.render(section, width: options.width)
            return text + Self.trustData(document.trustData, options)
        }
    }

    package var cert: Rendering<CertDocument> {
        .text { document, options in
            let text = Self.report(document.report, options)
            // `atscheck cert --pins` with one library: the chain's verdict, then how the library decided.
            guard let pins = document.pinCheck else { return text }
            return text + "\n" + PinsTextRenderer(style: options.style, width: options.width).render(pins)
        }
    }

    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            PinsTextRenderer(style: options.style, width: options.width).render(document.report)
                + Self.trustData(document.trustData, options)
        }
    }

    package var pinExtract: Rendering<PinExtractDocument> {
        .text { document, options in
            PinsTextRenderer(style: options.style, width: options.width).render(document.report)
                + Self.trustData(document.trustData, options)
        }
    }

    package var explanation: Rendering<ExplanationDocument> {
        .text { document, options in
            let plists = document.plists
            return plists.map { plist in
                (plists.count > 1
                    ? TextLayout.fit(
                        "== \(ControlEscaping.escape(plist.file))"
                            + (plist.explanation.configuration.map { " (\(ControlEscaping.escape($0)))" } ?? "") + "\n",
                        width: options.width) : "")
                    + ExplainTextRenderer.render(plist.explanation, style: options.style, width: options.width)
            }.joined()
        }
    }

    package var rules: Rendering<RuleCatalogueDocument> {
        .text { document, options in RuleCatalogueRenderer.text(document.rules, width: options.width) }
    }

    /// The shard line, if any, then the scan report.
    static func report(_ scan: ScanReport, _ options: RenderOptions) -> String {
        var text = ""
        if let shard = scan.shard {
            text += "shard \(shard.index)/\(shard.count): \(shard.selected) of \(shard.total) endpoints\n\n"
        }
        return text
            + ScanTextRenderer(
                catalogue: options.catalogue, style: options.style, now: options.now, width: options.width
            ).render(scan)
    }

    /// The line naming the trust data a report without a scan report was judged with, as a scan report ends.
    static func trustData(_ data: TrustDataInfo?, _ options: RenderOptions) -> String {
        guard let data, !data.summary.isEmpty else { return "" }
        return TextLayout.fit("Trust data: \(ControlEscaping.escape(data.summary))\n", width: options.width)
    }
}
