import Foundation

/// Where Foundation's JSON parser stopped, as a line and column a person can open the file at.
///
/// `JSONSerialization` reports only a character offset in its debug description ("Invalid value around character
/// 15."); the offset counts UTF-8 bytes of the input. This turns it into ` at line 3, column 4 (invalid value)`, or
/// the parser's words alone when the offset is not there.
enum JSONErrorPosition {
    /// ` at line L, column C (reason)`, or ` (reason)`.
    static func describe(_ error: Error, in data: Data) -> String {
        let debug = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? error.localizedDescription
        var reason = debug
        var offset: Int?
        if let range = debug.range(of: " around character ") {
            reason = String(debug[..<range.lowerBound])
            offset = Int(debug[range.upperBound...].prefix { $0.isNumber })
        }
        reason = reason.trimmingCharacters(in: CharacterSet(charactersIn: ". ")).lowercased()
        guard let offset, offset >= 0, offset <= data.count else { return " (\(reason))" }
        let (line, column) = position(of: offset, in: data)
        return " at line \(line), column \(column) (\(reason))"
    }

    /// The 1-based line and column (in bytes) of `offset`.
    static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for (index, byte) in data.prefix(offset).enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}
