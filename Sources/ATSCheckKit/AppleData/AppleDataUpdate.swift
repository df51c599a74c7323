import CertificateTrust
import Foundation
import TLSModel

/// `atscheck data update`: downloads Apple's current CT log list, checks what can be checked, and stores it with its
/// provenance in the data folder (``AppleDataFolder``), which every command that judges trust then reads.
///
/// What is checked (docs/trust-data.md, "What update verifies"): the answer is HTTPS from a server that proves its
/// name against this machine's CA store (or `--ca-file`); it is JSON in Apple's `log_list_schema_v5` (its `$schema`,
/// as Apple's `BuildTrustedCTLogsPlist.py` requires, and every log as ``CTLogList/parse(_:source:)`` reads it); it
/// lists at least one log; every log's key is a public key and its `log_id` the key's SHA-256 (``CTLogKeys``).
/// What is not: the list carries no signature of its own and Apple publishes none beside it (devices receive the
/// logs in a signed MobileAsset, `com.apple.MobileAsset.PKITrustSupplementals`, `OTATrustUtilities.m`), so the
/// download is only as authentic as the HTTPS connection it came over.
public struct AppleDataUpdate: Sendable {
    /// Apple's current CT log list (support article 103703).
    public static let defaultURL = "https://valid.apple.com/ct/log_list/current_log_list.json"
    /// The schema Apple's lists declare (`certificate_transparency/log_list.json` of security_certificates).
    public static let schema = "https://valid.apple.com/ct/log_list/schema_versions/log_list_schema_v5.json"
    /// The largest list accepted: Apple's list is about 110 KB (version 375).
    public static let maximumBytes = 8 << 20
    /// Redirects followed (a CDN may move the file).
    public static let maximumRedirects = 3

    /// The URL to download.
    public var url: String
    /// Where to store it.
    public var folder: AppleDataFolder
    /// Seconds for the whole download.
    public var timeout: Double

    public init(url: String = Self.defaultURL, folder: AppleDataFolder, timeout: Double = 30) {
        self.url = url
        self.folder = folder
        self.timeout = timeout
    }

    /// What an update stored.
    public struct Result: Sendable, Equatable {
        /// The manifest's record of the list.
        public var entry: AppleDataManifest.LogListEntry
        /// The folder.
        public var folder: AppleDataFolder
        /// The version the folder held before, if any.
        public var previousVersion: String?

        /// A key for a CI cache of the data folder: it changes exactly when the stored data does.
        public var cacheKey: String { AppleDataUpdate.cacheKey(sha256: entry.sha256) }
    }

    /// `atscheck-apple-data-<the first 16 hex digits of the list's SHA-256>`.
    public static func cacheKey(sha256: String) -> String { "atscheck-apple-data-" + sha256.prefix(16) }

    /// Downloads, checks and stores the list.
    ///
    /// > Warning: Touches the network through `fetcher`.
    /// - Parameters:
    ///   - fetcher: Who downloads (the run's HTTP client, with its proxy; tests hand in their own).
    ///   - now: The time recorded as the download's.
    /// - Throws: ``AppleDataError``: the download failed (exit 2), what came is not a valid list (exit 65, nothing is
    ///   stored), the folder cannot be written (exit 73).
    public func run(fetcher: any HTTPFetching, now: Date = Date()) async throws(AppleDataError) -> Result {
        let response: HTTPFetchResponse
        do {
            response = try await fetcher.fetch(
                HTTPFetchRequest(
                    url: url, maximumBytes: Self.maximumBytes, timeout: timeout,
                    maximumRedirects: Self.maximumRedirects, accept: "application/json"))
        } catch {
            throw AppleDataError(.download, "cannot download the CT log list: \(error.reason)")
        }
        let entry = try Self.check(response.body, url: response.url, now: now)
        let previous = try? folder.manifest().ctLogList?.version
        do { try folder.store(logList: response.body, entry: entry) } catch let error as OutputFileError {
            throw AppleDataError(.write, error.description)
        } catch {
            throw AppleDataError(.write, "cannot write \(folder.path): \(error)")
        }
        return Result(entry: entry, folder: folder, previousVersion: previous)
    }

    /// Checks a downloaded list and describes it.
    /// - Throws: ``AppleDataError`` (``AppleDataError/Kind/malformed``) naming the first problem.
    static func check(_ body: Data, url: String, now: Date) throws(AppleDataError) -> AppleDataManifest.LogListEntry {
        func malformed(_ why: String) -> AppleDataError {
            AppleDataError(.malformed, "\(url): \(why); the data folder is unchanged")
        }
        guard let object = try? JSONSerialization.jsonObject(with: body), let root = object as? [String: Any] else {
            throw malformed("not a JSON object (\(body.count) bytes)")
        }
        guard let schema = root["$schema"] as? String else { throw malformed("no $schema: not Apple's log list") }
        guard schema == Self.schema else { throw malformed("schema \(schema), not log_list_schema_v5") }
        let list: CTLogList
        do { list = try CTLogList.parse(body, source: url) } catch {
            throw malformed("\(error)".replacingOccurrences(of: "\(url): ", with: ""))
        }
        guard !list.logs.isEmpty else { throw malformed("it lists no log") }
        let keys = CTLogKeys.problems(list)
        if let first = keys.first {
            throw malformed(first + (keys.count > 1 ? " (and \(keys.count - 1) more)" : ""))
        }
        let timestamp = root["log_list_timestamp"] as? String
        let date = list.date  // its log_list_timestamp, else its newest state change
        let sha = sha256(body)
        // Whole seconds: the manifest stores ISO 8601 times, and the record must read back equal to itself.
        let fetched = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        return AppleDataManifest.LogListEntry(
            url: url, fetchedAt: fetched, version: list.version, logListTimestamp: timestamp,
            date: date.map { CalendarDay.string(from: $0) }, sha256: sha, bytes: body.count,
            file: AppleDataManifest.logListPrefix + sha + ".json", logs: list.logs.count,
            verified: [
                "HTTPS: the server proved its name against this machine's CA store and --ca-file",
                "JSON in Apple's log_list_schema_v5 ($schema, every log's fields)",
                "every log's key is a public key and its log_id the key's SHA-256",
            ],
            notVerified: [
                "a signature of the list: Apple publishes none beside it (devices receive the logs in a signed "
                    + "MobileAsset instead)"
            ])
    }

    /// SHA-256 of the bytes, lower-case hex.
    static func sha256(_ data: Data) -> String { ContentDigest.sha256(data) }
}

/// Why `atscheck data update` stored nothing: one line, and the kind that decides the exit status.
public struct AppleDataError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The download failed (exit 2: nothing could be fetched).
        case download
        /// What came is not a valid list (exit 65).
        case malformed
        /// The data folder cannot be written (exit 73).
        case write
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
