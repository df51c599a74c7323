import Foundation
import TLSModel

/// The JSON report written in pieces, endpoint by endpoint, with the same bytes as ``JSONRendering/render(_:pretty:)``:
/// a batch of a thousand endpoints is never one string (nor one encoder tree) in memory.
///
/// The report's keys are sorted, so `endpoints` comes first: the pieces are the opening of the object, each
/// endpoint encoded alone and indented to its depth, then the rest of the report encoded without endpoints.
public enum JSONStreamRendering {
    /// Writes `report` as pretty JSON with a trailing newline.
    /// - Parameters:
    ///   - report: the report.
    ///   - sink: receives the pieces in order; their concatenation is ``JSONRendering/render(_:pretty:)``'s text.
    /// - Throws: what the encoder or `sink` throws.
    public static func write(_ report: ScanReport, to sink: (Data) throws -> Void) throws {
        let encoder = JSONRendering.encoder()
        var rest = report
        rest.endpoints = []
        let tail = try encoder.encode(rest)
        // An empty array is `[`, a blank line, then `]` at its depth.
        let opening = Data("{\n  \"endpoints\" : [\n".utf8)
        let empty = opening + Data("\n  ]".utf8)
        guard !report.endpoints.isEmpty, tail.starts(with: empty) else {
            // No endpoints, or an encoder whose layout is not the one above: the whole text at once.
            try sink(tail.starts(with: empty) ? tail + Data("\n".utf8) : encoder.encode(report) + Data("\n".utf8))
            return
        }
        try sink(opening)
        for (index, endpoint) in report.endpoints.enumerated() {
            try sink(indented(try encoder.encode(endpoint), first: index == 0))
        }
        try sink(Data("\n  ]".utf8) + tail.dropFirst(empty.count) + Data("\n".utf8))
    }

    /// An endpoint encoded alone, moved to depth 2 (inside the report's `endpoints` array): every line that is
    /// not blank gains four spaces (a blank line is the inside of an empty array or object, never indented).
    /// JSON strings hold no raw newline, so every newline is the layout's.
    static func indented(_ json: Data, first: Bool) -> Data {
        // Built in an array and converted once: appending byte by byte to `Data` was 4% of a scan's CPU time.
        var out: [UInt8] = first ? Array("    ".utf8) : Array(",\n    ".utf8)
        out.reserveCapacity(out.count + json.count + json.count / 8)
        var atLineStart = false
        json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for byte in bytes {
                if atLineStart && byte != UInt8(ascii: "\n") { out.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) }
                out.append(byte)
                atLineStart = byte == UInt8(ascii: "\n")
            }
        }
        return Data(out)
    }
}
