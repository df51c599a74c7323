import Foundation
import TLSModel

/// Renders every ``ReportDocument`` in one ``OutputFormat``: one conforming type per format, in `Formats/`, named
/// once in ``OutputFormat/renderer``.
///
/// One requirement per document type and no default implementations: a renderer that forgets a command's
/// document does not compile, and one that cannot show it says so with ``Rendering/unsupported``, which each
/// command's `validate()` reads before the run (``ReportRendererRegistry/formats(showing:)``). A renderer never
/// sees a command, only its document.
///
/// Requirements are values rather than methods so that whether a format shows a document is known without one.
package protocol ReportRenderer: Sendable {
    /// The format written.
    var format: OutputFormat { get }

    /// `scan`, `merge` of scans, `plist`.
    var scan: Rendering<ScanDocument> { get }
    /// `audit`, `merge` of audits.
    var audit: Rendering<AuditDocument> { get }
    /// `app`, offline or live.
    var app: Rendering<AppDocument> { get }
    /// `diagnose`.
    var diagnosis: Rendering<DiagnosisDocument> { get }
    /// `cert`.
    var cert: Rendering<CertDocument> { get }
    /// `pins check`.
    var pinCheck: Rendering<PinCheckDocument> { get }
    /// `pins extract`.
    var pinExtract: Rendering<PinExtractDocument> { get }
    /// `plist --explain`.
    var explanation: Rendering<ExplanationDocument> { get }
    /// `rules`.
    var rules: Rendering<RuleCatalogueDocument> { get }
}

/// How a format shows one type of document: as one string, in pieces, or not at all.
package struct Rendering<Document>: Sendable {
    /// Renders a document; nil when the format does not show this type.
    let body: (@Sendable (Document, RenderOptions) throws -> RenderedReport)?

    /// The format does not show this type of document: a command whose document it is refuses the format in
    /// `validate()`, naming the formats that do.
    package static var unsupported: Rendering { Rendering(body: nil) }

    /// The document as one string.
    /// - Parameter render: the rendering, newline-terminated where the format has lines; it throws an
    ///   `EncodingError` or what the format's renderer throws.
    /// - Returns: the rendering.
    package static func text(_ render: @escaping @Sendable (Document, RenderOptions) throws -> String) -> Rendering {
        Rendering { document, options in .text(try render(document, options)) }
    }

    /// The document as a writer of pieces (or as text where it is small): for a document too large to render as
    /// one string (a batch scan's JSON). The pieces concatenate to what the one string would be.
    /// - Parameter render: the rendering.
    /// - Returns: the rendering.
    package static func output(
        _ render: @escaping @Sendable (Document, RenderOptions) throws -> RenderedReport
    ) -> Rendering {
        Rendering(body: render)
    }

    /// Whether the format shows this type of document.
    package var isSupported: Bool { body != nil }
}

/// Writes a report in pieces to a sink (``JSONStreamRendering``).
package typealias ReportPieces = (_ sink: (Data) throws -> Void) throws -> Void

/// How a document is rendered, beyond its format.
package struct RenderOptions: Sendable {
    /// The rule catalogue rules are described from (SARIF rule metadata, the HTML report's rule help) and grouped
    /// by (their family). The facade assembles it from every module's registry (`RuleCatalogue.atscheck` in
    /// `ATSCheckKit`): this module sees none of them.
    package var catalogue: RuleCatalogue
    /// ANSI colour in text (only to a terminal: the CLI decides).
    package var color: Bool
    /// The time certificate validity is judged against in text (injected for golden tests).
    package var now: Date
    /// The display columns text is fitted to (``TextLayout``): the terminal's width, 80 off a terminal; `Int.max`
    /// leaves lines as long as they are. The machine formats ignore it.
    package var width: Int

    /// - Parameters:
    ///   - catalogue: the rule catalogue.
    ///   - color: ANSI colour in text.
    ///   - now: the time certificate validity is judged against.
    ///   - width: the display columns text is fitted to.
    package init(
        catalogue: RuleCatalogue, color: Bool = false, now: Date = Date(), width: Int = TextLayout.defaultWidth
    ) {
        self.catalogue = catalogue
        self.color = color
        self.now = now
        self.width = width
    }

    /// The text styling of ``color``.
    package var style: TextStyle { TextStyle(enabled: color) }
}

/// One rendered output: text, or a writer of pieces (``Rendering/output(_:)``).
package enum RenderedReport {
    case text(String)
    case pieces(ReportPieces)
}

/// A document a format cannot render: the format does not show its type (``Rendering/unsupported``),
/// or no renderer is registered for the format.
package struct ReportRenderingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The format asked for.
    package var format: OutputFormat
    /// What is wrong.
    package var reason: String

    /// - Parameters:
    ///   - format: the format asked for.
    ///   - reason: what is wrong.
    package init(format: OutputFormat, reason: String) {
        self.format = format
        self.reason = reason
    }

    package var description: String { "cannot render \(format.rawValue): \(reason)" }
}
