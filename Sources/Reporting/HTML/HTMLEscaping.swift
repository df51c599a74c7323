/// Escapes text for the HTML report (``HTMLReport``): every string that came from input or from a server (host
/// names, plist keys and values, certificate subjects, file names, messages quoting them) goes through here, so a
/// hostile name is shown as text and never read as markup.
///
/// Besides `&`, `<`, `>`, `"` and `'`, it writes as visible `\u{…}` text (as ``ControlEscaping`` does for a
/// terminal) what an HTML5 parser reports as an error or a reader would not see: C0 and C1 controls, DEL, the
/// Unicode noncharacters, and the bidirectional overrides and isolates that would reorder the rest of a cell. Line
/// feeds and tabs are kept only in preformatted text (a plist fragment in `<pre>`).
package enum HTMLEscaping {
    /// Text for an element's content or a quoted attribute value (quotes are references too).
    /// - Parameter text: input-derived text.
    /// - Returns: the text with markup characters as character references and invisible characters escaped.
    package static func text(_ text: String) -> String { escape(text, keepingLineBreaks: false) }

    /// Text for `<pre>`: as ``text(_:)``, but line feeds and tabs are kept (a carriage return is escaped).
    /// - Parameter text: input-derived text, e.g. a plist fragment.
    /// - Returns: the escaped text.
    package static func preformatted(_ text: String) -> String { escape(text, keepingLineBreaks: true) }

    /// Whether a scalar is written as `\u{…}` rather than as itself.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if ControlEscaping.needsEscape(scalar) { return true }
        // Noncharacters: U+FDD0–U+FDEF and the last two code points of every plane (HTML5 parse errors).
        if (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE { return true }
        // Bidirectional embeddings, overrides and isolates: they would reverse what follows them on the line.
        return (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    private static func escape(_ text: String, keepingLineBreaks: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t":
                if keepingLineBreaks {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += ControlEscaping.escaped(scalar)
                }
            default:
                if isInvisible(scalar) {
                    out += ControlEscaping.escaped(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
