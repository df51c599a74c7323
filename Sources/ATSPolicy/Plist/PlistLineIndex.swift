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
    /// Keys written more than once in the same `<dict>`: the key's path, every line it is on and a digest of each
    /// occurrence's value (equal digests: the value is written alike), in file order.
    private(set) var duplicates: [(path: [String], lines: [Int], values: [Int])] = []
    /// For each duplicated key whose values are dictionaries, the keys each occurrence's dictionary holds, in file
    /// order (what an ignored occurrence loses).
    private(set) var duplicateChildren: [[String]: [[String]]] = [:]

    init() {}

    /// Scans XML plist bytes. A parse failure leaves the index partial (never throws: the
    /// plist itself was already parsed by `PropertyListSerialization`).
    /// - Parameters:
    ///   - data: The XML that was parsed.
    ///   - sourceLines: For preprocessed text, the source file's line of each line of `data` (index 0 is line 1);
    ///     nil when `data` is the file itself.
    ///   - key: What each `<key>` text becomes in the parsed value (build settings expanded); nil: as written.
    init(xml data: Data, sourceLines: [Int]? = nil, key: ((String) -> String)? = nil) {
        // FoundationXML traps on bytes that are not UTF-8 where libxml2 passes them through unchecked (a comment
        // holding 0xFF killed the process with SIGILL, issue 8). So XMLParser only ever sees valid UTF-8 that says
        // it is UTF-8: the bytes are decoded here (ill-formed UTF-8 becomes U+FFFD, line breaks stay where they
        // were, so the lines found are the file's lines) and the declaration is rewritten to match.
        guard let utf8 = PlistXMLText.normalizedUTF8(data) else { return }
        let delegate = Delegate(sourceLines: sourceLines, key: key)
        let parser = XMLParser(data: utf8)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        lines = delegate.lines
        duplicates = delegate.duplicateOrder.compactMap { path in
            delegate.keyLines[path].map { (path, $0, delegate.keyValues[path] ?? []) }
        }
        duplicateChildren = delegate.keyChildren
    }

    func line(for path: [String]) -> Int? { lines[path] }

    private final class Delegate: NSObject, XMLParserDelegate {
        let sourceLines: [Int]?
        let keyTransform: ((String) -> String)?
        var lines: [[String]: Int] = [:]
        /// Every line of a duplicated key's path (first occurrence included), and the order they were found in.
        var keyLines: [[String]: [Int]] = [:]
        /// A digest of every occurrence's value of a duplicated key, in file order: equal exactly when the values
        /// are written alike (element names and text), so a repeated value is told from a changed one.
        var keyValues: [[String]: [Int]] = [:]
        /// The keys of every occurrence's dictionary value of a duplicated key, in file order.
        var keyChildren: [[String]: [[String]]] = [:]
        var duplicateOrder: [[String]] = []
        /// The keys seen in each open `<dict>` with their line and value digest (a stack parallel to the dict
        /// entries of `stack`).
        private var dictKeys: [[String: (line: Int, digest: Int, children: [String])]] = []
        /// The keys of the dictionary that just closed, for the capture of the value it was.
        private var closedKeys: [String] = []

        private enum Container {
            case dict(path: [String], pendingKey: String?)
            case array(path: [String], next: Int)
        }
        private var stack: [Container] = []
        private var keyText: String?
        private var keyLine = 0
        /// The values being digested: the key's path and name, the digest so far, the element depth it began at.
        private var captures: [(path: [String], key: String, hasher: Hasher, depth: Int)] = []
        private var depth = 0

        init(sourceLines: [Int]?, key: ((String) -> String)?) {
            self.sourceLines = sourceLines
            self.keyTransform = key
        }

        /// The source file's line of a line of the parsed text.
        private func line(_ parser: XMLParser) -> Int {
            let parsed = parser.lineNumber
            guard let sourceLines, parsed >= 1, parsed <= sourceLines.count else { return parsed }
            return sourceLines[parsed - 1]
        }

        /// The path a value starting now would have, and records its line when it is an array element; whether it
        /// is a dictionary's value (a key's).
        private func pathForValue(line: Int) -> (path: [String], key: String?)? {
            guard let top = stack.last else { return ([], nil) }
            switch top {
            case .dict(let path, let pendingKey):
                guard let pendingKey else { return nil }
                stack[stack.count - 1] = .dict(path: path, pendingKey: nil)
                return (path + [pendingKey], pendingKey)
            case .array(let path, let next):
                stack[stack.count - 1] = .array(path: path, next: next + 1)
                let elementPath = path + [String(next)]
                lines[elementPath] = line
                return (elementPath, nil)
            }
        }

        private func digest(_ text: String) {
            for index in captures.indices { captures[index].hasher.combine(text) }
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            depth += 1
            switch elementName {
            case "plist":
                return
            case "key":
                digest("<key>")
                keyText = ""
                keyLine = line(parser)
                return
            default:
                break
            }
            let value = pathForValue(line: line(parser))
            if let value, let key = value.key {
                captures.append((value.path, key, Hasher(), depth))
            }
            digest("<" + elementName)
            if elementName == "dict" || elementName == "array" {
                let path = value?.path ?? []
                stack.append(elementName == "dict" ? .dict(path: path, pendingKey: nil) : .array(path: path, next: 0))
                if elementName == "dict" { dictKeys.append([:]) }
            }
        }

        /// Records a key of the innermost open dictionary; a second one of the same name is a duplicate.
        private func noteKey(_ key: String, path: [String]) {
            guard !dictKeys.isEmpty else { return }
            if let first = dictKeys[dictKeys.count - 1][key] {
                if keyLines[path] == nil {
                    keyLines[path] = [first.line]
                    keyValues[path] = [first.digest]
                    keyChildren[path] = [first.children]
                    duplicateOrder.append(path)
                }
                keyLines[path]!.append(keyLine)
            } else {
                dictKeys[dictKeys.count - 1][key] = (keyLine, 0, [])
            }
        }

        /// A key's value ended: its digest goes to the key's first occurrence, or to the duplicate's list.
        private func finishCapture() {
            guard let capture = captures.popLast() else { return }
            let value = capture.hasher.finalize()
            digest(String(value))
            let children = closedKeys
            closedKeys = []
            if keyLines[capture.path] != nil {
                keyValues[capture.path, default: []].append(value)
                keyChildren[capture.path, default: []].append(children)
            } else if !dictKeys.isEmpty {
                dictKeys[dictKeys.count - 1][capture.key]?.digest = value
                dictKeys[dictKeys.count - 1][capture.key]?.children = children
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if keyText != nil {
                keyText! += string
            } else if !captures.isEmpty {
                digest(string)
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            defer { depth -= 1 }
            switch elementName {
            case "key":
                guard var text = keyText else { return }
                keyText = nil
                digest(text + "</key>")
                if let keyTransform { text = keyTransform(text) }
                if case .dict(let path, _)? = stack.last {
                    stack[stack.count - 1] = .dict(path: path, pendingKey: text)
                    let keyPath = path + [text]
                    // The last occurrence's line, and below it its value's lines: Foundation keeps the last value of
                    // a duplicated key, so findings about the value point at the one that takes effect.
                    lines[keyPath] = keyLine
                    noteKey(text, path: keyPath)
                }
                return
            case "dict", "array":
                if !stack.isEmpty { stack.removeLast() }
                if elementName == "dict", let closed = dictKeys.popLast() { closedKeys = Array(closed.keys) }
            default:
                closedKeys = []
            }
            digest("</" + elementName)
            if let capture = captures.last, capture.depth == depth { finishCapture() }
        }
    }
}
