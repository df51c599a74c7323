import Foundation
import TLSModel

/// The endpoints an app talks to, as listed for `atscheck audit --endpoints FILE`.
///
/// Two shapes are read:
/// - **text**: one URL or `host[:port]` per line; `#` starts a comment (whole-line or trailing); blank lines
///   are skipped;
/// - **YAML** (`.yml`, `.yaml`) or **JSON** (`.json`): an `endpoints:` list whose items are strings or
///   mappings `{url, resolve, sni, caFile, expect, name}` and a pin check (`pins`, `library`, `mode`, …, see
///   ``EndpointPinCheck``); a bare top-level list is accepted too.
///
/// Every entry keeps the line it came from. A line that is not a target becomes an `endpoints.invalid`
/// finding and the other entries are still returned; only an unreadable or structurally malformed file
/// throws (``InputFileError``, exit 65).
public struct EndpointList: Sendable, Equatable {
    /// The file the list was read from (as given).
    public var file: String
    public var entries: [EndpointEntry]
    /// Problems with single lines (`endpoints.invalid`, `endpoints.unknown-key`), each with file and line.
    public var findings: [Finding]

    public init(file: String, entries: [EndpointEntry], findings: [Finding] = []) {
        self.file = file
        self.entries = entries
        self.findings = findings
    }

    /// Reads an endpoint list; the format follows the extension (`.json`, `.yml`/`.yaml`), else the content.
    ///
    /// The text format is read line by line (memory grows with the entries, not the file); YAML and JSON are
    /// parsed whole and limited to ``InputLimits/endpointStructuredBytes``.
    /// - Throws: ``InputFileError`` when the file is unreadable, too large, or malformed as a whole.
    public static func load(path: String) throws -> EndpointList {
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
    public enum Format: String, Sendable {
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
    /// - Throws: ``InputFileError`` when a YAML/JSON file is malformed or has no endpoint list.
    public static func parse(text: String, file: String, format: Format? = nil) throws -> EndpointList {
        switch format ?? guess(text) {
        case .text: return parseText(text, file: file)
        case .yaml: return try parseStructured(text, file: file, format: .yaml)
        case .json: return try parseStructured(text, file: file, format: .json)
        }
    }

    /// The format of a list without a telling extension: JSON when it starts with `{`, or with `[` that does not
    /// open a bracketed IPv6 address (`[::1]:443` is a text line); YAML when a line starts with `endpoints:`;
    /// else text.
    static func guess(_ text: String) -> Format {
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{") { return .json }
        if trimmed.hasPrefix("[") && !startsWithBracketedIPv6(trimmed) { return .json }
        let hasKey = text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("endpoints:") }
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

/// One endpoint of an ``EndpointList``.
public struct EndpointEntry: Sendable, Equatable {
    /// What the list expects ATS to decide for the endpoint (`expect:` in YAML/JSON).
    public enum Expectation: String, Sendable, Codable, Equatable {
        case pass, fail
    }

    /// The URL or `host[:port]` as parsed; `scheme == "http"` for `http://` entries.
    public var target: Target
    /// Connect to this IP address instead of resolving the name (like `--resolve`).
    public var resolve: String?
    /// The SNI to send instead of the host.
    public var sni: String?
    /// An extra trust anchor (PEM) for this endpoint, e.g. a staging CA.
    public var caFile: String?
    public var expect: Expectation?
    /// A human label.
    public var name: String?
    /// The pin check the entry asks for (`pins:`, `library:`, …), nil when none.
    public var pinCheck: EndpointPinCheck?
    /// Where the entry is written.
    public var source: SourceLocation

    public init(
        target: Target, resolve: String? = nil, sni: String? = nil, caFile: String? = nil, expect: Expectation? = nil,
        name: String? = nil, pinCheck: EndpointPinCheck? = nil, source: SourceLocation
    ) {
        self.pinCheck = pinCheck
        self.target = target
        self.resolve = resolve
        self.sni = sni
        self.caFile = caFile
        self.expect = expect
        self.name = name
        self.source = source
    }

    /// A cleartext `http://` entry: ATS judges it from the plist alone, nothing is scanned.
    public var isHTTP: Bool { target.scheme == "http" }
}
