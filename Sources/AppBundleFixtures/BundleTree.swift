import Foundation
import ZIPFoundation

/// Files and symbolic links to lay out as a folder or zip as an archive: how tests and the demo build app
/// bundles (generated per run, never committed).
package struct BundleTree: Sendable {
    /// File bytes by relative path.
    package var files: [String: Data]
    /// Symbolic link targets by relative path.
    package var symlinks: [String: String]

    /// - Parameters: see the properties.
    package init(files: [String: Data] = [:], symlinks: [String: String] = [:]) {
        self.files = files
        self.symlinks = symlinks
    }

    /// The same tree under a folder (`Payload`, `Products/Applications`).
    package func prefixed(_ folder: String) -> BundleTree {
        BundleTree(
            files: Dictionary(uniqueKeysWithValues: files.map { (folder + "/" + $0.key, $0.value) }),
            symlinks: Dictionary(uniqueKeysWithValues: symlinks.map { (folder + "/" + $0.key, $0.value) }))
    }

    /// Writes the tree into a folder (created as needed).
    /// - Throws: File-system errors.
    package func write(to folder: URL) throws {
        let manager = FileManager.default
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        for (path, target) in symlinks.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
    }

    /// Zips the tree (deflate), files in path order, links as zip symlink entries.
    /// - Throws: ZIPFoundation or file-system errors.
    package func zip(to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate,
                provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
        }
        for (path, target) in symlinks.sorted(by: { $0.key < $1.key }) {
            let bytes = Data(target.utf8)
            try archive.addEntry(
                with: path, type: .symlink, uncompressedSize: Int64(bytes.count),
                provider: { position, size in bytes.subdata(in: Int(position)..<Int(position) + size) })
        }
    }

    /// A binary plist (what Xcode ships in a build).
    package static func binaryPlist(_ value: [String: Any]) -> Data {
        // A dictionary of plist types always serialises.
        try! PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    /// An XML plist.
    package static func xmlPlist(_ value: [String: Any]) -> Data {
        try! PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
    }
}
