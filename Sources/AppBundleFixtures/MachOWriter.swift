import Foundation

/// Writes small, structurally valid Mach-O files from Swift bytes, for tests and the demo app: no third-party
/// binary is ever committed. Only what a parser of load commands reads is filled in (no code, no symbols).
package enum MachOWriter {
    /// A section to write: its segment, name, bytes and `S_*` type (0x2: C string literals).
    package struct Section: Sendable {
        package var segment: String
        package var name: String
        package var bytes: [UInt8]
        package var type: UInt32

        /// - Parameters: see the properties.
        package init(segment: String, name: String, bytes: [UInt8], type: UInt32 = 0) {
            self.segment = segment
            self.name = name
            self.bytes = bytes
            self.type = type
        }

        /// A `__TEXT,__cstring` section holding the strings, each NUL-terminated.
        package static func cstrings(_ strings: [String]) -> Section {
            Section(segment: "__TEXT", name: "__cstring", bytes: strings.flatMap { Array($0.utf8) + [0] }, type: 0x2)
        }
    }

    /// A thin 64-bit little-endian arm64 `MH_EXECUTE`: `__PAGEZERO`, then one `LC_SEGMENT_64` per segment
    /// named by the sections (in order of first use), then the sections' bytes, then `trailer` (bytes in no
    /// section, like a code signature).
    package static func executable(sections: [Section], trailer: [UInt8] = []) -> [UInt8] {
        var segments: [String] = []
        for section in sections where !segments.contains(section.segment) { segments.append(section.segment) }
        let commandsSize =
            72
            + segments.reduce(0) { total, segment in
                total + 72 + 80 * sections.filter { $0.segment == segment }.count
            }
        var dataOffset = align(32 + commandsSize, 16)
        var placed: [(Section, Int)] = []
        for segment in segments {
            for section in sections where section.segment == segment {
                placed.append((section, dataOffset))
                dataOffset = align(dataOffset + section.bytes.count, 16)
            }
        }
        var out: [UInt8] = []
        out += le32(0xFEED_FACF) + le32(0x0100_000C) + le32(0) + le32(2)
        out += le32(UInt32(segments.count + 1)) + le32(UInt32(commandsSize)) + le32(0) + le32(0)
        // __PAGEZERO: no file bytes.
        out += le32(0x19) + le32(72) + name("__PAGEZERO") + le64(0) + le64(0x1_0000_0000) + le64(0) + le64(0)
        out += le32(0) + le32(0) + le32(0) + le32(0)
        var vmAddress: UInt64 = 0x1_0000_0000
        for segment in segments {
            let mine = placed.filter { $0.0.segment == segment }
            let start = segment == "__TEXT" ? 0 : mine.first!.1
            let end = mine.map { $0.1 + $0.0.bytes.count }.max()!
            out += le32(0x19) + le32(UInt32(72 + 80 * mine.count)) + name(segment)
            out +=
                le64(vmAddress) + le64(UInt64(align(end - start, 4096))) + le64(UInt64(start))
                + le64(UInt64(end - start))
            out +=
                le32(segment == "__TEXT" ? 5 : 3) + le32(segment == "__TEXT" ? 5 : 3) + le32(UInt32(mine.count))
                + le32(0)
            for (section, offset) in mine {
                out += name(section.name) + name(segment)
                out += le64(vmAddress + UInt64(offset - start)) + le64(UInt64(section.bytes.count))
                out +=
                    le32(UInt32(offset)) + le32(4) + le32(0) + le32(0) + le32(section.type) + le32(0) + le32(0)
                    + le32(0)
            }
            vmAddress += UInt64(align(end - start, 4096))
        }
        for (section, offset) in placed {
            out += [UInt8](repeating: 0, count: offset - out.count)
            out += section.bytes
        }
        return out + trailer
    }

    /// A section header written exactly as given: its offset and size are not checked against anything.
    package struct SectionHeader: Sendable {
        package var segment: String
        package var name: String
        package var offset: UInt32
        package var size: UInt64
        package var type: UInt32

        /// - Parameters: see the properties (type 0x2: C string literals).
        package init(
            segment: String = "__TEXT", name: String = "__cstring", offset: UInt32, size: UInt64, type: UInt32 = 0x2
        ) {
            self.segment = segment
            self.name = name
            self.offset = offset
            self.size = size
            self.type = type
        }
    }

    /// Where ``executable(sectionTable:body:)`` puts the body: after the header and one segment command holding
    /// `sectionCount` section headers, rounded up to 16.
    package static func bodyOffset(sectionCount: Int) -> Int { align(32 + 72 + 80 * sectionCount, 16) }

    /// A thin 64-bit `MH_EXECUTE` with one `__TEXT` segment command listing `sectionTable` verbatim (overlapping,
    /// repeated or pointing outside the file, for tests of hostile executables), then `body` at
    /// ``bodyOffset(sectionCount:)``.
    package static func executable(sectionTable: [SectionHeader], body: [UInt8]) -> [UInt8] {
        let command = 72 + 80 * sectionTable.count
        var out = le32(0xFEED_FACF) + le32(0x0100_000C) + le32(0) + le32(2) + le32(1) + le32(UInt32(command))
        out += le32(0) + le32(0)
        out += le32(0x19) + le32(UInt32(command)) + name("__TEXT") + le64(0x1_0000_0000) + le64(0) + le64(0) + le64(0)
        out += le32(5) + le32(5) + le32(UInt32(sectionTable.count)) + le32(0)
        for section in sectionTable {
            out += name(section.name) + name(section.segment) + le64(0x1_0000_0000) + le64(section.size)
            out += le32(section.offset) + le32(4) + le32(0) + le32(0) + le32(section.type) + le32(0) + le32(0) + le32(0)
        }
        out += [UInt8](repeating: 0, count: bodyOffset(sectionCount: sectionTable.count) - out.count)
        return out + body
    }

    /// A universal (fat) file holding the given slices (each aligned to 4 KB), big-endian headers.
    package static func fat(_ slices: [[UInt8]]) -> [UInt8] {
        var out = be32(0xCAFE_BABE) + be32(UInt32(slices.count))
        var offset = align(8 + 20 * slices.count, 4096)
        var placed: [(Int, [UInt8])] = []
        for slice in slices {
            out += be32(0x0100_000C) + be32(0) + be32(UInt32(offset)) + be32(UInt32(slice.count)) + be32(12)
            placed.append((offset, slice))
            offset = align(offset + slice.count, 4096)
        }
        for (at, slice) in placed {
            out += [UInt8](repeating: 0, count: at - out.count)
            out += slice
        }
        return out
    }

    static func align(_ value: Int, _ to: Int) -> Int { (value + to - 1) / to * to }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }
    static func name(_ text: String) -> [UInt8] {
        Array(text.utf8.prefix(16)) + [UInt8](repeating: 0, count: 16 - min(16, text.utf8.count))
    }
}
