import Foundation

/// A fresh folder under the temporary directory (`$TMPDIR`, which `.ci/run` points at a folder of the run's own),
/// owned by one fixture: removed with everything in it by ``remove()`` or at deinit, so a test that fails or throws
/// leaves nothing behind.
///
/// Keep the folder alive while its files are used (a stored property of the fixture, or `withExtendedLifetime`): a
/// local whose last use is reading ``path`` may be released right after that read.
package final class TemporaryFolder: Sendable {
    /// The folder's path, without a trailing slash.
    package let path: String

    /// Creates `$TMPDIR/PREFIX-UUID`.
    /// - Parameter prefix: the start of the folder's name (`atscheck-…`, so a leftover is recognised).
    /// - Throws: when the folder cannot be created.
    package init(_ prefix: String) throws {
        path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// The folder as a file URL.
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the folder (not created).
    /// - Parameter name: a file name, or a relative path.
    /// - Returns: the full path.
    package func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` inside the folder.
    /// - Parameters:
    ///   - contents: the text, written as UTF-8.
    ///   - name: the file name.
    /// - Returns: the file's path.
    /// - Throws: when the file cannot be written.
    @discardableResult
    package func write(_ contents: String, to name: String) throws -> String {
        let file = file(name)
        try contents.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    /// Removes the folder and everything in it (idempotent).
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The test process's scratch folder, for helpers that hand out a file path whose callers keep no fixture
/// (`CLI.temporaryFile`, `ProbeFixtures.caFile`): one `$TMPDIR/atscheck-scratch-PID-UUID` folder, removed when the
/// process exits, passing or failing (`atexit`).
package enum TestScratch {
    private static let folder: String = {
        let path = NSTemporaryDirectory() + "atscheck-scratch-\(getpid())-\(UUID().uuidString)"
        // A failure here shows as the failure to write the first file in it.
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestScratch.folder) }
        return path
    }()

    /// A new path inside the scratch folder, named `prefix-UUID` + `suffix` (not created).
    /// - Parameters:
    ///   - prefix: the start of the name.
    ///   - suffix: the end of the name (an extension such as `.pem`).
    /// - Returns: the path.
    package static func file(_ prefix: String, suffix: String = "") -> String {
        folder + "/\(prefix)-\(UUID().uuidString)\(suffix)"
    }
}
