import Foundation

/// The largest input files atscheck reads, and a reader that never reads past them.
///
/// Real inputs are far smaller (an Info.plist is kilobytes; an endpoint list of 100,000 lines is about 3 MB):
/// the limits exist so a wrong or hostile file fails at once with `FILE: larger than N MB limit` (exit 65)
/// instead of costing gigabytes of memory or minutes of parsing. See docs/reliability.md.
public enum InputLimits {
    /// Info.plist files and bare ATS dictionaries (XML, binary, OpenStep).
    public static let plistBytes = 8 << 20
    /// Endpoint lists in the text format: read line by line, so memory does not grow with the file, only with
    /// the entries kept.
    public static let endpointTextBytes = 64 << 20
    /// YAML or JSON endpoint lists (parsed whole, so kept small).
    public static let endpointStructuredBytes = 4 << 20
    /// Baselines (YAML or JSON).
    public static let baselineBytes = 4 << 20
    /// Saved profiles (`--profile`).
    public static let profileBytes = 256 << 20
    /// PEM trust anchors (`--ca-file`, an endpoint list's `caFile`).
    public static let pemBytes = 1 << 20

    /// `larger than 8 MB limit`.
    public static func tooLargeReason(limit: Int) -> String { "larger than \(limit >> 20) MB limit" }
}

/// Reads a whole file, but never more than a limit (so `/dev/zero` or a FIFO cannot hang or exhaust memory).
public enum BoundedFileReader {
    /// Why a file could not be read; ``reason`` is the text after `FILE: `.
    public enum Failure: Error, Equatable {
        case missing, unreadable, tooLarge(limit: Int)

        /// `no such file`, `cannot read the file`, `larger than N MB limit`.
        public var reason: String {
            switch self {
            case .missing: return "no such file"
            case .unreadable: return "cannot read the file"
            case .tooLarge(let limit): return InputLimits.tooLargeReason(limit: limit)
            }
        }
    }

    /// The file's bytes.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes accepted.
    /// - Throws: ``Failure``.
    public static func read(path: String, limit: Int) throws(Failure) -> Data {
        let handle = try open(path: path)
        defer { try? handle.close() }
        var data = Data()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { throw .unreadable }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// Opens a file for reading (a directory is unreadable, not empty).
    /// - Throws: ``Failure``.
    public static func open(path: String) throws(Failure) -> FileHandle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable }
        return handle
    }
}
