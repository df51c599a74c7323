import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Maps key paths of an XML plist to the line of their `<key>` element (or, for array
/// elements, the line where the element starts).
///
/// Built with Foundation's `XMLParser`, tracking `<dict>`/`<array>` nesting. Array elements
/// are addressed by their index as a string (`"0"`, `"1"`, …).
struct PlistLineIndex {
    private(set) var lines: [[String]: Int] = [:]
    /// Keys written more than once in the same `<dict>`: the key's path and every line it is on, in file order.
    private(set) var duplicates: [(path: [String], lines: [Int])] = []

    init() {}

    /// Scans XML plist bytes. A parse failure leaves the index partial (never throws: the
    /// plist itself was already parsed by `PropertyListSerialization`).
    init(xml data: Data) {
        // FoundationXML traps on bytes that are not UTF-8 where libxml2 passes them through unchecked (a comment
        // holding 0xFF killed the process with SIGILL, issue 8). So XMLParser only ever sees valid UTF-8 that says
        // it is UTF-8: the bytes are decoded here (ill-formed UTF-8 becomes U+FFFD, line breaks stay where they
        // were, so the lines found are the file's lines) and the declaration is rewritten to match.
        guard let utf8 = PlistXMLText.normalizedUTF8(data) else { return }
        let delegate = Delegate()
        let parser = XMLParser(data: utf8)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        lines = delegate.lines
        duplicates = delegate.duplicateOrder.compactMap { path in delegate.keyLines[path].map { (path, $0) } }
    }

    func line(for path: [String]) -> Int? { lines[path] }

    private final class Delegate: NSObject, XMLParserDelegate {
        var lines: [[String]: Int] = [:]
        /// Every line of a duplicated key's path (first occurrence included), and the order they were found in.
        var keyLines: [[String]: [Int]] = [:]
        var duplicateOrder: [[String]] = []
        /// The keys seen in each open `<dict>` (a stack parallel to the dict entries of `stack`).
        private var dictKeys: [[String: Int]] = []

        private enum Container {
            case dict(path: [String], pendingKey: String?)
            case array(path: [String], next: Int)
        }
        private var stack: [Container] = []
        private var keyText: String?
        private var keyLine = 0

        /// The path a value starting now would have, and records its line when it is an array element.
        private func pathForValue(line: Int) -> [String]? {
            guard let top = stack.last else { return [] }
            switch top {
            case .dict(let path, let pendingKey):
                guard let pendingKey else { return nil }
                stack[stack.count - 1] = .dict(path: path, pendingKey: nil)
                return path + [pendingKey]
            case .array(let path, let next):
                stack[stack.count - 1] = .array(path: path, next: next + 1)
                let elementPath = path + [String(next)]
                if lines[elementPath] == nil { lines[elementPath] = line }
                return elementPath
            }
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            switch elementName {
            case "plist":
                return
            case "key":
                keyText = ""
                keyLine = parser.lineNumber
            case "dict", "array":
                let path = pathForValue(line: parser.lineNumber) ?? []
                stack.append(elementName == "dict" ? .dict(path: path, pendingKey: nil) : .array(path: path, next: 0))
                if elementName == "dict" { dictKeys.append([:]) }
            default:
                _ = pathForValue(line: parser.lineNumber)
            }
        }

        /// Records a key of the innermost open dictionary; a second one of the same name is a duplicate.
        private func noteKey(_ key: String, path: [String]) {
            guard !dictKeys.isEmpty else { return }
            if let first = dictKeys[dictKeys.count - 1][key] {
                if keyLines[path] == nil {
                    keyLines[path] = [first]
                    duplicateOrder.append(path)
                }
                keyLines[path]!.append(keyLine)
            } else {
                dictKeys[dictKeys.count - 1][key] = keyLine
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if keyText != nil { keyText! += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            switch elementName {
            case "key":
                guard let text = keyText else { return }
                keyText = nil
                if case .dict(let path, _)? = stack.last {
                    stack[stack.count - 1] = .dict(path: path, pendingKey: text)
                    let keyPath = path + [text]
                    // The first occurrence wins: a duplicated key is reported at its first line.
                    if lines[keyPath] == nil { lines[keyPath] = keyLine }
                    noteKey(text, path: keyPath)
                }
            case "dict", "array":
                if !stack.isEmpty { stack.removeLast() }
                if elementName == "dict", !dictKeys.isEmpty { dictKeys.removeLast() }
            default:
                return
            }
        }
    }
}
