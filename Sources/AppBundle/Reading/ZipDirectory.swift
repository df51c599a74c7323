import Foundation

/// One entry of a zip's central directory, with every offset and size already checked against the file.
struct ZipEntryRecord {
    enum Kind: Equatable { case file, directory, symlink }

    /// The name as stored (decoded as UTF-8; not yet normalised).
    var name: String
    /// The name's bytes, compared with the local header's.
    var rawName: [UInt8]
    var kind: Kind
    /// General purpose flags (bit 0: encrypted).
    var flags: UInt16
    /// 0 stored, 8 deflate.
    var method: UInt16
    var crc32: UInt32
    var compressedSize: UInt64
    var uncompressedSize: UInt64
    /// Where the local header starts; its header is before ``ZipCentralDirectory/offset``.
    var localHeaderOffset: UInt64
}

/// A zip's central directory, read by atscheck itself from the end records (ZIP64 aware).
///
/// Every offset and size the archive states is checked against the file's size before it is used to seek or to
/// allocate: the end record's and the ZIP64 record's directory offset and size, the ZIP64 locator's offset, each
/// entry's local header offset and compressed size. So a ZIP64 offset of 2^63 or more is a refused archive, not a
/// trap in an integer conversion. The entries' data is read by ``ZipStorage``.
struct ZipCentralDirectory {
    static let endSignature: UInt32 = 0x0605_4B50
    static let zip64EndSignature: UInt32 = 0x0606_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let entrySignature: UInt32 = 0x0201_4B50
    /// The fixed part of a directory entry; the name, extra field and comment follow.
    static let entryHeaderSize = 46

    /// Where the directory starts (every local header and entry's data lies before it).
    var offset: UInt64
    var entries: [ZipEntryRecord]

    /// Why a directory is refused: the reason after `FILE: `, and whether it is the entry cap.
    struct Refusal: Error {
        var reason: String
        var tooManyEntries = false
    }

    /// Reads the directory.
    /// - Parameters:
    ///   - file: The archive.
    ///   - maxEntries: More declared entries than this are refused before any is read.
    /// - Throws: ``Refusal``.
    init(file: RegularFile, maxEntries: Int) throws {
        let end = try Self.endRecord(file)
        var count = UInt64(end.bytes.le16(10))
        var size = UInt64(end.bytes.le32(12))
        var start = UInt64(end.bytes.le32(16))
        let endOffset = end.offset
        // Where the directory must end: at the ZIP64 end record when there is one, else at the end record.
        var directoryEnd = endOffset
        if endOffset >= 20, let locator = try? file.bytes(at: endOffset - 20, count: 20),
            locator.le32(0) == Self.zip64LocatorSignature
        {
            // ZIP64: the locator names the ZIP64 end record, which must lie whole before the locator.
            let recordOffset = locator.le64(8)
            guard recordOffset <= endOffset - 20, endOffset - 20 - recordOffset >= 56 else {
                throw Refusal(
                    reason:
                        "corrupt ZIP64 end-of-central-directory locator: it points at offset \(recordOffset), outside "
                        + "the \(file.size)-byte file")
            }
            let record = try Self.read(file, at: recordOffset, count: 56)
            guard record.le32(0) == Self.zip64EndSignature else {
                throw Refusal(reason: "corrupt ZIP64 end-of-central-directory record at offset \(recordOffset)")
            }
            count = record.le64(32)
            size = record.le64(40)
            start = record.le64(48)
            directoryEnd = recordOffset
        }
        guard count <= UInt64(maxEntries) else {
            throw Refusal(
                reason: "the archive has \(count) entries, more than the limit of \(maxEntries)", tooManyEntries: true)
        }
        guard start <= directoryEnd, size <= directoryEnd - start else {
            throw Refusal(
                reason:
                    "truncated or corrupt archive: the central directory (\(size) bytes at offset \(start)) lies "
                    + "outside the \(file.size)-byte file")
        }
        guard count <= size / UInt64(Self.entryHeaderSize) else {
            throw Refusal(
                reason:
                    "truncated or corrupt archive: the directory declares \(count) entries, more than its \(size) bytes "
                    + "can hold")
        }
        offset = start
        entries = []
        entries.reserveCapacity(Int(count))
        var position = start
        let limit = start + size
        for index in 0..<count {
            guard let entry = try Self.entry(file, at: &position, limit: limit, directoryStart: start) else {
                throw Refusal(
                    reason:
                        "truncated or corrupt archive: the directory declares \(count) entries, \(index) could be read")
            }
            entries.append(entry)
        }
    }

