import ATSPolicy
import Foundation

/// An `.app` or `.xcarchive` folder on disk, listed without following symbolic links; every link must resolve
/// inside the folder (and inside the app it belongs to) and none may loop. Files are read one at a time under the
/// same budget as a zip's, each into memory allocated once at its size (a file that is no longer a regular file, a
/// FIFO swapped in, is refused without blocking). The folder is assumed not to change while it is read.
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
        try checkLinkLoops(entries, file: file)
    }

    func read(_ path: String) throws -> Data {
        let regular: RegularFile
        do { regular = try RegularFile(path: root.appendingPathComponent(path).path) } catch {
            let why =
                error == .notRegular
                ? "not a regular file" : error == .missing ? "no such file" : "cannot read the file"
            throw AppBundleError(.unreadable, file: file, reason: "\(path): \(why)")
        }
        let limit = budget.limits.maxExecutableBytes
        guard regular.size <= UInt64(limit) else {
            throw AppBundleError(
                .unreadable, file: file, reason: "\(path): \(InputLimits.tooLargeReason(limit: Int(limit)))")
        }
        try budget.spend(Int(regular.size), entry: path)
        return try OwnedBytes.data(count: Int(regular.size)) { buffer in
            do { try regular.read(into: buffer, at: 0) } catch {
                throw AppBundleError(.unreadable, file: file, reason: "\(path): the file changed while it was read")
            }
        }
    }
}
