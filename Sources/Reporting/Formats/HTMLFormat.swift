import TLSModel

/// `--format html`, `--report html=PATH`: the release report a person opens in a browser (``HTMLReport``): one
/// self-contained page with the endpoints × OS-era matrix, each failure's rule, reason and fix, the minimal
/// exceptions to paste and the pin checks of the release and debug builds.
public struct HTMLFormat: ReportRenderer {
    public let format = OutputFormat.html
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        HTMLReport(document: document, now: options.now, catalogue: options.catalogue).render()
    }
}
