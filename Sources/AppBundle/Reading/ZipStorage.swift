import Foundation

/// An `.ipa` (or any zip) read in memory, one entry at a time, with every hostile-archive check of
/// docs/app.md: entry count, offsets and sizes inside the file, unsafe paths, duplicates, escaping or looping
/// links, and inflation bounded by the declared size and counted while inflating.
///
/// atscheck reads the zip itself (``ZipCentralDirectory``, ``Inflater``): ZIPFoundation's reader trusts offsets and
/// sizes from the archive (a ZIP64 offset of 2^63 or more traps converting it to `off_t`), reads a deflated
/// symbolic link's target without inflating it, and inflates until the stream ends rather than within the
/// entry's compressed size. The file is opened once and every read is a `pread` checked against its size.
final class ZipStorage: BundleStorage {
    private let archive: RegularFile
    private let file: String
    private let budget: ReadBudget
    private let directoryStart: UInt64
    private var zipEntries: [String: ZipEntryRecord] = [:]
    private(set) var entries: [String: BundleFiles.Kind] = [:]

    /// The longest symbolic link target read: Darwin's `PATH_MAX` (a real one is a short relative path).
    static let maxLinkBytes: UInt64 = 1024

    /// Opens an archive and checks its directory.
    /// - Parameters:
    ///   - url: The zip file.
    ///   - file: The path as the caller gave it, for errors.
    ///   - budget: The inflation budget shared by every read.
    /// - Throws: ``AppBundleError``.
    init(url: URL, file: String, budget: ReadBudget) throws {
        self.file = file
        self.budget = budget
        do {
            archive = try RegularFile(path: url.path)
        } catch .missing {
            throw AppBundleError(.unreadable, file: file, reason: "no such file or folder")
        } catch .notRegular {
            throw AppBundleError(
                .unreadable, file: file, reason: "not a regular file or a folder (a FIFO, socket or device?)")
        } catch {
            throw AppBundleError(.unreadable, file: file, reason: "cannot read the file")
        }
        let directory: ZipCentralDirectory
        do {
            directory = try ZipCentralDirectory(file: archive, maxEntries: budget.limits.maxEntries)
        } catch let refusal as ZipCentralDirectory.Refusal {
            throw AppBundleError(
                refusal.tooManyEntries ? .tooManyEntries : .corruptArchive, file: file,
                reason: refusal.reason)
        }
        directoryStart = directory.offset
        var links: [(path: String, target: String)] = []
        for entry in directory.entries {
            let path: String
            do { path = try BundlePath.normalise(entry.name) } catch {
                throw AppBundleError(.unsafePath, file: file, reason: Self.describe(error, entry.name))
            }
            guard zipEntries[path] == nil else {
                throw AppBundleError(.duplicateEntry, file: file, reason: "entry \(path) appears more than once")
            }
            zipEntries[path] = entry
            switch entry.kind {
            case .directory: entries[path] = .directory
            case .file: entries[path] = .file(size: Int64(clamping: entry.uncompressedSize))
            case .symlink:
                links.append((path, try linkTarget(entry, path: path)))
                entries[path] = .symlink(target: "")
            }
        }
        for (path, target) in try checkLinks(links, file: file) { entries[path] = .symlink(target: target) }
        try addImpliedFolders(&entries, file: file)
        try checkLinkLoops(entries, file: file)
    }

    private static func describe(_ problem: BundlePath.Problem, _ raw: String) -> String {
        switch problem {
        case .absolute: return "entry \(raw) has an absolute path"
        case .parent: return "entry \(raw) climbs out of the archive with '..'"
        case .nul: return "entry \(raw.replacingOccurrences(of: "\0", with: "\\0")) has a NUL byte in its path"
        case .empty: return "an entry has an empty path ('\(raw)')"
        case .tooLong: return "entry \(raw.prefix(64))… has a path longer than \(BundlePath.maxLength) bytes"
        }
    }

    /// A link's target, inflated when the archive deflated it (as zip tools may: it is stored like file data).
    private func linkTarget(_ entry: ZipEntryRecord, path: String) throws -> String {
        guard entry.uncompressedSize <= Self.maxLinkBytes, entry.compressedSize <= Self.maxLinkBytes else {
            throw AppBundleError(.corruptArchive, file: file, reason: "symbolic link \(path) has an over-long target")
        }
        let data = try contents(of: entry, path: path)
        guard let target = String(data: data, encoding: .utf8) else {
            throw AppBundleError(
                .corruptArchive, file: file, reason: "symbolic link \(path) has a target that is not UTF-8")
        }
        return target
    }

