import Foundation

extension PlistDocument {
    /// The ``PlistError`` for bytes `PropertyListSerialization` refused: `FILE:LINE: reason` where the parser
    /// said where (`at line N`, `on line N`, or the end of the file), `FILE: reason` where a line means nothing
    /// (a binary plist has no lines, so a corrupt one is never blamed on line 1).
    static func malformedError(_ error: Error, data: Data, file: String) -> PlistError {
        if data.starts(with: Array("bplist".utf8)) {
            return PlistError(
                code: .malformed, file: file,
                reason: "malformed binary plist: the header says bplist but the object table or trailer is corrupt")
        }
        let (line, detail) = describe(error, data: data)
        return PlistError(code: .malformed, file: file, line: line, reason: "malformed plist: \(detail)")
    }

    /// Pulls the line and a readable message out of Foundation's parse error.
    static func describe(_ error: Error, data: Data) -> (Int?, String) {
        let nsError = error as NSError
        var text = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        if text.isEmpty { text = "not an XML, binary or OpenStep property list" }
        var line: Int?
        for pattern in [#"\s*\bat line (\d+)"#, #"\s*\bon line (\d+)"#] {
            guard let range = text.range(of: pattern, options: .regularExpression) else { continue }
            line = Int(text[range].split(separator: " ").last ?? "")
            text.removeSubrange(range)
            text = text.trimmingCharacters(in: .whitespaces)
            break
        }
        if line == nil, text.localizedCaseInsensitiveContains("unexpected EOF") {
            line = lineCount(data)  // the end of the file is on its last line
        }
        // Foundation counts from 1; a 0 (or less) would print as `FILE:0:`, which names no line.
        if let found = line, found < 1 { line = nil }
        return (line, text)
    }

    /// The number of the last line of the bytes (a final line break does not start a new line).
    static func lineCount(_ data: Data) -> Int {
        var lines = 1
        var last: UInt8 = 0
        for byte in data {
            if last == 0x0A { lines += 1 }
            last = byte
        }
        return lines
    }
}
