/// Paths inside a bundle: relative, `/`-separated, without `.`/empty components, never climbing out.
enum BundlePath {
    /// Why an entry path is refused.
    enum Problem: Error, Equatable {
        case absolute, parent, empty, nul, tooLong
    }

    /// The longest entry path accepted: Darwin's `PATH_MAX`, so no installable app has a longer one. It bounds
    /// what one path costs to normalise, list and resolve.
    static let maxLength = 1024

    /// The normalised form of an archive entry path (`Payload//A.app/./x` → `Payload/A.app/x`).
    /// - Throws: ``Problem`` for absolute paths (`/x`, `\x`, `C:x`), any `..` component (with `/` or `\`
    ///   separators: a Windows-made archive can hide one behind a backslash), a NUL byte, nothing left, or more
    ///   than ``maxLength`` bytes.
    static func normalise(_ path: String) throws(Problem) -> String {
        if path.utf8.count > maxLength { throw .tooLong }
        if path.contains("\0") { throw .nul }
        if path.hasPrefix("/") || path.hasPrefix("\\") { throw .absolute }
        let scalars = Array(path.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { throw .absolute }
        let components = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        if components.contains("..") { throw .parent }
        let kept = path.split(separator: "/").filter { $0 != "." && !$0.isEmpty }
        guard !kept.isEmpty else { throw .empty }
        return kept.joined(separator: "/")
    }

    /// Where a symbolic link points, as a path from the root, or nil when it leaves the root (an absolute
    /// target, or more `..` than there are folders above it).
    /// - Parameters:
    ///   - target: The link's content.
    ///   - link: The link's own normalised path.
    static func resolve(target: String, from link: String) -> String? {
        guard !target.hasPrefix("/"), !target.contains("\0") else { return nil }
        var parts = link.split(separator: "/").dropLast().map(String.init)
        for component in target.split(separator: "/") {
            switch component {
            case ".", "": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(component))
            }
        }
        return parts.joined(separator: "/")
    }

    /// Whether `path` is `root` or inside it (`root` empty: the whole tree).
    static func isInside(_ path: String, _ root: String) -> Bool {
        root.isEmpty || path == root || path.hasPrefix(root + "/")
    }

    /// `a/b` + `c` → `a/b/c`; an empty base gives `c`.
    static func join(_ base: String, _ name: String) -> String {
        if base.isEmpty { return name }
        if name.isEmpty { return base }
        return base + "/" + name
    }

    /// The last component.
    static func name(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// The extension of the last component, as written (`Info.plist` → `plist`), or "".
    static func pathExtension(_ path: String) -> String {
        let name = name(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
