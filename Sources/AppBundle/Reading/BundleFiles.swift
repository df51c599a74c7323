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

    /// Where following the links of a path ends.
    public enum Resolution: Sendable, Equatable {
        /// The entry the path names (a file or folder, never a link).
        case found(String)
        /// A component is missing, or a file stands where a folder should be.
        case missing
        /// The path passes through more than ``maxLinkHops`` links, or expands past ``maxResolutionSteps``
        /// components: a loop such as `Contents -> Contents/x`.
        case tooManyLinks
    }

    /// The most symbolic links one resolution may pass through, counted over the whole walk of the path (links
    /// met in its parent folders included), as Linux's `MAXSYMLINKS` does.
    public static let maxLinkHops = 40
    /// The most path components one resolution may visit, the components that links bring in included.
    public static let maxResolutionSteps = 4096

    /// Every entry by its normalised path from the root of the archive or folder.
    public private(set) var entries: [String: Kind]
    /// The bytes of the files loaded, by path.
    public private(set) var contents: [String: Data] = [:]

    init(entries: [String: Kind]) { self.entries = entries }

    mutating func store(_ data: Data, at path: String) { contents[path] = data }

    /// Follows symbolic links to the entry a path names.
    /// - Returns: The final path, or nil when a link is dangling or loops.
    public func resolve(_ path: String) -> String? {
        if case .found(let real) = resolution(of: path) { return real }
        return nil
    }

    /// Follows symbolic links to the entry a path names, component by component, with one budget of link hops
    /// and steps for the whole walk (a link met in a parent folder counts against the same budget).
    public func resolution(of path: String) -> Resolution {
        var steps = Self.maxResolutionSteps
        return Self.resolution(of: path, in: entries, steps: &steps)
    }

    /// The walk behind ``resolution(of:)``, drawing on a caller's step budget (the check of every link of a bundle
    /// shares one).
    static func resolution(of path: String, in entries: [String: Kind], steps: inout Int) -> Resolution {
        // A path that names a file or folder directly names it: entries never lie under a link.
        switch entries[path] {
        case .file?, .directory?: return .found(path)
        case .symlink?, nil: break
        }
        var pending: [Substring] = path.split(separator: "/").reversed()
        var real = ""
        var hops = 0
        while let component = pending.popLast() {
            steps -= 1
            guard steps >= 0 else { return .tooManyLinks }
            let candidate = real.isEmpty ? String(component) : real + "/" + component
            switch entries[candidate] {
            case nil: return .missing
            case .symlink(let target)?:
                hops += 1
                guard hops <= maxLinkHops else { return .tooManyLinks }
                pending.append(contentsOf: target.split(separator: "/").reversed())
                real = ""
            case .file?:
                guard pending.isEmpty else { return .missing }
                real = candidate
            case .directory?:
                real = candidate
            }
        }
        return .found(real)
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
