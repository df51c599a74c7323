import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import TLSModel

/// `atscheck data`: the Apple trust data atscheck judges with, brought up to date.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Keep the Apple trust data atscheck judges with current (Apple's CT log list).",
        subcommands: [DataUpdateCommand.self, DataShowCommand.self]
    )
}

/// The folder options `data update` and `data show` share.
struct DataFolderOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The data folder (default: $XDG_DATA_HOME/atscheck, else ~/.local/share/atscheck). Other commands read it with --apple-data DIR.",
            valueName: "dir"))
    var dataDir: String?

    /// The folder: `--data-dir`, else the XDG default.
    /// - Throws: `ExitCode` 64 after one line on stderr when neither `--data-dir`, `XDG_DATA_HOME` nor `HOME` names
    ///   one.
    func folder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AppleDataFolder {
        if let dataDir { return AppleDataFolder(path: dataDir) }
        guard let folder = AppleDataFolder.defaultFolder(environment: environment) else {
            Terminal.fail("no data folder: set HOME or XDG_DATA_HOME, or give --data-dir DIR")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        return folder
    }
}

struct DataUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Download Apple's current CT log list into the data folder; every later run judges with it.",
        usage: "atscheck data update [--url <url>] [--data-dir <dir>] [<options>]",
        discussion: """
            Downloads \(AppleDataUpdate.defaultURL) (Apple support article 103703; --url for another copy), checks \
            it (HTTPS to a server whose certificate verifies, Apple's log_list_schema_v5, every log key a public \
            key whose SHA-256 is its log_id) and stores it with its provenance (URL, time, version, date, SHA-256) \
            in the data folder. Apple publishes no signature of the list: it is as authentic as the HTTPS \
            connection. A download that fails or is not a valid list stores nothing and leaves the folder as it \
            was. Every command that judges trust then uses the folder's list (--apple-data DIR for another \
            folder, --apple-data none for the bundled data); reports name the data and its date.

            The last line is a key for a CI cache of the folder: it changes exactly when the data does. \
            Connections go through --proxy, or $https_proxy / $HTTPS_PROXY less $no_proxy / $NO_PROXY. \
            Trust stores are not downloaded (see docs/trust-data.md).

            Exit status: 0 stored; 2 the download failed; 64 usage error; 65 the download is not a valid list; \
            73 the data folder cannot be written.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Download this URL instead of Apple's.", valueName: "url"))
    var url: String = AppleDataUpdate.defaultURL

    @OptionGroup var folderOptions: DataFolderOptions

    @Option(name: .long, help: "Seconds for the whole download.")
    var timeout: Double = 30

    @Option(
        name: .customLong("ca-file"),
        help: "PEM file of extra anchors the download's HTTPS server may chain to (besides this machine's). Repeatable."
    )
    var caFiles: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Download through the HTTP proxy at URL (http://[user:password@]host:port). Default: $https_proxy or $HTTPS_PROXY, except for $no_proxy / $NO_PROXY hosts.",
            valueName: "url"))
    var proxy: String?

    @Flag(name: .customLong("no-proxy"), help: "Connect directly: ignore the proxy variables (not with --proxy).")
    var noProxy = false

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 300 else {
            throw ValidationError("--timeout must be between 0 and 300 seconds")
        }
        guard url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://") else {
            throw ValidationError("--url must be an https:// (or http://) URL")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = try folderOptions.folder(environment: environment)
        var settings = ScanSettings()
        do {
            settings.proxy = try ProxySettings.resolve(
                option: proxy, ignoreEnvironment: noProxy, environment: environment)
        } catch let error as ProxySettingsError {
            Terminal.fail(error.message)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        try await Terminal.exitingOnFileErrors { try PEMFile.validate(caFiles) }
        settings.caFiles = caFiles
        let update = AppleDataUpdate(url: url, folder: folder, timeout: timeout)
        let result: AppleDataUpdate.Result
        do { result = try await update.run(fetcher: settings.makeHTTPFetcher()) } catch {
            Terminal.fail(error.message)
            switch error.kind {
            case .download: throw ExitCode(ExitStatus.incomplete.rawValue)
            case .malformed: throw ExitCode(ExitStatus.badInput.rawValue)
            case .write: throw ExitCode(ExitStatus.cannotWrite.rawValue)
            }
        }
        print(DataShowCommand.describe(result.entry, folder: result.folder, previous: result.previousVersion))
    }
}

struct DataShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show what the data folder holds (no network): the list's version, date, source and CI cache key."
    )

    @OptionGroup var folderOptions: DataFolderOptions

    func run() throws {
        let folder = try folderOptions.folder()
        guard folder.hasData else {
            print("No updated Apple data in \(folder.path): commands judge with the bundled data.")
            print("Run `atscheck data update` to download Apple's current CT log list.")
            return
        }
        do {
            _ = try folder.logList()  // checked as a scan would read it
            guard let entry = try folder.manifest().ctLogList else { return }
            print(Self.describe(entry, folder: folder, previous: nil))
        } catch let error as InputFileError {
            Terminal.fail(error.description)
            throw ExitCode(ExitStatus.badInput.rawValue)
        }
    }

    /// What the folder holds, the last line the CI cache key.
    static func describe(_ entry: AppleDataManifest.LogListEntry, folder: AppleDataFolder, previous: String?)
        -> String
    {
        var lines = [
            "Apple's CT log list version \(entry.version)\(entry.date.map { ", dated \($0)" } ?? ""): \(entry.logs) logs"
        ]
        lines.append("from \(entry.url), \(ISO8601DateFormatter().string(from: entry.fetchedAt))")
        lines.append("SHA-256 \(entry.sha256) (\(entry.bytes) bytes)")
        var stored = "stored in \(folder.path)"
        if let previous { stored += previous == entry.version ? " (unchanged version)" : " (was version \(previous))" }
        lines.append(stored)
        lines += entry.verified.map { "verified: \($0)" }
        lines += entry.notVerified.map { "not verified: \($0)" }
        lines.append("CI cache key: \(AppleDataUpdate.cacheKey(sha256: entry.sha256))")
        return lines.joined(separator: "\n")
    }
}
