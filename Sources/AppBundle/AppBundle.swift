import ATSPolicy
import Foundation
import TLSModel

/// Reads an `.ipa`, an `.app` folder or an `.xcarchive` offline: the Info.plist and its ATS lint, the pinning
/// libraries linked, the certificate files they would load, and the files the endpoint harvester scans.
///
/// Hostile input is refused with ``AppBundleError`` (the CLI's exit 65): zip bombs, unsafe entry paths,
/// escaping links, duplicate entries, truncated archives, too many entries (docs/app.md).
public enum AppBundle {
    /// Opens and reads a bundle.
    /// - Parameters:
    ///   - path: An `.ipa` (or any zip holding `Payload/NAME.app`), an `.app` folder or an `.xcarchive` folder.
    ///   - limits: The caps on entries and bytes.
    /// - Returns: What was read.
    /// - Throws: ``AppBundleError``.
    public static func open(path: String, limits: ArchiveLimits = .default) throws -> AppBundleContents {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AppBundleError(.unreadable, file: path, reason: "no such file or folder")
        }
        let budget = ReadBudget(limits: limits, file: path)
        let storage: BundleStorage
        let container: AppBundleContents.Container
        if isDirectory.boolValue {
            storage = try FolderStorage(root: url, file: path, budget: budget)
            container = url.pathExtension.lowercased() == "xcarchive" ? .xcarchive : .app
        } else {
            storage = try ZipStorage(url: url, file: path, budget: budget)
            container = .ipa
        }
        let root = try findApp(in: storage, container: container, file: path)
        return try BundleReader(storage: storage, appRoot: root, input: path, container: container, limits: limits)
            .read()
    }

    /// The `.app` folder inside the input: the input itself, `Payload/NAME.app` (ipa), or
    /// `Products/Applications/NAME.app` (xcarchive, zipped or not).
    static func findApp(in storage: BundleStorage, container: AppBundleContents.Container, file: String) throws
        -> String
    {
        if container == .app { return "" }
        let entries = storage.entries
        func apps(in folder: String) -> [String] {
            entries.keys.filter { key in
                guard key.hasSuffix(".app"), entries[key] == .directory else { return false }
                let parent = key.split(separator: "/").dropLast().joined(separator: "/")
                return parent == folder
            }.sorted()
        }
        let archiveProducts = entries.keys.filter { $0.hasSuffix(".xcarchive/Products/Applications") }.sorted()
        for folder in ["Payload", "Products/Applications", ""] + archiveProducts {
            let found = apps(in: folder)
            if found.count == 1 { return found[0] }
            if found.count > 1 {
                throw AppBundleError(
                    .notABundle, file: file,
                    reason:
                        "\(found.count) apps in \(folder.isEmpty ? "the top level" : folder + "/") "
                        + "(\(found.joined(separator: ", "))); expected one"
                )
            }
        }
        let expected = container == .xcarchive ? "Products/Applications/NAME.app" : "Payload/NAME.app"
        throw AppBundleError(.notABundle, file: file, reason: "no app bundle found: expected \(expected)")
    }
}
