import Foundation

/// The string-bearing sections of a thin 64-bit little-endian Mach-O, found by walking its load commands.
/// Anything else (fat/universal, 32-bit, big-endian, malformed) is `nil`: the harvester then scans the whole file.
struct MachOFile {
    /// One section: its segment and section names and its bytes' range in the file.
    struct Section: Equatable {
        var segment: String
        var name: String
        var range: Range<Int>
    }

    static let magic64: UInt32 = 0xFEED_FACF
    static let segment64: UInt32 = 0x19
    /// Sections that hold C strings or string-bearing constants (`__DATA*,__cfstring` mostly points into
    /// `__cstring`, but some toolchains inline bytes there; scanning it is cheap).
    static let stringSections: Set<String> = ["__cstring", "__const", "__cfstring", "__oslogstring"]
    static let stringSegments: Set<String> = ["__TEXT", "__DATA", "__DATA_CONST"]

    let sections: [Section]

    /// Parses the load commands.
    /// - Returns: nil when the bytes are not a thin 64-bit little-endian Mach-O, or any command or section
    ///   points outside the file.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 32, Self.u32(bytes, 0) == Self.magic64 else { return nil }
        let commandCount = Int(Self.u32(bytes, 16))
        let commandsSize = Int(Self.u32(bytes, 20))
        guard commandCount <= 65_536, 32 + commandsSize <= bytes.count else { return nil }
        var found: [Section] = []
        var offset = 32
        for _ in 0..<commandCount {
            guard offset + 8 <= 32 + commandsSize else { return nil }
            let command = Self.u32(bytes, offset)
            let size = Int(Self.u32(bytes, offset + 4))
            guard size >= 8, offset + size <= 32 + commandsSize else { return nil }
            if command == Self.segment64 {
                guard size >= 72 else { return nil }
                let sectionCount = Int(Self.u32(bytes, offset + 64))
                guard 72 + sectionCount * 80 <= size else { return nil }
                for index in 0..<sectionCount {
                    let base = offset + 72 + index * 80
                    let name = Self.name(bytes, base)
                    let segment = Self.name(bytes, base + 16)
                    let length = Self.u64(bytes, base + 40)
                    let start = UInt64(Self.u32(bytes, base + 48))
                    // Zero-fill sections (bss) have no bytes in the file.
                    let type = Self.u32(bytes, base + 64) & 0xFF
                    guard type != 0x01, type != 0x0C, length > 0 else { continue }
                    guard start + length <= UInt64(bytes.count) else { return nil }
                    found.append(Section(segment: segment, name: name, range: Int(start)..<Int(start + length)))
                }
            }
            offset += size
        }
        sections = found
    }

    /// The sections the harvester scans.
    var stringSectionRanges: [Range<Int>] {
        sections.filter { Self.stringSegments.contains($0.segment) && Self.stringSections.contains($0.name) }.map(
            \.range)
    }

    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    /// A 16-byte NUL-padded name.
    static func name(_ b: [UInt8], _ i: Int) -> String {
        String(decoding: b[i..<i + 16].prefix { $0 != 0 }, as: UTF8.self)
    }
}
