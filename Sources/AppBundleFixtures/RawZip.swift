import Foundation
import ZIPFoundation

/// Writes zip archives field by field, for tests of hostile archives: every offset and size can be set, the
/// ones a well-behaved writer never gets wrong too. Built per test run; no archive is ever committed.
package struct RawZip: Sendable {
    /// One entry.
    package struct Entry: Sendable {
        package enum Kind: Sendable { case file, directory, symlink }

        package var name: String
        /// The uncompressed bytes (a link's target for a symlink).
        package var data: [UInt8]
        package var kind: Kind
        /// Deflate the data (else store it), for links too (legal, and what some zip tools write).
        package var deflate: Bool

        /// - Parameters: see the properties.
        package init(name: String, data: [UInt8], kind: Kind = .file, deflate: Bool = false) {
            self.name = name
            self.data = data
            self.kind = kind
            self.deflate = deflate
        }

        /// A symbolic link.
        package static func symlink(_ name: String, to target: String, deflate: Bool = false) -> Entry {
            Entry(name: name, data: Array(target.utf8), kind: .symlink, deflate: deflate)
        }
    }

    package var entries: [Entry]

    /// - Parameter entries: In archive order.
    package init(entries: [Entry]) { self.entries = entries }

    /// A tree's files and links (files deflated, links as given), paths in order.
    package init(_ tree: BundleTree, deflateLinks: Bool = false) {
        entries =
            tree.files.sorted { $0.key < $1.key }.map { Entry(name: $0.key, data: [UInt8]($0.value), deflate: true) }
            + tree.symlinks.sorted { $0.key < $1.key }.map { .symlink($0.key, to: $0.value, deflate: deflateLinks) }
    }

    /// The archive: local headers and data, the central directory, then the end record (and, with `zip64`, a
    /// ZIP64 end record and locator before it, the 32-bit fields set to their maximum).
    package func bytes(zip64: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let stored = entry.deflate ? Self.deflate(entry.data) : entry.data
            let crc = Data(entry.data).crc32(checksum: 0)
            let name = Array(entry.name.utf8)
            let offset = UInt32(out.count)
            let method: UInt16 = entry.deflate ? 8 : 0
            out += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(stored.count)) + le32(UInt32(entry.data.count))
            out += le16(UInt16(name.count)) + le16(0) + name + stored
            let mode: UInt32 =
                switch entry.kind {
                case .file: 0o100644
                case .directory: 0o040755
                case .symlink: 0o120755
                }
            directory += le32(0x0201_4B50) + le16(0x0314) + le16(20) + le16(0x0800) + le16(method) + le16(0)
            directory += le16(0x21) + le32(crc) + le32(UInt32(stored.count)) + le32(UInt32(entry.data.count))
            directory += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(mode << 16)
            directory += le32(offset) + name
        }
        let start = out.count
        out += directory
        if zip64 {
            let record = out.count
            out += Self.zip64EndRecord(
                entries: UInt64(entries.count), directorySize: UInt64(directory.count), directoryOffset: UInt64(start))
            out += Self.zip64Locator(recordOffset: UInt64(record))
            out += Self.endRecord(entries: 0xFFFF, directorySize: 0xFFFF_FFFF, directoryOffset: 0xFFFF_FFFF)
        } else {
            out += Self.endRecord(
                entries: UInt16(entries.count), directorySize: UInt32(directory.count), directoryOffset: UInt32(start))
        }
        return out
    }

    /// An end-of-central-directory record (22 bytes, no comment).
    package static func endRecord(entries: UInt16, directorySize: UInt32, directoryOffset: UInt32) -> [UInt8] {
        le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries) + le16(entries) + le32(directorySize)
            + le32(directoryOffset) + le16(0)
    }

    /// A ZIP64 end-of-central-directory record (56 bytes).
    package static func zip64EndRecord(entries: UInt64, directorySize: UInt64, directoryOffset: UInt64) -> [UInt8] {
        le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0) + le64(entries) + le64(entries)
            + le64(directorySize) + le64(directoryOffset)
    }

    /// A ZIP64 end-of-central-directory locator (20 bytes) naming the ZIP64 record's offset.
    package static func zip64Locator(recordOffset: UInt64) -> [UInt8] {
        le32(0x0706_4B50) + le32(0) + le64(recordOffset) + le32(1)
    }

    /// Raw deflate (no zlib header), as a zip entry stores it.
    package static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var out = Data()
        let input = Data(bytes)
        // Compressing bytes in memory does not fail.
        _ = try! Data.compress(
            size: Int64(input.count), bufferSize: 64 << 10,
            provider: { position, size in input.subdata(in: Int(position)..<Int(position) + size) },
            consumer: { out.append($0) })
        return [UInt8](out)
    }
}

private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
private func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
