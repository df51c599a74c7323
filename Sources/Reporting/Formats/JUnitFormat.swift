import TLSModel

/// `--format junit`: JUnit XML test cases per endpoint and finding (``JUnitRenderer``; a pin check:
/// ``PinsFormats/junit(_:)``).
public struct JUnitFormat: ReportRenderer {
    public let format = OutputFormat.junit
    public let sections: Set<ReportDocument.Section> = [.scan, .audit, .app, .diagnosis, .pins]

    public init() {}

    public func render(_ document: ReportDocument, options: RenderOptions) throws -> String {
        if let pins = document.pins, document.scan == nil {
            return PinsFormats.junit(pins, catalogue: options.catalogue)
        }
        return JUnitRenderer.render(try document.requireScan(for: format), catalogue: options.catalogue)
    }
}
