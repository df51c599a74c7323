import AppleTrust
import Foundation
import TLSModel

extension TrustInputs {
    /// `--apple-data none`: judge with the data bundled in the binary, whatever the data folder holds.
    package static let bundledDataKeyword = "none"

    /// The CT log list a run judges with: `--ct-log-list PATH` when given; else `--apple-data DIR`'s list (`none`: the
    /// bundled one); else the data folder's (``AppleDataFolder/defaultFolder(environment:)``) when `atscheck data
    /// update` stored one there; else the list bundled in the binary.
    /// - Returns: The list and how reports name it.
    /// - Throws: ``InputFileError`` (exit 65) for a list file, or data folder, that cannot be read.
    package static func logList(
        path: String?, appleData: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (list: CTLogList?, info: TrustDataSource?) {
        if let path {
            let list = try logList(path: path)
            return (
                list,
                TrustDataSource(
                    source: .file, name: "CT log list \(path)", version: list.version,
                    date: list.date.map { CalendarDay.string(from: $0) }, location: path)
            )
        }
        switch appleData {
        case bundledDataKeyword?:
            return bundledLogList
        case let directory?:
            let folder = AppleDataFolder(path: directory)
            guard folder.hasData else {
                throw InputFileError(
                    file: directory,
                    reason: "no Apple data here (no \(AppleDataFolder.manifestName)); run `atscheck data update "
                        + "--data-dir \(directory)`, or give --apple-data none for the bundled data")
            }
            return try folder.logList()
        case nil:
            if let folder = AppleDataFolder.defaultFolder(environment: environment), folder.hasData {
                return try folder.logList()
            }
            return bundledLogList
        }
    }

    /// The CT log list `atscheck data update` stored in `folder` (default: the data folder), as reports name it; nil
    /// when there is none (runs then judge with the bundled list).
    /// - Throws: ``InputFileError`` when the folder has a manifest that cannot be read.
    package static func updatedLogList(
        folder: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TrustDataSource? {
        if folder == bundledDataKeyword { return nil }
        guard
            let folder = folder.map(AppleDataFolder.init(path:))
                ?? AppleDataFolder.defaultFolder(environment: environment),
            folder.hasData
        else { return nil }
        return try folder.logList().info
    }

    /// The bundled list and its description.
    static var bundledLogList: (list: CTLogList?, info: TrustDataSource?) {
        let data = AppleTrustBundle.bundled
        guard let list = data.logList else { return (nil, nil) }
        return (
            list,
            TrustDataSource(
                source: .bundled, name: "Apple's CT log list", version: list.version,
                date: list.date.map { CalendarDay.string(from: $0) },
                location:
                    "\(data.snapshots.last?.tag ?? "security_certificates") certificate_transparency/log_list.json")
        )
    }

    /// How reports name the roots of `source`.
    package static func rootsInfo(_ source: TrustStoreSource) -> TrustDataSource? {
        switch source {
        case .apple(let data):
            guard let first = data.snapshots.first, let last = data.snapshots.last else { return nil }
            return TrustDataSource(
                source: .bundled, name: "Apple trust stores iOS \(first.iOS)–\(last.iOS)", version: last.version,
                date: last.date, location: last.tag)
        case .host:
            return TrustDataSource(source: .host, name: "this machine's OpenSSL trust store")
        case .pemBundle(let path):
            return TrustDataSource(source: .file, name: "roots \(path)", location: path)
        case .none:
            return nil
        }
    }
}
