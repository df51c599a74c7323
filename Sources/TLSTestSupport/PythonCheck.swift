import Foundation

/// Runs a python3 script that checks a file (the SARIF schema check, the HTML5 parse): one place that starts
/// python3, collects what it prints and tells a missing python3 from a failed check.
enum PythonCheck {
    /// What python3 said and how it ended.
    struct Outcome {
        /// The exit status; 127 when python3 itself is missing.
        var status: Int32
        /// Standard output and standard error together.
        var output: String
    }

    /// Runs `python3 -c script arguments...`.
    /// - Throws: when python3 cannot be started at all (the message names what it was for).
    static func run(_ script: String, arguments: [String], for purpose: String) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            throw Launch(description: "cannot run python3 to \(purpose): \(error)")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: output)
    }

    /// python3 could not be started.
    struct Launch: Error, CustomStringConvertible {
        var description: String
    }

    /// A fresh folder under the temporary directory for the files a check reads and writes; the caller removes it.
    static func temporaryFolder(_ prefix: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
