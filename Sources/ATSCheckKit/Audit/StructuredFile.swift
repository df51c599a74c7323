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

    /// Reads a file's text.
    /// - Throws: ``InputFileError`` when the file cannot be read or is not UTF-8.
    static func readText(path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw InputFileError(file: path, reason: "no such file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputFileError(file: path, reason: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputFileError(file: path, reason: "not UTF-8 text")
        }
        return text
    }

    /// Parses YAML or JSON text into its root node (nil for an empty document).
    /// - Throws: ``InputFileError`` with the line of the syntax error when the parser gives one.
    static func parse(_ text: String, format: Format, file: String) throws -> Node? {
        switch format {
        case .yaml:
            do { return try Yams.compose(yaml: text) } catch { throw inputError(error, file: file) }
        case .json:
            let value: Any
            do {
                value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            } catch {
                let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
                throw InputFileError(file: file, reason: "malformed JSON: \(detail)")
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

    static func inputError(_ error: Error, file: String) -> InputFileError {
        if let yaml = error as? YamlError {
            switch yaml {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                return InputFileError(file: file, line: mark.line, reason: "malformed YAML: \(problem)")
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
