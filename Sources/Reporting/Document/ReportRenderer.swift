import Foundation
import TLSModel

/// Renders a ``ReportDocument`` in one ``OutputFormat``: one conforming type per format, in `Formats/`, listed
/// once in ``ReportRendererRegistry/standard``.
///
/// A renderer decides how its format shows each section; it never sees a command. A document with a section
/// the renderer does not show is refused (``ReportRenderingError``), and commands refuse such a format before
/// they run (``ReportRendererRegistry/formats(showing:)``).
public protocol ReportRenderer: Sendable {
    /// The format written.
    var format: OutputFormat { get }

    /// The sections a document may have for this format (every other section is refused, not dropped).
    var sections: Set<ReportDocument.Section> { get }

    /// The document as one string.
    /// - Parameters:
    ///   - document: what the command reports.
    ///   - options: colour and the time certificates are judged against.
    /// - Returns: the rendering, newline-terminated where the format has lines.
    /// - Throws: an `EncodingError`, or ``ReportRenderingError`` when a section this format needs is missing.
    func render(_ document: ReportDocument, options: RenderOptions) throws -> String

    /// A writer of the document in pieces, for a document too large to render as one string (a batch scan's
    /// JSON); nil: ``render(_:options:)``. The pieces concatenate to exactly what ``render(_:options:)`` returns.
    /// - Parameters:
    ///   - document: what the command reports.
    ///   - options: as for ``render(_:options:)``.
    /// - Returns: the writer, or nil (the default).
    func pieces(_ document: ReportDocument, options: RenderOptions) -> ReportPieces?
}

extension ReportRenderer {
    /// Rendered as one string.
    public func pieces(_ document: ReportDocument, options: RenderOptions) -> ReportPieces? { nil }
}

/// Writes a report in pieces to a sink (``JSONStreamRendering``).
public typealias ReportPieces = (_ sink: (Data) throws -> Void) throws -> Void

/// How a document is rendered, beyond its format.
public struct RenderOptions: Sendable {
    /// The rule catalogue rules are described from (SARIF rule metadata, the HTML report's rule help) and grouped
    /// by (their family). The facade assembles it from every module's registry (`RuleCatalogue.atscheck` in
    /// `ATSCheckKit`): this module sees none of them.
    public var catalogue: RuleCatalogue
    /// ANSI colour in text (only to a terminal: the CLI decides).
    public var color: Bool
    /// The time certificate validity is judged against in text (injected for golden tests).
    public var now: Date
    /// The display columns text is fitted to (``TextLayout``): the terminal's width, 80 off a terminal; `Int.max`
    /// leaves lines as long as they are. The machine formats ignore it.
    public var width: Int

    /// - Parameters:
    ///   - catalogue: the rule catalogue.
    ///   - color: ANSI colour in text.
    ///   - now: the time certificate validity is judged against.
    ///   - width: the display columns text is fitted to.
    public init(
        catalogue: RuleCatalogue, color: Bool = false, now: Date = Date(), width: Int = TextLayout.defaultWidth
    ) {
        self.catalogue = catalogue
        self.color = color
        self.now = now
        self.width = width
    }

    /// The text styling of ``color``.
    public var style: TextStyle { TextStyle(enabled: color) }
}

/// One rendered output: text, or a writer of pieces (``ReportRenderer/pieces(_:options:)``).
public enum RenderedReport {
    case text(String)
    case pieces(ReportPieces)
}

/// A document a format cannot render: it has a section the format does not show, lacks one the format needs,
/// or no renderer is registered for the format.
public struct ReportRenderingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The format asked for.
    public var format: OutputFormat
    /// What is wrong.
    public var reason: String

    /// - Parameters:
    ///   - format: the format asked for.
    ///   - reason: what is wrong.
    public init(format: OutputFormat, reason: String) {
        self.format = format
        self.reason = reason
    }

    public var description: String { "cannot render \(format.rawValue): \(reason)" }
}

extension ReportDocument {
    /// The scan report, which every format but text and JSON shows of a document that is not a pin check.
    /// - Throws: ``ReportRenderingError`` when the document has none.
    func requireScan(for format: OutputFormat) throws -> ScanReport {
        guard let scan else { throw ReportRenderingError(format: format, reason: "the document has no scan report") }
        return scan
    }
}