    func read(_ path: String) throws -> Data {
        guard let entry = zipEntries[path] else {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) is missing")
        }
        return try contents(of: entry, path: path)
    }

    /// An entry's bytes, in memory allocated once at the declared size.
    private func contents(of entry: ZipEntryRecord, path: String) throws -> Data {
        let limits = budget.limits
        let compressed = max(Int64(clamping: entry.compressedSize), 1)
        let declared = Int64(clamping: entry.uncompressedSize)
        guard entry.flags & 1 == 0 else {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) is encrypted")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw AppBundleError(
                .corruptArchive, file: file,
                reason: "entry \(path) uses compression method \(entry.method) (only stored and deflate are read)")
        }
        // Before any allocation: the largest file any read accepts, the ratio the header claims, the total.
        guard declared <= limits.maxExecutableBytes else {
            throw AppBundleError(
                .corruptArchive, file: file,
                reason:
                    "entry \(path) declares \(declared) bytes, more than the \(ReadBudget.size(limits.maxExecutableBytes)) limit"
            )
        }
        if declared > limits.ratioFloorBytes, declared / compressed > limits.maxCompressionRatio {
            throw ratioError(path, declared, compressed)
        }
        let dataStart = try dataOffset(of: entry, path: path)
        if entry.method == 0, entry.compressedSize != entry.uncompressedSize {
            throw AppBundleError(
                .corruptArchive, file: file,
                reason:
                    "stored entry \(path) declares \(entry.uncompressedSize) bytes but holds \(entry.compressedSize)")
        }
        let data = try OwnedBytes.data(count: Int(declared)) { buffer in
            if entry.method == 0 {
                try budget.spend(buffer.count, entry: path)
                try readArchive(into: buffer, at: dataStart, path: path)
            } else {
                try inflate(entry, path: path, at: dataStart, into: buffer)
            }
        }
        let checksum = data.withUnsafeBytes { Inflater.crc32($0) }
        guard checksum == entry.crc32 else {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) fails its CRC-32 check")
        }
        return data
    }

    /// Where an entry's data starts: after its local header, whose name must be the directory's and which, with the
    /// data, must end before the directory.
    private func dataOffset(of entry: ZipEntryRecord, path: String) throws -> UInt64 {
        let header: [UInt8]
        do { header = try archive.bytes(at: entry.localHeaderOffset, count: 30) } catch {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) has no readable local header")
        }
        guard header.le32(0) == 0x0403_4B50 else {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) has no local header at its offset")
        }
        let nameLength = UInt64(header.le16(26))
        let extraLength = UInt64(header.le16(28))
        // The directory check put the local header's 30 bytes before the directory; these sums cannot overflow.
        let start = entry.localHeaderOffset + 30 + nameLength + extraLength
        guard start <= directoryStart, entry.compressedSize <= directoryStart - start else {
            throw AppBundleError(
                .corruptArchive, file: file, reason: "entry \(path) runs into the archive's central directory")
        }
        let name = try? archive.bytes(at: entry.localHeaderOffset + 30, count: Int(nameLength))
        guard name == entry.rawName else {
            throw AppBundleError(
                .corruptArchive, file: file, reason: "entry \(path) has another name in its local header")
        }
        return start
    }

    private func readArchive(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, path: String) throws {
        do { try archive.read(into: buffer, at: offset) } catch .outOfRange {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) is truncated")
        } catch {
            throw AppBundleError(.unreadable, file: file, reason: "cannot read entry \(path)")
        }
    }

    private func inflate(
        _ entry: ZipEntryRecord, path: String, at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer
    )
        throws
    {
        do {
            try Inflater.inflate(archive, at: offset, compressedSize: entry.compressedSize, into: buffer) { count in
                // Counted while inflating: the header's sizes are the archive's claim, not a fact.
                try budget.spend(count, entry: path)
            }
        } catch let failure as Inflater.Failure {
            let reason: String
            switch failure {
            case .corrupt: reason = "entry \(path) is corrupt (invalid deflate data)"
            case .endsEarly: reason = "entry \(path) is truncated: its deflate data ends early"
            case .tooLong:
                reason = "entry \(path) inflates past the \(entry.uncompressedSize) bytes its header declares"
            case .tooShort(let produced):
                reason = "entry \(path) is truncated: \(produced) of \(entry.uncompressedSize) bytes"
            }
            throw AppBundleError(.corruptArchive, file: file, reason: reason)
        } catch let failure as RegularFile.Failure {
            throw AppBundleError(
                failure == .outOfRange ? .corruptArchive : .unreadable, file: file,
                reason: failure == .outOfRange ? "entry \(path) is truncated" : "cannot read entry \(path)")
        }
    }

    private func ratioError(_ path: String, _ size: Int64, _ compressed: Int64) -> AppBundleError {
        AppBundleError(
            .compressionRatio, file: file,
            reason:
                "entry \(path) declares \(size) bytes from \(compressed) (more than "
                + "\(budget.limits.maxCompressionRatio):1, a zip bomb?)"
        )
    }
}
