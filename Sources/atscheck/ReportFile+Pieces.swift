import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting

extension ReportFile {
    /// Writes a report given in pieces to `path` as ``write(_:to:environment:)`` writes text: into a temporary
    /// file beside it, renamed over it once every piece is written (a reader never sees half a report, and a
    /// writer that throws leaves no file); directly to a path that is not a regular file; appended, whole, to
    /// the file named by `$GITHUB_STEP_SUMMARY`.
    /// - Parameters:
    ///   - pieces: writes the report to the sink it is given.
    ///   - path: the report's path.
    ///   - environment: the process environment (read for `GITHUB_STEP_SUMMARY`).
    /// - Throws: `ExitCode` 73 after one line on stderr when the file cannot be written; what `pieces` throws.
    static func write(
        pieces: ReportPieces, to path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty, sameFile(path, summary) {
            // The summary takes one appended write: the pieces are joined first.
            var data = Data()
            try pieces { data.append($0) }
            try write(String(decoding: data, as: UTF8.self), to: path, environment: environment)
            return
        }
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw cannotWrite(path, "cannot open it for writing")
            }
            defer { try? handle.close() }
            try pieces { try? handle.write(contentsOf: $0) }
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(
                ".\(url.lastPathComponent).atscheck-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
            ).path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw cannotWrite(path, "cannot create a file in its folder")
        }
        do {
            try pieces { piece in
                do { try handle.write(contentsOf: piece) } catch {
                    throw cannotWrite(path, "cannot write its temporary file")
                }
            }
            try handle.close()
        } catch {
            try? handle.close()
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw cannotWrite(path, reason)
        }
    }
}
