import Foundation

/// The text of an XML plist as valid UTF-8, whatever its encoding and however ill-formed its bytes: what
/// ``PlistLineIndex`` hands to `XMLParser`.
enum PlistXMLText {
    /// The encodings a plist's bytes may be in, as far as the line index cares.
    enum Encoding: Equatable {
        case utf8, utf16LittleEndian, utf16BigEndian, utf32LittleEndian, utf32BigEndian
        /// Named in the XML declaration and known to Foundation (ISO-8859-1, Windows-1252, …).
        case declared(String.Encoding)
        /// Named in the XML declaration but unknown here: no index is built.
        case unknown
    }

    /// The bytes re-encoded as UTF-8, with the XML declaration (if any) saying `UTF-8`; nil when the text cannot
    /// be decoded (the plist then has no line numbers, but it is still linted).
    static func normalizedUTF8(_ data: Data) -> Data? {
        let text: String
        switch encoding(of: data) {
        case .utf8: text = String(decoding: data, as: UTF8.self)  // repairs ill-formed sequences as U+FFFD
        case .utf16LittleEndian:
            guard let t = String(data: data, encoding: .utf16LittleEndian) else { return nil }; text = t
        case .utf16BigEndian: guard let t = String(data: data, encoding: .utf16BigEndian) else { return nil }; text = t
        case .utf32LittleEndian:
            guard let t = String(data: data, encoding: .utf32LittleEndian) else { return nil }; text = t
        case .utf32BigEndian: guard let t = String(data: data, encoding: .utf32BigEndian) else { return nil }; text = t
        case .declared(let encoding): guard let t = String(data: data, encoding: encoding) else { return nil }; text = t
        case .unknown: return nil
        }
        return Data(declaringUTF8(text).utf8)
    }

    /// What the bytes are, from a byte-order mark, the first bytes, or the XML declaration (as libxml2 decides).
    static func encoding(of data: Data) -> Encoding {
        let head = [UInt8](data.prefix(4))
        func starts(_ bytes: [UInt8]) -> Bool { head.starts(with: bytes) }
        if starts([0x00, 0x00, 0xFE, 0xFF]) || starts([0x00, 0x00, 0x00, 0x3C]) { return .utf32BigEndian }
        if starts([0xFF, 0xFE, 0x00, 0x00]) || starts([0x3C, 0x00, 0x00, 0x00]) { return .utf32LittleEndian }
        if starts([0xFE, 0xFF]) || starts([0x00, 0x3C]) { return .utf16BigEndian }
        if starts([0xFF, 0xFE]) || starts([0x3C, 0x00]) { return .utf16LittleEndian }
        guard let name = declaredEncodingName(data) else { return .utf8 }
        switch name.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii": return .utf8
        case "utf-16", "utf16": return .utf8  // an 8-bit file labelled UTF-16: libxml2 reads it as UTF-8 too
        case "iso-8859-1", "latin1", "iso_8859-1", "latin-1": return .declared(.isoLatin1)
        case "iso-8859-2", "latin2": return .declared(.isoLatin2)
        case "windows-1252", "cp1252": return .declared(.windowsCP1252)
        case "windows-1250", "cp1250": return .declared(.windowsCP1250)
        case "macintosh", "macroman", "x-mac-roman": return .declared(.macOSRoman)
        case "shift_jis", "shift-jis", "sjis": return .declared(.shiftJIS)
        case "euc-jp": return .declared(.japaneseEUC)
        default: return .unknown
        }
    }

    /// The `encoding="…"` of an XML declaration at the very start of 8-bit bytes.
    static func declaredEncodingName(_ data: Data) -> String? {
        var bytes = [UInt8](data.prefix(256))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else {
            return nil
        }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard
            let range = declaration.range(
                of: #"encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']"#, options: .regularExpression)
        else { return nil }
        let match = declaration[range]
        guard let open = match.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return nil }
        return String(match[match.index(after: open)...].dropLast())
    }

    /// The text with its XML declaration's encoding (if any) replaced by `UTF-8`.
    static func declaringUTF8(_ text: String) -> String {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        guard body.hasPrefix("<?xml"), let end = body.firstIndex(of: ">") else { return String(body) }
        let declaration = String(body[...end])
        let rewritten = declaration.replacingOccurrences(
            of: #"encoding\s*=\s*["'][^"']*["']"#, with: "encoding=\"UTF-8\"", options: .regularExpression)
        return rewritten + body[body.index(after: end)...]
    }
}