    /// The end-of-central-directory record: the last one in the final 64 KB + 22 bytes (its comment is at most
    /// 65,535 bytes long).
    private static func endRecord(_ file: RegularFile) throws -> (bytes: [UInt8], offset: UInt64) {
        let tailLength = min(file.size, 22 + 65_535)
        let tail = try read(file, at: file.size - tailLength, count: Int(tailLength))
        guard tail.count >= 22,
            let at = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.le32($0) == endSignature })
        else {
            throw Refusal(reason: "not a zip archive, or a truncated one: no end-of-central-directory record")
        }
        return (Array(tail[at..<at + 22]), file.size - tailLength + UInt64(at))
    }

    /// One directory entry at `position` (moved past it), or nil when it does not fit or is not an entry.
    private static func entry(_ file: RegularFile, at position: inout UInt64, limit: UInt64, directoryStart: UInt64)
        throws -> ZipEntryRecord?
    {
        guard limit - position >= UInt64(entryHeaderSize) else { return nil }
        let header = try read(file, at: position, count: entryHeaderSize)
        guard header.le32(0) == entrySignature else { return nil }
        let nameLength = Int(header.le16(28))
        let extraLength = Int(header.le16(30))
        let commentLength = Int(header.le16(32))
        let total = UInt64(entryHeaderSize + nameLength + extraLength + commentLength)
        guard limit - position >= total else { return nil }
        let variable = try read(file, at: position + UInt64(entryHeaderSize), count: nameLength + extraLength)
        position += total
        let rawName = Array(variable[0..<nameLength])
        let name = String(decoding: rawName, as: UTF8.self)
        var compressed = UInt64(header.le32(20))
        var uncompressed = UInt64(header.le32(24))
        var local = UInt64(header.le32(42))
        if uncompressed == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || local == 0xFFFF_FFFF {
            // The ZIP64 extended information field (0x0001) holds, in this order, each value whose 32-bit field
            // is 0xFFFFFFFF.
            guard let zip64 = field(0x0001, in: Array(variable[nameLength...])) else {
                throw Refusal(reason: "entry \(name) has a 32-bit field at its maximum but no ZIP64 extra field")
            }
            var at = 0
            func next() throws -> UInt64 {
                guard at + 8 <= zip64.count else {
                    throw Refusal(reason: "entry \(name) has a truncated ZIP64 extra field")
                }
                defer { at += 8 }
                return zip64.le64(at)
            }
            if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
            if compressed == 0xFFFF_FFFF { compressed = try next() }
            if local == 0xFFFF_FFFF { local = try next() }
        }
        // The local header (30 bytes) and the data must come before the directory.
        guard local <= directoryStart, directoryStart - local >= 30, compressed <= directoryStart - local - 30 else {
            throw Refusal(
                reason:
                    "entry \(name) lies outside the archive's data (local header at offset \(local), \(compressed) "
                    + "bytes; the directory starts at \(directoryStart))")
        }
        return ZipEntryRecord(
            name: name, rawName: rawName, kind: kind(name: name, madeBy: header.le16(4), attributes: header.le32(38)),
            flags: header.le16(8), method: header.le16(10), crc32: header.le32(16), compressedSize: compressed,
            uncompressedSize: uncompressed, localHeaderOffset: local)
    }

    /// The data of one extra field, or nil when absent or malformed.
    private static func field(_ id: UInt16, in extra: [UInt8]) -> [UInt8]? {
        var at = 0
        while at + 4 <= extra.count {
            let size = Int(extra.le16(at + 2))
            guard at + 4 + size <= extra.count else { return nil }
            if extra.le16(at) == id { return Array(extra[at + 4..<at + 4 + size]) }
            at += 4 + size
        }
        return nil
    }

    /// What an entry is: the Unix mode in the external attributes when the archive was made on Unix or macOS,
    /// else a trailing `/` (or the MS-DOS directory bit) for a folder.
    private static func kind(name: String, madeBy: UInt16, attributes: UInt32) -> ZipEntryRecord.Kind {
        let slash = name.hasSuffix("/")
        switch madeBy >> 8 {
        case 3, 19:
            switch (attributes >> 16) & 0o170000 {
            case 0o100000: return .file
            case 0o040000: return .directory
            case 0o120000: return .symlink
            default: return slash ? .directory : .file
            }
        case 0: return slash || attributes & 0x10 != 0 ? .directory : .file
        default: return slash ? .directory : .file
        }
    }

    /// Bytes of the file, any failure as a refusal.
    static func read(_ file: RegularFile, at offset: UInt64, count: Int) throws -> [UInt8] {
        do { return try file.bytes(at: offset, count: count) } catch .outOfRange {
            throw Refusal(reason: "truncated or corrupt archive: \(count) bytes at offset \(offset) lie past its end")
        } catch {
            throw Refusal(reason: "cannot read the file")
        }
    }
}

extension [UInt8] {
    func le16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func le32(_ i: Int) -> UInt32 { UInt32(le16(i)) | UInt32(le16(i + 2)) << 16 }
    func le64(_ i: Int) -> UInt64 { UInt64(le32(i)) | UInt64(le32(i + 4)) << 32 }
}
