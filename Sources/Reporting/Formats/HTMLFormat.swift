import Foundation
import TLSModel

/// `--format html`, `--report html=PATH`: the release report a person opens in a browser (``HTMLReport``): one
/// self-contained page with the endpoints × OS-era matrix, each failure's rule, reason and fix, the minimal
/// exceptions to paste and the pin checks of the release and debug builds.
package struct HTMLFormat: ReportRenderer {
    package let format = OutputFormat.html

    package init() {}

    package var scan: Rendering<ScanDocument> {
        .text { document, options in
            Self.page(.init(scan: document.report), .init(scan: document.report, sources: document.sources), options)
        }
    }
    package var audit: Rendering<AuditDocument> {
        .text { document, options in
            Self.page(.audit, .init(scan: document.report, audit: document.audit, sources: document.sources), options)
        }
    }
    package var app: Rendering<AppDocument> {
        .text { document, options in
            Self.page(.app, .init(scan: document.report, app: document.app, sources: document.sources), options)
        }
    }
    package var diagnosis: Rendering<DiagnosisDocument> {
        .text { document, options in
            let content = HTMLReport.Content(
                scan: document.report, diagnosis: document.diagnosis, sources: document.sources)
            return Self.page(.diagnose, content, options)
        }
    }
    package var cert: Rendering<CertDocument> {
        .text { document, options in
            let content = HTMLReport.Content(scan: document.report, pins: document.pinCheck, sources: document.sources)
            return Self.page(.init(scan: document.report), content, options)
        }
    }
    package var pinCheck: Rendering<PinCheckDocument> {
        .text { document, options in
            Self.page(.pinsCheck, .init(pins: document.report, sources: document.sources), options)
        }
    }
    package var pinExtract: Rendering<PinExtractDocument> { .unsupported }
    package var explanation: Rendering<ExplanationDocument> { .unsupported }
    package var rules: Rendering<RuleCatalogueDocument> { .unsupported }

    static func page(_ kind: HTMLReport.Kind, _ content: HTMLReport.Content, _ options: RenderOptions) -> String {
        HTMLReport(kind: kind, document: content, now: options.now, catalogue: options.catalogue).render()
    }
}
