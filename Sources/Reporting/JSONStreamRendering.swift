import Foundation
import TLSModel

/// The JSON report written in pieces, endpoint by endpoint, with the same bytes as ``JSONRendering/render(_:pretty:)``:
/// a batch of a thousand endpoints is never one string (nor one encoder tree) in memory.
///
/// The report's keys are sorted, so `endpoints` comes first: the pieces are the opening of the object, each
/// endpoint encoded alone and indented to its depth, then the rest of the report encoded without endpoints.
package enum JSONStreamRendering {
    /// Writes `report` as pretty JSON with a trailing newline.
    /// - Parameters:
    ///   - report: the report.
    ///   - sink: receives the pieces in order; their concatenation is ``JSONRendering/render(_:pretty:)``'s text.
    /// - Throws: what the encoder or `sink` throws.
    package static func write(_ report: ScanReport, to sink: (Data) throws -> Void) throws {
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

extension JSONStreamRendering {
    /// Writes `plist --explain`'s JSON in pieces, host pattern by host pattern, with the same bytes as
    /// ``JSONRendering/render(_:pretty:)`` of the explanation (one plist) or of the array (several): 100,000 exception
    /// domains make some 300,000 host patterns and about 1 GB of JSON, which is never one string in memory.
    /// - Parameters:
    ///   - explanations: one per plist (or build configuration).
    ///   - sink: receives the pieces in order.
    /// - Throws: what the encoder or `sink` throws.
    package static func write(_ explanations: [PolicyExplanation], to sink: (Data) throws -> Void) throws {
        guard explanations.count != 1 else {
            try write(explanations[0], depth: 0, to: sink)
            try sink(Data("\n".utf8))
            return
        }
        guard !explanations.isEmpty else {
            try sink(try JSONRendering.encoder().encode(explanations) + Data("\n".utf8))
            return
        }
        try sink(Data("[\n".utf8))
        for (index, explanation) in explanations.enumerated() {
            try sink(Data((index == 0 ? "  " : ",\n  ").utf8))
            try write(explanation, depth: 1, to: sink)
        }
        try sink(Data("\n]\n".utf8))
    }

    /// One explanation at `depth` (its first line unindented, as the caller placed it).
    static func write(_ explanation: PolicyExplanation, depth: Int, to sink: (Data) throws -> Void) throws {
        let encoder = JSONRendering.encoder()
        var rest = explanation
        rest.hosts = []
        let text = try encoder.encode(rest)
        // Sorted keys put `hosts` among the others; its empty array is `[`, a blank line, `]` at depth 1.
        let marker = Data("\"hosts\" : [\n\n  ]".utf8)
        guard !explanation.hosts.isEmpty, let range = text.range(of: marker) else {
            try sink(indented(try encoder.encode(explanation), by: depth * 2))
            return
        }
        let opening = text[..<range.lowerBound] + Data("\"hosts\" : [\n".utf8)
        try sink(indented(Data(opening), by: depth * 2))
        for (index, host) in explanation.hosts.enumerated() {
            var piece = Data(((index == 0 ? "" : ",\n") + String(repeating: " ", count: depth * 2 + 4)).utf8)
            piece.append(indented(try encoder.encode(host), by: depth * 2 + 4))
            try sink(piece)
        }
        let closing = Data(("\n" + String(repeating: " ", count: depth * 2 + 2) + "]").utf8)
        try sink(closing + indented(Data(text[range.upperBound...]), by: depth * 2))
    }

    /// JSON with every line after the first moved `spaces` to the right (blank lines stay blank). JSON strings hold
    /// no raw newline, so every newline is the layout's.
    static func indented(_ json: Data, by spaces: Int) -> Data {
        guard spaces > 0 else { return json }
        let pad = [UInt8](repeating: 0x20, count: spaces)
        var out: [UInt8] = []
        out.reserveCapacity(json.count + json.count / 8)
        var atLineStart = false
        json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for byte in bytes {
                if atLineStart && byte != UInt8(ascii: "\n") { out.append(contentsOf: pad) }
                out.append(byte)
                atLineStart = byte == UInt8(ascii: "\n")
            }
        }
        return Data(out)
    }
}
