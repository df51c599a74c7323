import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One pass over JSON bytes that checks their structure, finds where each value starts and ends and counts the values
/// inside it, without building any of them: constant memory whatever the input (the nesting stack is capped).
///
/// `JSONDecoder` maps a whole document before it decodes anything, at about 48 bytes per value: a 100 MB array of
/// one-digit numbers cost 2.5 GB before it was refused (issue 25, row 12). ``ReportFile`` walks a report with this
/// skim, refuses a wrong shape at the first wrong value, and hands the decoder one endpoint or finding at a time.
///
/// The structure is checked (brackets, keys, colons, commas, strings closed); a scalar is checked only as a run of
/// the characters numbers and `true`/`false`/`null` are made of: the decoder checks every scalar it decodes, and
/// the rest is skipped. The bytes must be followed by a NUL byte (not counted), so that C's `strspn` and `memchr`
/// do the byte-by-byte work.
struct JSONSkim {
    /// The kind of a value, from its first byte.
    enum Kind: Equatable {
        case object, array, string, number, literal

        /// `an object`, `an array`, … for messages.
        var name: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "a number"
            case .literal: return "true, false or null"
            }
        }
    }

    /// Where one value is: `start..<end`, and how many values it holds (itself, every nested value and every key).
    struct Span: Equatable {
        var start: Int
        var end: Int
        var kind: Kind
        var values: Int
        /// Whether the value is the literal `null`.
        var isNull = false
    }

    /// Bytes that are not JSON, at an offset.
    struct Failure: Error, Equatable {
        var offset: Int
        var reason: String

        /// The reason of a value that holds more values than the walk's limit.
        static let tooManyValues = "more values than the limit"
    }

    /// The deepest nesting read (`JSONDecoder` refuses deeper documents too).
    static let maximumDepth = 512

    /// The bytes, followed by a NUL byte at `base[count]`.
    let base: UnsafePointer<UInt8>
    let count: Int

    /// - Parameter terminated: JSON bytes and one NUL byte after them (the NUL is not part of the JSON).
    init(terminated: UnsafeRawBufferPointer) {
        precondition(
            terminated.count >= 1 && terminated[terminated.count - 1] == 0, "JSONSkim needs a NUL after the bytes")
        base = terminated.baseAddress!.assumingMemoryBound(to: UInt8.self)
        count = terminated.count - 1
    }

    /// The byte at `offset`; the NUL after the bytes at `count`.
    func byte(_ offset: Int) -> UInt8 { base[offset] }

    /// The offset of the first byte at or after `offset` that is not JSON whitespace.
    func skipSpace(_ offset: Int) -> Int {
        offset + (offset < count ? spanLength(from: offset, of: Self.whitespace) : 0)
    }

    /// The value starting at `offset` (after whitespace), checked to its end.
    /// - Parameter limit: the most values it may hold: past them the walk stops (``Failure/tooManyValues``).
    /// - Throws: ``Failure`` at the first byte that is not JSON, or at the first value past `limit`.
    func value(at offset: Int, limit: Int = .max) throws(Failure) -> Span {
        let start = skipSpace(offset)
        guard start < count else { throw Failure(offset: start, reason: "unexpected end of data") }
        let kind = Self.kind(of: byte(start))
        var containers: [UInt8] = []  // `{` or `[`, innermost last
        var values = 0
        var index = start
        parsing: while true {
            // A value starts at `index`.
            index = skipSpace(index)
            guard index < count else { throw Failure(offset: index, reason: "unexpected end of data") }
            values += 1
            if values > limit { throw Failure(offset: start, reason: Failure.tooManyValues) }
            let first = byte(index)
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard containers.count < Self.maximumDepth else {
                    throw Failure(offset: index, reason: "nested deeper than \(Self.maximumDepth) levels")
                }
                index = skipSpace(index + 1)
                if index < count && byte(index) == Self.closing(first) {
                    index += 1
                } else {
                    containers.append(first)
                    if first == UInt8(ascii: "{") {
                        index = try keyAndColon(at: index)
                        values += 1
                    }
                    continue parsing
                }
            case UInt8(ascii: "\""): index = try stringEnd(at: index)
            default: index = try scalarEnd(at: index)
            }
            // A value ended at `index`: close containers until one goes on with `,`.
            while let open = containers.last {
                index = skipSpace(index)
                guard index < count else { throw Failure(offset: index, reason: "unexpected end of data") }
                if byte(index) == Self.closing(open) {
                    containers.removeLast()
                    index += 1
                } else if byte(index) == UInt8(ascii: ",") {
                    index += 1
                    if open == UInt8(ascii: "{") {
                        index = try keyAndColon(at: skipSpace(index))
                        values += 1
                    }
                    continue parsing
                } else {
                    throw unexpected(at: index, expecting: "',' or '\(Self.printable(Self.closing(open)))'")
                }
            }
            let isNull = kind == .literal && index - start == 4 && first == UInt8(ascii: "n")
            return Span(start: start, end: index, kind: kind, values: values, isNull: isNull)
        }
    }

    /// The offset just past the value at `offset`, found by its brackets and strings only (its commas, colons and
    /// scalars are not checked): how members nobody reads are passed over, at the speed of `strcspn` and `memchr`.
    /// - Throws: ``Failure`` for an unclosed string or bracket, a bracket closed by the wrong one, or too deep.
    func skip(at offset: Int) throws(Failure) -> Int {
        let start = skipSpace(offset)
        guard start < count else { throw Failure(offset: start, reason: "unexpected end of data") }
        switch byte(start) {
        case UInt8(ascii: "\""): return try stringEnd(at: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["): break
        default: return try scalarEnd(at: start)
        }
        var containers: [UInt8] = []
        var index = start
        while true {
            index += spanLength(from: index, notIn: Self.structural)
            guard index < count else { throw Failure(offset: start, reason: "unexpected end of data") }
            let found = byte(index)
            switch found {
            case UInt8(ascii: "\""): index = try stringEnd(at: index)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard containers.count < Self.maximumDepth else {
                    throw Failure(offset: index, reason: "nested deeper than \(Self.maximumDepth) levels")
                }
                containers.append(found)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let open = containers.popLast(), Self.closing(open) == found else {
                    throw Failure(offset: index, reason: "unexpected '\(Self.printable(found))'")
                }
                index += 1
                if containers.isEmpty { return index }
            default: throw Failure(offset: index, reason: "unexpected '\(Self.printable(found))'")  // a NUL byte
            }
        }
    }

    /// Walks the object at `offset` one member at a time: `member` gets each key and the offset of its value and
    /// returns the offset just past that value (it reads the value itself, e.g. with ``value(at:)``).
    /// - Returns: the offset just past the object.
    /// - Throws: ``Failure`` for bytes that are not an object, or what `member` throws.
    func object(at offset: Int, _ member: (String, Int) throws -> Int) throws -> Int {
        var index = skipSpace(offset)
        guard index < count, byte(index) == UInt8(ascii: "{") else { throw unexpected(at: index, expecting: "'{'") }
        index = skipSpace(index + 1)
        if index < count && byte(index) == UInt8(ascii: "}") { return index + 1 }
        while true {
            let keyStart = index
            let valueStart = try keyAndColon(at: index)
            let keyEnd = try stringEnd(at: keyStart)
            index = skipSpace(try member(Self.decodeString(base, keyStart..<keyEnd), valueStart))
            guard index < count else { throw Failure(offset: index, reason: "unexpected end of data") }
            if byte(index) == UInt8(ascii: "}") { return index + 1 }
            guard byte(index) == UInt8(ascii: ",") else { throw unexpected(at: index, expecting: "',' or '}'") }
            index = skipSpace(index + 1)
        }
    }

    /// Walks the array at `offset` one element at a time: `element` gets each index and the offset of the element
    /// and returns the offset just past it.
    /// - Returns: the offset just past the array.
    /// - Throws: ``Failure`` for bytes that are not an array, or what `element` throws.
    func array(at offset: Int, _ element: (Int, Int) throws -> Int) throws -> Int {
        var index = skipSpace(offset)
        guard index < count, byte(index) == UInt8(ascii: "[") else { throw unexpected(at: index, expecting: "'['") }
        index = skipSpace(index + 1)
        if index < count && byte(index) == UInt8(ascii: "]") { return index + 1 }
        var number = 0
        while true {
            index = skipSpace(try element(number, index))
            number += 1
            guard index < count else { throw Failure(offset: index, reason: "unexpected end of data") }
            if byte(index) == UInt8(ascii: "]") { return index + 1 }
            guard byte(index) == UInt8(ascii: ",") else { throw unexpected(at: index, expecting: "',' or ']'") }
            index += 1
        }
    }

    /// The kind of the value at `offset` (after whitespace), from its first byte; nil at the end.
    func kind(at offset: Int) -> Kind? {
        let index = skipSpace(offset)
        return index < count ? Self.kind(of: byte(index)) : nil
    }

    /// The 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        var line = 1
        var index = 0
        let end = min(offset, count)
        while index < end, let found = memchr(base + index, 0x0A, end - index) {
            line += 1
            index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
        }
        return line
    }

    // MARK: Pieces

    /// A key and its colon: the offset after the colon.
    private func keyAndColon(at offset: Int) throws(Failure) -> Int {
        guard offset < count, byte(offset) == UInt8(ascii: "\"") else {
            throw unexpected(at: offset, expecting: "a key (a string)")
        }
        let colon = skipSpace(try stringEnd(at: offset))
        guard colon < count, byte(colon) == UInt8(ascii: ":") else {
            throw unexpected(at: colon, expecting: "':' after a key")
        }
        return colon + 1
    }

    /// A string starting at its quote: the offset after its closing quote (a quote after an odd number of
    /// backslashes is escaped).
    private func stringEnd(at offset: Int) throws(Failure) -> Int {
        var index = offset + 1
        while index < count, let found = memchr(base + index, Int32(UInt8(ascii: "\"")), count - index) {
            let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            var backslashes = 0
            while quote - backslashes - 1 > offset && byte(quote - backslashes - 1) == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return quote + 1 }
            index = quote + 1
        }
        throw Failure(offset: offset, reason: "a string without its closing quote")
    }

    /// A number, `true`, `false` or `null`: the offset after the run of characters they are made of.
    private func scalarEnd(at offset: Int) throws(Failure) -> Int {
        switch byte(offset) {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
            UInt8(ascii: "n"):
            return offset + spanLength(from: offset, of: Self.scalarCharacters)
        default: throw unexpected(at: offset, expecting: "a value")
        }
    }

    static let whitespace = " \t\n\r".utf8CString
    static let scalarCharacters = "0123456789+-.eEtruefalsn".utf8CString
    static let structural = "\"{}[]".utf8CString

    /// How many bytes from `offset` are in `set` (a C string; the NUL after the bytes stops it).
    private func spanLength(from offset: Int, of set: ContiguousArray<CChar>) -> Int {
        (base + offset).withMemoryRebound(to: CChar.self, capacity: count - offset + 1) { text in
            set.withUnsafeBufferPointer { strspn(text, $0.baseAddress!) }
        }
    }

    /// How many bytes from `offset` are not in `set` (a C string; the NUL after the bytes stops it).
    private func spanLength(from offset: Int, notIn set: ContiguousArray<CChar>) -> Int {
        (base + offset).withMemoryRebound(to: CChar.self, capacity: count - offset + 1) { text in
            set.withUnsafeBufferPointer { strcspn(text, $0.baseAddress!) }
        }
    }

    private func unexpected(at offset: Int, expecting: String) -> Failure {
        guard offset < count else { return Failure(offset: offset, reason: "unexpected end of data") }
        return Failure(offset: offset, reason: "expected \(expecting), found '\(Self.printable(byte(offset)))'")
    }

    static func closing(_ open: UInt8) -> UInt8 { open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]") }

    static func kind(of byte: UInt8) -> Kind {
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: return .number
        }
    }

    /// A byte as text for a message (`\u{1}` for controls and bytes past ASCII).
    static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    /// The text of the string at `range` (quotes included); escapes are decoded by `JSONDecoder` when there are any.
    static func decodeString(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> String {
        let quoted = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
        let inner = UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast())
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: inner, as: UTF8.self)
    }
}
