import Foundation

/// Parses HTML with python3's `html5lib` in strict mode (`html5lib.HTMLParser(strict=True)`): the first HTML5 parse
/// error (a missing doctype, a misnested tag, an invalid code point, a stray end tag) fails the parse, and so does
/// a page whose encoding html5lib does not detect as UTF-8. On success the tree is handed back as ``HTMLNode``s, so
/// tests check what a browser would build (rows, columns, text after character references are decoded), not the
/// markup as a string. Fails, never skips, when python3 or `html5lib` is missing: `make test` installs them.
package enum HTML5Parser {
    /// Why a page did not parse.
    package struct Failure: Error, CustomStringConvertible {
        /// `line:column: message` from html5lib, or why it could not run.
        package var description: String
    }

    /// Parses a page given as text (written as UTF-8 bytes, so the page's own `<meta charset>` is what tells the
    /// parser its encoding).
    /// - Parameter html: the page.
    /// - Returns: the `<html>` element.
    /// - Throws: ``Failure`` with html5lib's first parse error, or when python3 or html5lib is missing.
    package static func parse(_ html: String) throws -> HTMLNode {
        let dir = try PythonCheck.temporaryFolder("atscheck-html")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let tree = dir.appendingPathComponent("tree.json")
        try Data(html.utf8).write(to: page)
        let script = """
            import json, sys
            try:
                import html5lib
                from html5lib.html5parser import ParseError
            except ImportError:
                print("python3 has no html5lib module: install it (pip install html5lib, or apt-get install python3-html5lib)")
                sys.exit(3)
            parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
            try:
                root = parser.parse(open(sys.argv[1], "rb").read())
            except ParseError as error:
                (line, column), code, _ = parser.errors[-1]
                print(f"{line}:{column}: {error} [{code}]")
                sys.exit(1)
            if parser.documentEncoding != "utf-8":
                print(f"the page's encoding was detected as {parser.documentEncoding}, not utf-8")
                sys.exit(1)
            def node(element):
                children = [{"name": "#text", "text": element.text}] if element.text else []
                for child in element:
                    if isinstance(child.tag, str):
                        children.append(node(child))
                    if child.tail:
                        children.append({"name": "#text", "text": child.tail})
                return {"name": element.tag, "attributes": dict(element.attrib), "children": children}
            json.dump(node(root), open(sys.argv[2], "w"))
            """
        let outcome: PythonCheck.Outcome
        do {
            outcome = try PythonCheck.run(script, arguments: [page.path, tree.path], for: "parse HTML")
        } catch let error as PythonCheck.Launch {
            throw Failure(description: error.description)
        }
        if outcome.status == 127 {
            throw Failure(description: "python3 is not installed: HTML cannot be parsed")
        }
        guard outcome.status == 0 else {
            throw Failure(description: outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return try JSONDecoder().decode(HTMLNode.self, from: Data(contentsOf: tree))
    }
}

/// An element or a text node of a parsed page (``HTML5Parser``).
package struct HTMLNode: Decodable, Sendable {
    /// The element's tag name (lower case), or `#text`.
    package var name: String
    /// The element's attributes (empty for text).
    package var attributes: [String: String]
    /// The element's children in order, text nodes included.
    package var children: [HTMLNode]
    /// A text node's text, character references decoded.
    package var text: String?

    private enum Keys: String, CodingKey { case name, attributes, children, text }

    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        children = try container.decodeIfPresent([HTMLNode].self, forKey: .children) ?? []
        text = try container.decodeIfPresent(String.self, forKey: .text)
    }

    /// The element children, text nodes left out.
    package var elements: [HTMLNode] { children.filter { $0.name != "#text" } }

    /// The text of the node and every descendant, in order, as a browser's `textContent`.
    package var textContent: String { text ?? children.map(\.textContent).joined() }

    /// Every descendant element (depth first, in document order) that satisfies `predicate`.
    package func descendants(where predicate: (HTMLNode) -> Bool) -> [HTMLNode] {
        var found: [HTMLNode] = []
        for child in elements {
            if predicate(child) { found.append(child) }
            found += child.descendants(where: predicate)
        }
        return found
    }

    /// Every descendant element with this tag name.
    package func all(_ name: String) -> [HTMLNode] { descendants { $0.name == name } }

    /// The descendant element with this `id`, if any.
    package func element(id: String) -> HTMLNode? { descendants { $0.attributes["id"] == id }.first }

    /// Whether the element's `class` attribute lists `name`.
    package func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == name }
    }
}
