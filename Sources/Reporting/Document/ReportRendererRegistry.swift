import Foundation
import TLSModel

/// The renderers, one per ``OutputFormat``: the one place a format is looked up.
///
/// The CLI's `emit` renders every document through ``standard``; a registry of other renderers (a test's) renders
/// the same documents without any command changing.
package struct ReportRendererRegistry: Sendable {
    /// Every format atscheck writes: each ``OutputFormat`` case's ``OutputFormat/renderer`` (a test checks that
    /// each renders its own format).
    package static let standard = ReportRendererRegistry(OutputFormat.allCases.map(\.renderer))

    /// The renderers, in registration order.
    package let renderers: [any ReportRenderer]

    /// A registry of the given renderers; for a format registered twice, the first wins.
    /// - Parameter renderers: the renderers.
    package init(_ renderers: [any ReportRenderer]) {
        self.renderers = renderers
    }

    /// The renderer of a format.
    /// - Parameter format: the format.
    /// - Returns: its renderer.
    /// - Throws: ``ReportRenderingError`` when none is registered.
    package func renderer(for format: OutputFormat) throws -> any ReportRenderer {
        guard let renderer = renderers.first(where: { $0.format == format }) else {
            throw ReportRenderingError(format: format, reason: "no renderer is registered for it")
        }
        return renderer
    }

    /// The formats whose renderer shows a type of document, in ``OutputFormat`` order: what the command that
    /// reports it accepts (`plist --explain writes text, json, not sarif`).
    /// - Parameter document: the document type.
    /// - Returns: the formats.
    package func formats(showing document: any ReportDocument.Type) -> [OutputFormat] {
        OutputFormat.allCases.filter { format in
            renderers.first { $0.format == format }.map { document.isShown(by: $0) } ?? false
        }
    }

    /// Renders a document in a format: in pieces when the renderer writes this document so, else as text.
    /// - Parameters:
    ///   - document: what the command reports.
    ///   - format: the format.
    ///   - options: colour and the time.
    /// - Returns: the text, or a writer of pieces.
    /// - Throws: ``ReportRenderingError`` when the format does not show this type of document (or no renderer is
    ///   registered); what the renderer throws.
    package func output<Document: ReportDocument>(
        _ document: Document, as format: OutputFormat, options: RenderOptions
    ) throws -> RenderedReport {
        guard let body = Document.rendering(by: try renderer(for: format)).body else {
            throw ReportRenderingError(format: format, reason: "it does not show \(Document.name)")
        }
        return try body(document, options)
    }

    /// Renders a document in a format as one string (pieces joined).
    /// - Parameters:
    ///   - document: what the command reports.
    ///   - format: the format.
    ///   - options: colour and the time.
    /// - Returns: the text.
    /// - Throws: as ``output(_:as:options:)``.
    package func render<Document: ReportDocument>(
        _ document: Document, as format: OutputFormat, options: RenderOptions
    ) throws -> String {
        switch try output(document, as: format, options: options) {
        case .text(let text): return text
        case .pieces(let writer):
            var data = Data()
            try writer { data.append($0) }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
