import ATSPolicy
import Foundation

/// An `.app` or `.xcarchive` folder on disk, listed without following symbolic links; every link must resolve
/// inside the folder (and inside the app it belongs to). Files are read one at a time under the same budget
/// as a zip's. The folder is assumed not to change while it is read.
final class FolderStorage: BundleStorage {
    private let root: URL
    private let file: String
    private let budget: ReadBudget
    private(set) var entries: [String: BundleFiles.Kind] = [:]

    /// Lists a folder.
    /// - Throws: ``AppBundleError`` (too many entries, escaping links, unreadable).
    init(root: URL, file: String, budget: ReadBudget) throws {
        self.root = root
        self.file = file
        self.budget = budget
        let keys: [URLResourceKey] = [.isSymbolicLinkKey, .isDirectoryKey, .isRegularFileKey, .fileSizeKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys, options: [])
        else {
            throw AppBundleError(.unreadable, file: file, reason: "cannot list the folder")
        }
        let rootPath = root.standardizedFileURL.path
        var links: [(path: String, target: String)] = []
        for case let url as URL in walker {
            guard entries.count < budget.limits.maxEntries else {
                throw AppBundleError(
                    .tooManyEntries, file: file, reason: "the folder has more than \(budget.limits.maxEntries) entries")
            }
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(rootPath + "/") else { continue }
            let path = String(full.dropFirst(rootPath.count + 1))
            let values = try? url.resourceValues(forKeys: Set(keys))
            if values?.isSymbolicLink == true {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "/"
                links.append((path, target))
                entries[path] = .symlink(target: "")
                walker.skipDescendants()
            } else if values?.isDirectory == true {
                entries[path] = .directory
            } else if values?.isRegularFile == true {
                entries[path] = .file(size: Int64(values?.fileSize ?? 0))
            }
            // Sockets, FIFOs and devices are left out: nothing in a bundle should be one, and reading one could block.
        }
        for (path, target) in try checkLinks(links, file: file) { entries[path] = .symlink(target: target) }
    }

    func read(_ path: String) throws -> Data {
        let url = root.appendingPathComponent(path)
        let data: Data
        do {
            data = try BoundedFileReader.read(path: url.path, limit: Int(clamping: budget.limits.maxExecutableBytes))
        } catch {
            throw AppBundleError(.unreadable, file: file, reason: "\(path): \(error.reason)")
        }
        try budget.spend(data.count, entry: path)
        return data
    }
}
