import Foundation
import ZIPFoundation

/// An `.ipa` (or any zip) read in memory, one entry at a time, with every hostile-archive check of
/// docs/app.md: entry count, unsafe paths, duplicates, escaping links, and inflation counted while inflating.
final class ZipStorage: BundleStorage {
    private let archive: Archive
    private let file: String
    private let budget: ReadBudget
    private var zipEntries: [String: Entry] = [:]
    private(set) var entries: [String: BundleFiles.Kind] = [:]

    /// The longest symbolic link target read (a real one is a short relative path).
    static let maxLinkBytes: UInt64 = 4096

    /// Opens an archive and checks its directory.
    /// - Parameters:
    ///   - url: The zip file.
    ///   - file: The path as the caller gave it, for errors.
    ///   - budget: The inflation budget shared by every read.
    /// - Throws: ``AppBundleError``.
    init(url: URL, file: String, budget: ReadBudget) throws {
        self.file = file
        self.budget = budget
        let declared = try ZipDirectory.declaredEntryCount(url: url, file: file)
        guard declared <= UInt64(budget.limits.maxEntries) else {
            throw AppBundleError(
                .tooManyEntries, file: file,
                reason: "the archive has \(declared) entries, more than the limit of \(budget.limits.maxEntries)")
        }
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw AppBundleError(.corruptArchive, file: file, reason: "not a readable zip archive (\(error))")
        }
        var links: [(path: String, target: String)] = []
        var count: UInt64 = 0
        for entry in archive {
            count += 1
            let path: String
            do { path = try BundlePath.normalise(entry.path) } catch {
                throw AppBundleError(.unsafePath, file: file, reason: Self.describe(error, entry.path))
            }
            guard zipEntries[path] == nil else {
                throw AppBundleError(.duplicateEntry, file: file, reason: "entry \(path) appears more than once")
            }
            zipEntries[path] = entry
            switch entry.type {
            case .directory: entries[path] = .directory
            case .file: entries[path] = .file(size: Int64(clamping: entry.uncompressedSize))
            case .symlink:
                links.append((path, try linkTarget(entry, path: path)))
                entries[path] = .symlink(target: "")
            }
        }
        guard count == declared else {
            throw AppBundleError(
                .corruptArchive, file: file,
                reason:
                    "truncated or corrupt archive: the directory declares \(declared) entries, \(count) could be read")
        }
        for (path, target) in try checkLinks(links, file: file) { entries[path] = .symlink(target: target) }
        try addImpliedFolders(&entries, file: file)
    }

    private static func describe(_ problem: BundlePath.Problem, _ raw: String) -> String {
        switch problem {
        case .absolute: return "entry \(raw) has an absolute path"
        case .parent: return "entry \(raw) climbs out of the archive with '..'"
        case .nul: return "entry \(raw.replacingOccurrences(of: "\0", with: "\\0")) has a NUL byte in its path"
        case .empty: return "an entry has an empty path ('\(raw)')"
        }
    }

    private func linkTarget(_ entry: Entry, path: String) throws -> String {
        guard entry.uncompressedSize <= Self.maxLinkBytes, entry.compressedSize <= Self.maxLinkBytes else {
            throw AppBundleError(.corruptArchive, file: file, reason: "symbolic link \(path) has an over-long target")
        }
        var data = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: true) { data.append($0) }
        } catch {
            throw AppBundleError(.corruptArchive, file: file, reason: "cannot read symbolic link \(path) (\(error))")
        }
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
        let limits = budget.limits
        let compressed = max(Int64(clamping: entry.compressedSize), 1)
        let declared = Int64(clamping: entry.uncompressedSize)
        if declared > limits.ratioFloorBytes, declared / compressed > limits.maxCompressionRatio {
            throw ratioError(path, declared, compressed, declaredOnly: true)
        }
        var data = Data()
        var produced: Int64 = 0
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                produced += Int64(chunk.count)
                // Counted while inflating: the header's sizes are the archive's claim, not a fact.
                if produced > declared {
                    throw AppBundleError(
                        .corruptArchive, file: self.file,
                        reason: "entry \(path) inflates past the \(declared) bytes its header declares")
                }
                if produced > limits.ratioFloorBytes, produced / compressed > limits.maxCompressionRatio {
                    throw self.ratioError(path, produced, compressed, declaredOnly: false)
                }
                try self.budget.spend(chunk.count, entry: path)
                data.append(chunk)
            }
        } catch let error as AppBundleError {
            throw error
        } catch {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) is corrupt (\(error))")
        }
        guard produced == declared else {
            throw AppBundleError(
                .corruptArchive, file: file, reason: "entry \(path) is truncated: \(produced) of \(declared) bytes")
        }
        guard checksum == entry.checksum else {
            throw AppBundleError(.corruptArchive, file: file, reason: "entry \(path) fails its CRC-32 check")
        }
        return data
    }

    private func ratioError(_ path: String, _ size: Int64, _ compressed: Int64, declaredOnly: Bool) -> AppBundleError {
        let verb = declaredOnly ? "declares" : "inflates to"
        return AppBundleError(
            .compressionRatio, file: file,
            reason:
                "entry \(path) \(verb) \(size) bytes from \(compressed) (more than "
                + "\(budget.limits.maxCompressionRatio):1, a zip bomb?)"
        )
    }
}

/// The end-of-central-directory record, read directly: ZIPFoundation stops iterating silently at an entry it
/// cannot read, so the declared count is what tells a truncated directory from a short one.
enum ZipDirectory {
    /// The number of entries the archive's directory declares (ZIP64 aware).
    /// - Throws: ``AppBundleError`` when the file cannot be read or has no end-of-central-directory record.
    static func declaredEntryCount(url: URL, file: String) throws -> UInt64 {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw AppBundleError(.unreadable, file: file, reason: "cannot read the file")
        }
        defer { try? handle.close() }
        let size: UInt64
        do { size = try handle.seekToEnd() } catch {
            throw AppBundleError(.unreadable, file: file, reason: "cannot read the file")
        }
        let tailLength = min(size, 22 + 65_535)
        let tail: [UInt8]
        do {
            try handle.seek(toOffset: size - tailLength)
            tail = [UInt8](try handle.read(upToCount: Int(tailLength)) ?? Data())
        } catch {
            throw AppBundleError(.unreadable, file: file, reason: "cannot read the file")
        }
        guard tail.count >= 22,
            let eocd = stride(from: tail.count - 22, through: 0, by: -1).first(where: { le32(tail, $0) == 0x0605_4B50 })
        else {
            throw AppBundleError(
                .corruptArchive, file: file,
                reason: "not a zip archive, or a truncated one: no end-of-central-directory record")
        }
        let count = UInt64(le16(tail, eocd + 10))
        guard count == 0xFFFF, eocd >= 20, le32(tail, eocd - 20) == 0x0706_4B50 else { return count }
        // ZIP64: the locator just before the record gives the offset of the ZIP64 record.
        let offset = le64(tail, eocd - 20 + 8)
        do {
            try handle.seek(toOffset: offset)
            let record = [UInt8](try handle.read(upToCount: 56) ?? Data())
            guard record.count == 56, le32(record, 0) == 0x0606_4B50 else { throw CocoaError(.fileReadCorruptFile) }
            return le64(record, 32)
        } catch {
            throw AppBundleError(.corruptArchive, file: file, reason: "corrupt ZIP64 end-of-central-directory record")
        }
    }

    static func le16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func le32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(le16(b, i)) | UInt32(le16(b, i + 2)) << 16 }
    static func le64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(le32(b, i)) | UInt64(le32(b, i + 4)) << 32 }
}
