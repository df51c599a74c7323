import Foundation

/// The trust data a run judged with, named in every report (JSON `trustData`, a line of the text): which CT log list
/// and which root stores, where each came from and how old it is (docs/trust-data.md).
public struct TrustDataInfo: Codable, Sendable, Equatable {
    /// Apple's CT log list, or the `--ct-log-list` file; nil when no list was used.
    public var ctLogList: TrustDataSource?
    /// The root stores (Apple's per release, bundled), or the store `--trust-store` chose.
    public var roots: TrustDataSource?

    public init(ctLogList: TrustDataSource? = nil, roots: TrustDataSource? = nil) {
        self.ctLogList = ctLogList
        self.roots = roots
    }
}

/// One piece of trust data: where it came from and its date.
public struct TrustDataSource: Codable, Sendable, Equatable {
    /// Where atscheck took it from.
    public enum Origin: String, Codable, Sendable {
        /// Compiled into the binary (`scripts/apple-trust/generate.py`).
        case bundled
        /// Downloaded by `atscheck data update` into the data folder (or `--apple-data DIR`).
        case updated
        /// A file given on the command line (`--ct-log-list`, `--trust-store PATH`).
        case file
        /// This machine's store (`--trust-store host`) or none.
        case host
    }

    public var source: Origin
    /// `Apple's CT log list`, `Apple trust stores iOS 14.0–26.0`, a path.
    public var name: String
    /// The list's `version`, or the newest store's version.
    public var version: String?
    /// The data's own date (`YYYY-MM-DD`): the list's `log_list_timestamp`, else its newest log state change; the
    /// newest store's tag date.
    public var date: String?
    /// Where it came from: the URL downloaded, the security_certificates tag, the file.
    public var location: String?
    /// When `atscheck data update` downloaded it.
    public var fetchedAt: Date?
    /// SHA-256 of the bytes as downloaded (lower-case hex).
    public var sha256: String?

    public init(
        source: Origin, name: String, version: String? = nil, date: String? = nil, location: String? = nil,
        fetchedAt: Date? = nil, sha256: String? = nil
    ) {
        self.source = source
        self.name = name
        self.version = version
        self.date = date
        self.location = location
        self.fetchedAt = fetchedAt
        self.sha256 = sha256
    }

    /// `Apple's CT log list version 375 (updated, 2026-11-20)`: how a text report names it.
    public var summary: String {
        var text = name
        if let version { text += " version \(version)" }
        var detail = [source.rawValue]
        if let date { detail.append(date) }
        return text + " (\(detail.joined(separator: ", ")))"
    }
}

extension TrustDataInfo {
    /// `trust data: Apple's CT log list version 375 (bundled, 2025-10-02); Apple trust stores … (bundled, …)`.
    public var summary: String {
        [ctLogList, roots].compactMap { $0?.summary }.joined(separator: "; ")
    }
}
