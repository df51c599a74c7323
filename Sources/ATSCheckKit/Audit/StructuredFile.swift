import ATSPolicy
import Foundation
import Yams

/// A YAML or JSON input file (endpoint list, baseline) read as a tree of nodes that remember their lines.
///
/// JSON is read with Yams too (JSON is nearly a subset of YAML), because `JSONSerialization` forgets where a
/// value was; the file is first checked with `JSONSerialization` so that JSON errors are JSON errors.
enum StructuredFile {
    enum Format: String {
        case yaml, json
    }

    /// The format implied by a file name: `.json` → JSON, `.yml` / `.yaml` → YAML, anything else nil.
    static func format(ofPath path: String) -> Format? {
        switch (path as NSString).pathExtension.lowercased() {
        case "json": return .json
        case "yml", "yaml": return .yaml
        default: return nil
        }
    }

    /// Reads a file's text, refusing files over `limit` bytes.
    /// - Throws: ``InputFileError`` when the file cannot be read, is too large, or is not UTF-8 (with the line of
    ///   the first ill-formed byte).
    static func readText(path: String, limit: Int) throws -> String {
        let data: Data
        do { data = try BoundedFileReader.read(path: path, limit: limit) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        return try decodeUTF8(data, file: path)
    }

    /// The bytes as text.
    /// - Throws: ``InputFileError`` naming the line of the first byte that is not UTF-8.
    static func decodeUTF8(_ data: Data, file: String, firstLine: Int = 1) throws -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        var line = firstLine
        for piece in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(data: piece, encoding: .utf8) == nil { break }
            line += 1
        }
        throw InputFileError(file: file, line: line, reason: "not UTF-8 text")
    }

    /// The 1-based line holding byte `offset` of `text` (the last line when the offset is past the end).
    static func line(ofByteOffset offset: Int, in text: String) -> Int {
        var line = 1
        for byte in text.utf8.prefix(max(0, offset)) where byte == 0x0A { line += 1 }
        return line
    }

    /// Where a `JSONSerialization` error is: `around line N` as given, `around character N` (a byte offset)
    /// turned into its line, the end of the text for an unexpected end; nil when the message names no place.
    static func jsonErrorLine(_ detail: String, text: String) -> Int? {
        func number(after pattern: String) -> Int? {
            guard let range = detail.range(of: pattern + #" (\d+)"#, options: .regularExpression) else { return nil }
            return Int(detail[range].split(separator: " ").last ?? "")
        }
        if let line = number(after: "around line"), line >= 1 { return line }
        if let offset = number(after: "around character") { return line(ofByteOffset: offset, in: text) }
        if detail.localizedCaseInsensitiveContains("end of file")
            || detail.localizedCaseInsensitiveContains("end of data")
        {
            return line(ofByteOffset: text.utf8.count, in: text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }
        return nil
    }

    /// Parses YAML or JSON text into its root node (nil for an empty document).
    /// - Throws: ``InputFileError`` with the line of the syntax error when the parser gives one.
    static func parse(_ text: String, format: Format, file: String) throws -> Node? {
        switch format {
        case .yaml:
            do { return try Yams.compose(yaml: text) } catch { throw inputError(error, file: file, text: text) }
        case .json:
            let value: Any
            do {
                value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            } catch {
                let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
                throw InputFileError(
                    file: file, line: jsonErrorLine(detail, text: text), reason: "malformed JSON: \(detail)")
            }
            // Valid JSON has no raw tabs inside strings, so tabs are whitespace YAML may refuse: make them spaces.
            if let node = try? Yams.compose(yaml: text.replacingOccurrences(of: "\t", with: " ")) { return node }
            return node(from: value)  // valid JSON Yams cannot read: keep the values, lose the lines
        }
    }

    /// A node without line marks from a `JSONSerialization` value.
    static func node(from value: Any) -> Node {
        switch value {
        case let dict as [String: Any]:
            return Node(dict.keys.sorted().map { (Node($0), node(from: dict[$0]!)) })
        case let array as [Any]:
            return Node(array.map(node(from:)))
        case let string as String:
            return Node(string, .implicit, .doubleQuoted)
        case is NSNull:
            return Node("null")
        case let number as NSNumber:
            return Node(number.stringValue)
        default:
            return Node("\(value)")
        }
    }

    static func inputError(_ error: Error, file: String, text: String) -> InputFileError {
        if let yaml = error as? YamlError {
            switch yaml {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                return InputFileError(
                    file: file, line: mark.line >= 1 ? mark.line : nil, reason: "malformed YAML: \(problem)")
            case .reader(let problem, let offset, _, _):
                return InputFileError(
                    file: file, line: offset.map { line(ofByteOffset: $0, in: text) },
                    reason: "malformed YAML: \(problem)")
            case .duplicatedKeysInMapping(let duplicates, let context):
                let line = context.mark.line >= 1 ? context.mark.line : nil
                return InputFileError(
                    file: file, line: line, reason: "malformed YAML: duplicated key '\(duplicates.first ?? "")'")
            default:
                break
            }
        }
        let text = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        return InputFileError(file: file, reason: "malformed YAML: \(text)")
    }
}

extension Node {
    /// The 1-based line of the node, when known.
    var line: Int? { mark?.line }

    /// The line of the deepest node along `path` (mapping keys by their text, list elements by index), the line
    /// of the key for a mapping entry; the root's line when not even the first step exists.
    func line(at path: [String]) -> Int? {
        var node = self
        var line = self.line
        for part in path {
            if let mapping = node.mapping, let (key, value) = mapping.first(where: { $0.key.scalarText == part }) {
                line = key.line ?? line
                node = value
            } else if let sequence = node.sequence, let index = Int(part), sequence.indices.contains(index) {
                node = sequence[index]
                line = node.line ?? line
            } else {
                break
            }
        }
        return line
    }

    /// A scalar's text (any scalar: strings, numbers and booleans alike), nil for collections.
    var scalarText: String? { scalar?.string }

    /// A short name for the kind of node, for messages.
    var kindName: String {
        switch self {
        case .scalar: return "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }
}
