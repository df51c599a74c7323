import Foundation
import TLSTestSupport
import Testing

/// Runs the built `atscheck` binary and captures what it printed and how it exited.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    /// The `atscheck` executable next to the test bundle (SwiftPM puts products in one folder).
    static let binary: URL = {
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("atscheck"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("atscheck"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("atscheck"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/atscheck"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// An empty folder every run's `XDG_DATA_HOME` points at, unless a test gives its own (in the process's scratch
    /// folder, removed at exit).
    static let emptyDataHome: String = {
        let path = TestScratch.file("atscheck-cli-data")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs blocking work (child processes, long waits) on a thread of its own: a long test must not hold one
    /// of Swift's few cooperative threads (two on a 2-core machine), or every async test in the process stalls
    /// behind it and its timing-bound assertions fail for reasons of their own.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Swift.Result { try body() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// - Parameters:
    ///   - stdin: text written to the child's standard input (then closed); nil: `/dev/null`.
    ///   - whileRunning: called on a thread of its own with the child's pid once it runs; the child is awaited
    ///     after it returns.
    ///   - unsetting: variables removed from the child's environment (whatever the test runner has).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
        whileRunning: (@Sendable (Int32) -> Void)? = nil, unsetting: [String] = []
    ) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // Hermetic trust data: a data folder `atscheck data update` filled on this machine must not change verdicts.
        env["XDG_DATA_HOME"] = emptyDataHome
        for (key, value) in environment { env[key] = value }
        for key in unsetting { env[key] = nil }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a large report never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        if let whileRunning {
            let pid = process.processIdentifier
            group.enter()
            Thread {
                whileRunning(pid); group.leave()
            }.start()
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Writes `contents` to a new file in the test process's scratch folder (removed when the process exits).
    /// - Returns: the file's path.
    static func temporaryFile(_ contents: String, suffix: String = ".txt") throws -> String {
        let path = TestScratch.file("atscheck-cli", suffix: suffix)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
