import Foundation

/// The string-bearing sections of a thin 64-bit little-endian Mach-O, found by walking its load commands.
///
/// Every offset and size is checked against the file without overflow (`size <= fileSize && offset <=
/// fileSize - size`, never `offset + size`), and the sections' ranges are merged into sorted, disjoint ranges, so
/// overlapping or repeated sections (a hostile file can list one range a thousand times) cost one scan of each
/// byte.
struct MachOFile: Equatable {
    /// What the bytes are.
    enum Parse: Equatable {
        /// A thin 64-bit little-endian Mach-O and its string sections' merged ranges.
        case machO(MachOFile)
        /// Not one (fat/universal, 32-bit, big-endian, not Mach-O): the harvester scans the whole file.
        case other
        /// The magic of a thin 64-bit Mach-O whose load commands or sections do not fit the file.
        case malformed(String)
    }

    static let magic64: UInt32 = 0xFEED_FACF
    static let segment64: UInt32 = 0x19
    /// Sections that hold C strings or string-bearing constants (`__DATA*,__cfstring` mostly points into
    /// `__cstring`, but some toolchains inline bytes there; scanning it is cheap).
    static let stringSections: Set<String> = ["__cstring", "__const", "__cfstring", "__oslogstring"]
    static let stringSegments: Set<String> = ["__TEXT", "__DATA", "__DATA_CONST"]

    /// The file ranges of the string sections: sorted, disjoint, each byte in at most one.
    let stringRanges: [Range<Int>]

    /// Parses the load commands.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Parse {
        guard bytes.count >= 32, u32(bytes, 0) == magic64 else { return .other }
        let fileSize = UInt64(bytes.count)
        let commandCount = Int(u32(bytes, 16))
        let commandsSize = Int(u32(bytes, 20))
        guard commandCount <= 65_536, 32 + commandsSize <= bytes.count else {
            return .malformed("its load commands (\(commandsSize) bytes) do not fit the \(bytes.count)-byte file")
        }
        var ranges: [Range<Int>] = []
        var offset = 32
        for index in 0..<commandCount {
            guard offset + 8 <= 32 + commandsSize else {
                return .malformed("load command \(index + 1) of \(commandCount) lies past the commands' end")
            }
            let command = u32(bytes, offset)
            let size = Int(u32(bytes, offset + 4))
            guard size >= 8, offset + size <= 32 + commandsSize else {
                return .malformed("load command \(index + 1) has a size (\(size)) outside the commands")
            }
            if command == segment64 {
                guard size >= 72 else { return .malformed("segment command \(index + 1) is \(size) bytes, under 72") }
                let sectionCount = Int(u32(bytes, offset + 64))
                guard sectionCount <= (size - 72) / 80 else {
                    return .malformed("segment command \(index + 1) declares more sections than it holds")
                }
                for section in 0..<sectionCount {
                    let base = offset + 72 + section * 80
                    let length = u64(bytes, base + 40)
                    let start = UInt64(u32(bytes, base + 48))
                    // Zero-fill sections (bss) have no bytes in the file.
                    let type = u32(bytes, base + 64) & 0xFF
                    guard type != 0x01, type != 0x0C, length > 0 else { continue }
                    let segment = name(bytes, base + 16)
                    let sectionName = name(bytes, base)
                    guard length <= fileSize, start <= fileSize - length else {
                        return .malformed(
                            "section \(segment),\(sectionName) (\(length) bytes at offset \(start)) lies outside the "
                                + "\(bytes.count)-byte file")
                    }
                    if stringSegments.contains(segment), stringSections.contains(sectionName) {
                        ranges.append(Int(start)..<Int(start + length))
                    }
                }
            }
            offset += size
        }
        return .machO(MachOFile(stringRanges: disjoint(ranges)))
    }

    /// Sorted, overlapping ranges merged (adjacent ones stay apart: each is still scanned once).
    static func disjoint(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    static func u32(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    static func u64(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    /// A 16-byte NUL-padded name.
    static func name(_ b: UnsafeRawBufferPointer, _ i: Int) -> String {
        String(decoding: b[i..<i + 16].prefix { $0 != 0 }, as: UTF8.self)
    }
}
