/// Appends TLS's big-endian integers and length-prefixed vectors (RFC 8446 §3).
struct ByteWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether a vector was longer than its length field can say; its length was then written wrong, and the
    /// bytes must not be sent.
    private(set) var overflowed = false

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }

    mutating func u24(_ value: Int) {
        bytes += [UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func append(_ more: [UInt8]) { bytes += more }

    /// Appends another writer's bytes, and its overflow.
    mutating func append(_ other: ByteWriter) {
        bytes += other.bytes
        overflowed = overflowed || other.overflowed
    }

    /// Writes what `body` writes behind a length of `width` bytes (1, 2 or 3).
    mutating func vector(_ width: Int, _ body: (inout ByteWriter) -> Void) {
        var inner = ByteWriter()
        body(&inner)
        let count = inner.bytes.count
        overflowed = overflowed || inner.overflowed || count >= 1 << (8 * width)
        switch width {
        case 1: u8(UInt8(truncatingIfNeeded: count))
        case 2: u16(UInt16(truncatingIfNeeded: count))
        default: u24(count)
        }
        bytes += inner.bytes
    }
}

/// Reads TLS's big-endian integers and length-prefixed vectors; every read is checked against the bytes left.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        offset = 0
        end = bytes.count
    }

    /// A reader over `bytes[range]`.
    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    var remaining: Int { end - offset }
    var isEmpty: Bool { offset >= end }

    mutating func u8() throws(WireError) -> UInt8 {
        guard remaining >= 1 else { throw WireError("truncated: needed 1 byte") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(WireError) -> UInt16 {
        guard remaining >= 2 else { throw WireError("truncated: needed 2 bytes") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func u24() throws(WireError) -> Int {
        guard remaining >= 3 else { throw WireError("truncated: needed 3 bytes") }
        defer { offset += 3 }
        return Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
    }

    mutating func take(_ count: Int) throws(WireError) -> [UInt8] {
        guard count >= 0, remaining >= count else {
            throw WireError("truncated: needed \(count) bytes, \(remaining) left")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// The contents of a vector whose length takes `width` bytes.
    mutating func vector(_ width: Int) throws(WireError) -> [UInt8] {
        let count: Int
        switch width {
        case 1: count = Int(try u8())
        case 2: count = Int(try u16())
        default: count = try u24()
        }
        return try take(count)
    }
}

/// A message that does not parse; `reason` says where.
struct WireError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Array where Element == UInt8 {
    /// Lower-case hex, two digits a byte.
    package var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a hex string (whitespace ignored); nil when it is not hex.
    package init?(hex: String) {
        var out: [UInt8] = []
        var high: UInt8?
        for char in hex.utf8 {
            let nibble: UInt8
            switch char {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = char - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self = out
    }
}
