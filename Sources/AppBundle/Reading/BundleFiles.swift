import Foundation

/// The files of a bundle as atscheck read them: every entry's path and kind, and the bytes of the files it
/// loaded (executables, plists, scripts, certificates). A value: the archive or folder is closed once read.
public struct BundleFiles: Sendable {
    /// What an entry is.
    public enum Kind: Sendable, Equatable {
        /// A regular file and its (declared) size.
        case file(size: Int64)
        case directory
        /// A symbolic link and the path from the root it resolves to (already checked to stay inside).
        case symlink(target: String)
    }

    /// Every entry by its normalised path from the root of the archive or folder.
    public private(set) var entries: [String: Kind]
    /// The bytes of the files loaded, by path.
    public private(set) var contents: [String: Data] = [:]

    init(entries: [String: Kind]) { self.entries = entries }

    mutating func store(_ data: Data, at path: String) { contents[path] = data }

    /// Follows symbolic links (at most 32) to the entry they name.
    /// - Returns: The final path, or nil when a link is dangling or loops.
    public func resolve(_ path: String) -> String? {
        var current = path
        for _ in 0..<32 {
            guard let kind = entries[current] else {
                // A parent folder may be a link (`Versions/Current/Resources/…`).
                return resolveParent(current)
            }
            guard case .symlink(let target) = kind else { return current }
            current = target
        }
        return nil
    }

    private func resolveParent(_ path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        for cut in stride(from: parts.count - 1, to: 0, by: -1) {
            let head = parts[..<cut].joined(separator: "/")
            if case .symlink(let target) = entries[head] {
                let rest = parts[cut...].joined(separator: "/")
                return resolve(BundlePath.join(target, rest))
            }
        }
        return nil
    }

    /// The kind of the entry a path names after following links.
    public func kind(of path: String) -> Kind? { resolve(path).flatMap { entries[$0] } }

    /// Whether a path names a regular file (after links).
    public func isFile(_ path: String) -> Bool {
        if case .file = kind(of: path) { return true }
        return false
    }

    /// Whether a path names a folder (after links); the root "" always does.
    public func isDirectory(_ path: String) -> Bool { path.isEmpty || kind(of: path) == .directory }

    /// The loaded bytes of a file (after links), nil when not loaded.
    public func data(at path: String) -> Data? { resolve(path).flatMap { contents[$0] } }

    /// The names directly inside a folder (not following links inside it), sorted.
    public func children(of folder: String) -> [String] {
        let real = folder.isEmpty ? "" : (resolve(folder) ?? folder)
        let prefix = real.isEmpty ? "" : real + "/"
        return entries.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") && $0 != real }
            .map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    /// Every regular file at or below a folder (links are not followed, so nothing is listed twice), sorted.
    public func files(under folder: String) -> [String] {
        entries.compactMap { path, kind in
            guard case .file = kind, BundlePath.isInside(path, folder), path != folder else { return nil }
            return path
        }.sorted()
    }
}
