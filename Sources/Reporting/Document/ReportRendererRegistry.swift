import Foundation
import TLSModel

/// The renderers, one per ``OutputFormat``: the one place a format is looked up.
///
/// The CLI's `emit` renders every document through ``standard``; a registry of other renderers (a test's) renders
/// the same documents without any command changing.
public struct ReportRendererRegistry: Sendable {
    /// Every format atscheck writes. Adding a format adds its renderer here (a test checks that each
    /// ``OutputFormat`` case has exactly one).
    public static let standard = ReportRendererRegistry([
        TextFormat(), JSONFormat(), JSONLinesFormat(), SARIFFormat(), JUnitFormat(), MarkdownFormat(), GitHubFormat(),
        CodeClimateFormat(), HTMLFormat(),
    ])

    /// The renderers, in registration order.
    public let renderers: [any ReportRenderer]

    /// A registry of the given renderers; for a format registered twice, the first wins.
    /// - Parameter renderers: the renderers.
    public init(_ renderers: [any ReportRenderer]) {
        self.renderers = renderers
    }

    /// The renderer of a format.
    /// - Parameter format: the format.
    /// - Returns: its renderer.
    /// - Throws: ``ReportRenderingError`` when none is registered.
    public func renderer(for format: OutputFormat) throws -> any ReportRenderer {
        guard let renderer = renderers.first(where: { $0.format == format }) else {
            throw ReportRenderingError(format: format, reason: "no renderer is registered for it")
        }
        return renderer
    }

    /// The formats whose renderer shows a section, in ``OutputFormat`` order: what a command whose document
    /// has that section accepts (`plist --explain writes text, json, not sarif`).
    /// - Parameter section: the section.
    /// - Returns: the formats.
    public func formats(showing section: ReportDocument.Section) -> [OutputFormat] {
        OutputFormat.allCases.filter { format in
            renderers.first { $0.format == format }?.sections.contains(section) ?? false
        }
    }

    /// Renders a document in a format: in pieces when the renderer writes this document so, else as text.
    /// - Parameters:
    ///   - document: what the command reports.
    ///   - format: the format.
    ///   - options: colour and the time.
    /// - Returns: the text, or a writer of pieces.
    /// - Throws: ``ReportRenderingError`` when the document has a section the format does not show (or no
    ///   renderer is registered); what the renderer throws.
    public func output(
        _ document: ReportDocument, as format: OutputFormat, options: RenderOptions
    ) throws -> RenderedReport {
        let renderer = try renderer(for: format)
        if let section = document.sections.first(where: { !renderer.sections.contains($0) }) {
            throw ReportRenderingError(format: format, reason: "it does not show \(section.rawValue)")
        }
        if let pieces = renderer.pieces(document, options: options) { return .pieces(pieces) }
        return .text(try renderer.render(document, options: options))
    }

    /// Renders a document in a format as one string (pieces joined).
    /// - Parameters:
    ///   - document: what the command reports.
    ///   - format: the format.
    ///   - options: colour and the time.
    /// - Returns: the text.
    /// - Throws: as ``output(_:as:options:)``.
    public func render(
        _ document: ReportDocument, as format: OutputFormat, options: RenderOptions
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
