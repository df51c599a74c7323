import Foundation
import TLSModel

/// The largest input files atscheck reads, and a reader that never reads past them.
///
/// Real inputs are far smaller (an Info.plist is kilobytes; an endpoint list of 100,000 lines is about 3 MB):
/// the limits exist so a wrong or hostile file fails at once with `FILE: larger than N MB limit` (exit 65)
/// instead of costing gigabytes of memory or minutes of parsing. See docs/reliability.md.
package enum InputLimits {
    /// Info.plist files and bare ATS dictionaries (XML, binary, OpenStep).
    package static let plistBytes = 8 << 20
    /// Endpoint lists in the text format: read line by line, so memory does not grow with the file, only with
    /// the entries kept.
    package static let endpointTextBytes = 64 << 20
    /// YAML or JSON endpoint lists (parsed whole, so kept small).
    package static let endpointStructuredBytes = 4 << 20
    /// Baselines (YAML or JSON).
    package static let baselineBytes = 4 << 20
    /// Saved profiles (`--profile`).
    package static let profileBytes = 256 << 20
    /// PEM trust anchors (`--ca-file`, an endpoint list's `caFile`).
    package static let pemBytes = 1 << 20
    /// One line of a text endpoint list (`--targets`, `--endpoints`, `scan -`): a URL longer than 2,048 bytes is
    /// refused by many servers and was Internet Explorer's limit, and a host name is at most 253 bytes (RFC 1035), so a
    /// longer line is not a target but a wrong or hostile file: `FILE:LINE: …` (exit 65) before anything is parsed.
    package static let endpointLineBytes = 2048

    /// `larger than 8 MB limit`.
    package static func tooLargeReason(limit: Int) -> String { RegularFileReader.tooLargeReason(limit: limit) }
}

/// Reads a whole regular file, but never more than a limit: a FIFO, a device (`/dev/zero`) or a directory is refused at
/// once, without blocking, and a large file stops one chunk past the limit (``RegularFileReader``, which the probe's
/// `--ca-file` reader shares).
package enum BoundedFileReader {
    /// Why a file could not be read; ``RegularFileReader/Failure/reason`` is the text after `FILE: `.
    package typealias Failure = RegularFileReader.Failure

    /// The file's bytes.
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes accepted.
    /// - Throws: ``Failure``.
    package static func read(path: String, limit: Int) throws(Failure) -> Data {
        try RegularFileReader.read(path: path, limit: limit)
    }

    /// Opens a regular file for reading without blocking (a directory, FIFO or device is refused).
    /// - Throws: ``Failure``.
    package static func open(path: String) throws(Failure) -> FileHandle {
        try RegularFileReader.open(path: path).handle
    }
}
