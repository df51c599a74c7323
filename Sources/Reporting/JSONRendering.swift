import Foundation
import TLSModel

/// JSON is the model: every other format renders the same values.
package enum JSONRendering {
    /// The encoder every JSON output uses: sorted keys, ISO-8601 dates, DER as base64.
    package static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The decoder matching ``encoder(pretty:)``.
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        return decoder
    }

    /// Renders any Codable value as JSON text with a trailing newline.
    package static func render<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let data = try encoder(pretty: pretty).encode(value)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// JSON Lines (`--format jsonl`): one compact endpoint a line, then `{"summary": …, "findings": […]}`.
package enum JSONLinesRendering {
    /// One endpoint as a line (compact JSON, sorted keys, newline-terminated).
    package static func line(_ endpoint: EndpointResult) throws -> String {
        try compact(endpoint)
    }

    /// The last line: the report's summary and findings.
    package static func summaryLine(_ report: ScanReport) throws -> String {
        try compact(SummaryLine(summary: report.summary, findings: report.findings, partial: report.partial))
    }

    /// Compact JSON with the JSON report's conventions (sorted keys, `/` unescaped, ISO-8601, base64).
    static func compact<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONRendering.encoder(pretty: false)
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// The whole report as JSON Lines (what a stream writes, in report order).
    package static func render(_ report: ScanReport) throws -> String {
        try report.endpoints.map(line).joined() + summaryLine(report)
    }

    struct SummaryLine: Encodable {
        var summary: ReportSummary
        var findings: [Finding]
        /// The last line of an interrupted scan says so (absent otherwise): the lines before it are what completed.
        var partial: PartialScan?
    }
}
