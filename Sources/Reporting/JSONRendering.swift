import Foundation
import TLSModel

/// JSON is the model: every other format renders the same values.
public enum JSONRendering {
    /// The encoder every JSON output uses: sorted keys, ISO-8601 dates, DER as base64.
    public static func encoder(pretty: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The decoder matching ``encoder(pretty:)``.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .base64
        return decoder
    }

    /// Renders any Codable value as JSON text with a trailing newline.
    public static func render<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let data = try encoder(pretty: pretty).encode(value)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
