import Foundation

/// Where a bundle's bytes come from while it is read: a zip (`.ipa`) or a folder (`.app`, `.xcarchive`).
/// Implementations check every entry when they are made, and read one file at a time under the limits.
protocol BundleStorage: AnyObject {
    /// Every entry, by normalised path; symbolic links already resolved and checked to stay inside.
    var entries: [String: BundleFiles.Kind] { get }
    /// The bytes of one regular file.
    /// - Parameter path: A key of ``entries`` whose kind is `.file`.
    /// - Throws: ``AppBundleError`` when the bytes are corrupt or break a cap.
    func read(_ path: String) throws -> Data
}

/// The bytes read so far from one bundle, against ``ArchiveLimits/maxTotalBytes``.
final class ReadBudget {
    let limits: ArchiveLimits
    let file: String
    private(set) var used: Int64 = 0

    init(limits: ArchiveLimits, file: String) {
        self.limits = limits
        self.file = file
    }

    /// Counts bytes just read or inflated.
    /// - Throws: ``AppBundleError/Code/totalTooLarge`` past the cap.
    func spend(_ count: Int, entry: String) throws {
        used += Int64(count)
        guard used <= limits.maxTotalBytes else {
            throw AppBundleError(
                .totalTooLarge, file: file,
                reason:
                    "reading \(entry) takes the bundle past \(Self.size(limits.maxTotalBytes)) of inflated data (a "
                    + "zip bomb?)"
            )
        }
    }

    /// `2 GB`, `512 MB`, `64 KB`, `100 bytes`.
    static func size(_ bytes: Int64) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GB" }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}

/// Adds the folders an archive implies but does not list (`Payload/` for `Payload/A.app/Info.plist`).
/// - Throws: ``AppBundleError/Code/duplicateEntry`` when a path is both a file and a folder.
func addImpliedFolders(_ entries: inout [String: BundleFiles.Kind], file: String) throws {
    for path in Array(entries.keys) {
        var parts = path.split(separator: "/").dropLast()
        while !parts.isEmpty {
            let parent = parts.joined(separator: "/")
            switch entries[parent] {
            case nil: entries[parent] = .directory
            case .directory?: break
            case .file?, .symlink?:
                throw AppBundleError(
                    .duplicateEntry, file: file, reason: "entry \(parent) is both a file and the folder of \(path)")
            }
            parts = parts.dropLast()
        }
    }
}

/// Checks every symbolic link: it must resolve inside the tree, and a link inside an app must stay in that app.
/// - Parameters:
///   - links: Each link's path and raw target.
///   - appRoots: The `.app` folders found (a link inside one may not leave it).
/// - Returns: The links with their resolved targets.
/// - Throws: ``AppBundleError/Code/symlinkEscape``.
func checkLinks(_ links: [(path: String, target: String)], file: String) throws -> [String: String] {
    var resolved: [String: String] = [:]
    for link in links {
        guard let target = BundlePath.resolve(target: link.target, from: link.path) else {
            throw AppBundleError(
                .symlinkEscape, file: file,
                reason: "symbolic link \(link.path) points outside the bundle (\(link.target))")
        }
        if let app = enclosingApp(of: link.path), !BundlePath.isInside(target, app) {
            throw AppBundleError(
                .symlinkEscape, file: file, reason: "symbolic link \(link.path) points outside \(app) (\(link.target))")
        }
        resolved[link.path] = target
    }
    return resolved
}

/// The outermost `NAME.app` folder a path is inside, if any.
func enclosingApp(of path: String) -> String? {
    let parts = path.split(separator: "/")
    guard let index = parts.dropLast().firstIndex(where: { $0.hasSuffix(".app") }) else { return nil }
    return parts[...index].joined(separator: "/")
}

/// Refuses a bundle whose symbolic links loop (`Contents -> Contents/x`, `a -> b`, `b -> a`) or chain through more
/// than ``BundleFiles/maxLinkHops`` links: each link is followed to its end once here, with one step budget for
/// all of them, so the check itself is bounded, and every later lookup (``BundleFiles/resolve(_:)``) has its own.
/// - Throws: ``AppBundleError/Code/symlinkLoop``.
func checkLinkLoops(_ entries: [String: BundleFiles.Kind], file: String) throws {
    let links = entries.compactMap { path, kind -> String? in
        if case .symlink = kind { return path }
        return nil
    }.sorted()
    var budget = maxLinkCheckSteps
    for link in links {
        var steps = min(BundleFiles.maxResolutionSteps, budget)
        let before = steps
        let resolution = BundleFiles.resolution(of: link, in: entries, steps: &steps)
        budget -= before - max(steps, 0)
        guard resolution == .tooManyLinks else { continue }
        if budget <= 0 {
            throw AppBundleError(
                .symlinkLoop, file: file,
                reason: "the bundle's symbolic links take more than \(maxLinkCheckSteps) steps to follow")
        }
        throw AppBundleError(
            .symlinkLoop, file: file,
            reason:
                "symbolic link \(link) loops: following it passes through more than \(BundleFiles.maxLinkHops) links "
                + "or \(BundleFiles.maxResolutionSteps) path components")
    }
}

/// The path components the link check may visit in all (a real app has a few hundred links of a few components).
let maxLinkCheckSteps = 1 << 20
