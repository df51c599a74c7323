import ATSPolicy
import Foundation
import Judging
import TLSModel

extension EndpointList {
    /// Reads an endpoint list; the format follows the extension (`.json`, `.yml`/`.yaml`), else the content.
    ///
    /// The text format is read line by line (memory grows with the entries, not the file); YAML and JSON are
    /// parsed whole and limited to ``InputLimits/endpointStructuredBytes``.
    /// - Throws: ``InputFileError`` when the file is unreadable, too large, or malformed as a whole.
    package static func load(path: String) throws -> EndpointList {
        var list: EndpointList
        if let structured = StructuredFile.format(ofPath: path) {
            let text = try StructuredFile.readText(path: path, limit: InputLimits.endpointStructuredBytes)
            list = try parse(text: text, file: path, format: Format(structured))
        } else {
            list = try loadGuessing(path: path)
        }
        // A relative caFile or pins path is relative to the endpoint file, not to the working directory.
        let directory = (path as NSString).deletingLastPathComponent
        func resolved(_ file: String) -> String {
            file.hasPrefix("/") || directory.isEmpty ? file : (directory as NSString).appendingPathComponent(file)
        }
        for index in list.entries.indices {
            list.entries[index].caFile = list.entries[index].caFile.map(resolved)
            if let pins = list.entries[index].pinCheck?.pins { list.entries[index].pinCheck?.pins = resolved(pins) }
        }
        return list
    }

    /// The formats of an endpoint list.
    package enum Format: String, Sendable {
        case text, yaml, json

        init(_ structured: StructuredFile.Format) {
            switch structured {
            case .yaml: self = .yaml
            case .json: self = .json
            }
        }
    }

    /// Parses an endpoint list.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name findings and errors carry.
    ///   - format: the format; nil: guessed (text unless it starts like JSON or has an `endpoints:` key).
    /// - Throws: ``InputFileError`` when a YAML/JSON file is malformed or has no endpoint list, or a target (a text
    ///   line, a YAML/JSON URL) is longer than ``InputLimits/endpointLineBytes``.
    package static func parse(text: String, file: String, format: Format? = nil) throws -> EndpointList {
        switch format ?? guess(text) {
        case .text:
            try checkLineLengths(text, file: file)
            return parseText(text, file: file)
        case .yaml: return try parseStructured(text, file: file, format: .yaml)
        case .json: return try parseStructured(text, file: file, format: .json)
        }
    }

    /// The format of a list without a telling extension: JSON when it starts with `{`, or with `[` that does not
    /// open a bracketed IPv6 address (`[::1]:443` is a text line); YAML when a line starts with `endpoints:`;
    /// else text.
    package static func guess(_ text: String) -> Format {
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{") { return .json }
        if trimmed.hasPrefix("[") && !startsWithBracketedIPv6(trimmed) { return .json }
        let hasKey = text.split(separator: "\n").contains {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("endpoints:")
        }
        return hasKey ? .yaml : .text
    }

    /// Whether the text starts `[` address `]` where the address is made of hex digits, `:`, `.` and a `%zone`,
    /// with at least one `:` (no JSON array starts like that: a JSON value never starts with `:` or a hex letter
    /// followed by `:`).
    static func startsWithBracketedIPv6(_ text: Substring) -> Bool {
        guard text.first == "[", let close = text.firstIndex(of: "]") else { return false }
        let inside = text[text.index(after: text.startIndex)..<close]
        let zone = inside.firstIndex(of: "%") ?? inside.endIndex
        let address = inside[..<zone]
        return address.contains(":") && address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
