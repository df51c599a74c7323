/// Escapes control characters that came from input (plist keys, hosts, file names, messages quoting them) so
/// that printing a report never sends a terminal an escape sequence, a NUL or a carriage return it did not
/// choose: C0 controls (U+0000–U+001F, tab and line breaks included), DEL (U+007F) and C1 controls
/// (U+0080–U+009F, among them U+009B, a one-character CSI) become Swift-style `\u{1B}` text.
///
/// Used by every text and Markdown renderer on input-derived strings, and by the JUnit renderer for what XML
/// allows but a terminal would act on (DEL, C1). See docs/reliability.md, "Escaping".
package enum ControlEscaping {
    /// Whether a scalar is escaped.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `\u{1B}` for ESC, `\u{0}` for NUL.
    package static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// The text with every control character escaped (unchanged, and not copied, when it has none).
    /// - Parameter text: a string that may hold input-derived characters.
    /// - Returns: text safe to print to a terminal.
    package static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) { out += escaped(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
