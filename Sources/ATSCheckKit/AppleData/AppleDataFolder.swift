import ATSPolicy
import Foundation
import TLSModel

/// The folder where `atscheck data update` keeps Apple's trust data as of the run, with its provenance
/// (docs/trust-data.md): `$XDG_DATA_HOME/atscheck`, else `~/.local/share/atscheck` (XDG Base Directory), or
/// `--data-dir` / `--apple-data`.
///
/// It holds ``manifestName`` (``AppleDataManifest``: what was downloaded, from where, when, its SHA-256) and the
/// downloaded list byte for byte, named by its SHA-256. An update writes the new list, then the manifest, each to a
/// temporary file renamed into place: a reader sees the old data or the new, never a mix, and a refused download
/// leaves both untouched.
public struct AppleDataFolder: Sendable, Equatable {
    /// The folder.
    public var path: String

    public init(path: String) { self.path = path }

    /// The manifest's file name.
    public static let manifestName = "apple-data.json"

    /// `$XDG_DATA_HOME/atscheck` when `XDG_DATA_HOME` is an absolute path (the XDG rule: a relative one is ignored),
    /// else `$HOME/.local/share/atscheck`; nil without either.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> AppleDataFolder?
    {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return AppleDataFolder(path: (xdg as NSString).appendingPathComponent("atscheck"))
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return AppleDataFolder(path: (home as NSString).appendingPathComponent(".local/share/atscheck"))
    }

    /// The manifest's path.
    public var manifestPath: String { (path as NSString).appendingPathComponent(Self.manifestName) }

    /// Whether the folder has a manifest (data to use).
    public var hasData: Bool { FileManager.default.fileExists(atPath: manifestPath) }

    /// The manifest.
    /// - Throws: ``InputFileError`` (exit 65) when it cannot be read or is not a manifest.
    public func manifest() throws -> AppleDataManifest {
        let data: Data
        do { data = try BoundedFileReader.read(path: manifestPath, limit: 1 << 20) } catch {
            throw InputFileError(file: manifestPath, reason: error.reason)
        }
        do { return try AppleDataManifest.decoder.decode(AppleDataManifest.self, from: data) } catch {
            throw InputFileError(
                file: manifestPath,
                reason:
                    "not an atscheck data manifest (\(error.localizedDescription)); run `atscheck data update` again")
        }
    }

    /// The downloaded CT log list, checked against the manifest's SHA-256, with how reports name it.
    /// - Throws: ``InputFileError`` (exit 65) when the manifest has no list, or the file is missing, altered or
    ///   malformed.
    public func logList() throws -> (list: CTLogList, info: TrustDataSource) {
        let manifest = try manifest()
        guard let entry = manifest.ctLogList else {
            throw InputFileError(file: manifestPath, reason: "it records no CT log list; run `atscheck data update`")
        }
        let file = (path as NSString).appendingPathComponent(entry.file)
        let data: Data
        do { data = try BoundedFileReader.read(path: file, limit: AppleDataUpdate.maximumBytes) } catch {
            throw InputFileError(file: file, reason: "\(error.reason); run `atscheck data update` again")
        }
        guard AppleDataUpdate.sha256(data) == entry.sha256 else {
            throw InputFileError(
                file: file,
                reason: "its SHA-256 is not the one \(Self.manifestName) recorded; run `atscheck data update` again")
        }
        let list: CTLogList
        do { list = try CTLogList.parse(data, source: "Apple's CT log list downloaded \(entry.fetchedDay)") } catch {
            throw InputFileError(file: file, reason: "\(error)")
        }
        return (list, entry.info)
    }

    /// Writes `bytes` as the folder's CT log list and records `entry`: the list under its SHA-256's name, then the
    /// manifest, each atomically; then removes lists no manifest names.
    /// - Throws: ``OutputFileError`` (exit 73) when the folder cannot be written.
    func store(logList bytes: Data, entry: AppleDataManifest.LogListEntry) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw OutputFileError(
                file: path, description: "cannot create the data folder \(path): \(error.localizedDescription)")
        }
        var manifest = (try? self.manifest()) ?? AppleDataManifest()
        try Self.writeAtomically(bytes, to: (path as NSString).appendingPathComponent(entry.file))
        manifest.ctLogList = entry
        try Self.writeAtomically(try AppleDataManifest.encoder.encode(manifest), to: manifestPath)
        // Lists of earlier updates: kept until the new manifest is in place, so a reader never loses its list.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where name.hasPrefix(AppleDataManifest.logListPrefix) && name != entry.file {
            try? FileManager.default.removeItem(atPath: (path as NSString).appendingPathComponent(name))
        }
    }

    /// Writes `data` to a temporary file beside `file`, then renames it over `file` (rename(2) is atomic within a
    /// file system).
    static func writeAtomically(_ data: Data, to file: String) throws {
        let temporary = file + ".tmp-\(getpid())"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, file) == 0 else {
                throw OutputFileError(
                    file: file, description: "cannot write \(file): \(String(cString: strerror(errno)))")
            }
        } catch let error as OutputFileError {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw OutputFileError(file: file, description: "cannot write \(file): \(error.localizedDescription)")
        }
    }
}

/// What `atscheck data update` stored and where it came from (the data folder's `apple-data.json`).
public struct AppleDataManifest: Codable, Sendable, Equatable {
    /// The manifest's format (1).
    public var format: Int
    /// The CT log list downloaded.
    public var ctLogList: LogListEntry?

    public init(format: Int = 1, ctLogList: LogListEntry? = nil) {
        self.format = format
        self.ctLogList = ctLogList
    }

    /// Lists are stored as `ct-log-list-<sha256>.json`.
    static let logListPrefix = "ct-log-list-"

    /// One downloaded CT log list.
    public struct LogListEntry: Codable, Sendable, Equatable {
        /// The URL downloaded (after redirects).
        public var url: String
        /// When it was downloaded.
        public var fetchedAt: Date
        /// The list's `version`.
        public var version: String
        /// The list's `log_list_timestamp`, when it has one.
        public var logListTimestamp: String?
        /// The list's date: ``logListTimestamp``, else the newest state change of its logs (`YYYY-MM-DD`).
        public var date: String?
        /// SHA-256 of the bytes (lower-case hex).
        public var sha256: String
        /// Its size in bytes.
        public var bytes: Int
        /// The file in the folder.
        public var file: String
        /// How many logs it lists.
        public var logs: Int
        /// What was checked before it was stored.
        public var verified: [String]
        /// What could not be checked, and why.
        public var notVerified: [String]

        /// How reports name it.
        public var info: TrustDataSource {
            TrustDataSource(
                source: .updated, name: "Apple's CT log list", version: version, date: date, location: url,
                fetchedAt: fetchedAt, sha256: sha256)
        }

        /// `2026-11-27`: the day it was downloaded.
        var fetchedDay: String { CalendarDay.string(from: fetchedAt) }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
