internal import COpenSSL
import Foundation

extension IndependentServer {
    /// The package's root folder (this file is `Sources/TLSTestSupport/Independent/…`).
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Where built fixture servers are cached: `.build/independent-servers` (gitignored with the rest of `.build`).
    static var buildCache: String { packageRoot + "/.build/independent-servers" }

    /// The path of a fixture server's source under `Tests/Fixtures/independent-servers/`.
    /// - Parameter relative: its path below that folder.
    /// - Returns: the full path.
    static func fixture(_ relative: String) -> String {
        packageRoot + "/Tests/Fixtures/independent-servers/" + relative
    }

    /// Builds a fixture server once per content of its sources: the product lives in
    /// `.build/independent-servers/KIND-SHA256/`, so an unchanged source is not rebuilt by the next test run and an
    /// edited one is.
    /// - Parameters:
    ///   - kind: the stack (`go`, `java`), the folder name's prefix.
    ///   - sources: the files hashed (their contents, in order).
    ///   - product: the file the build leaves in the folder; its presence means the build is done.
    ///   - cache: the folder of cached builds (``buildCache``).
    ///   - command: the build, given the folder to write into.
    /// - Returns: the folder's path.
    /// - Throws: ``TestSupportError`` `.process` with the build's output when it fails.
    static func cachedBuild(
        _ kind: String, sources: [String], product: String, cache: String = buildCache,
        command: (_ folder: String) -> Command
    ) throws -> String {
        var contents = Data()
        for source in sources {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw TestSupportError(.process, "cannot read \(source)")
            }
            contents.append(data)
        }
        let folder = cache + "/\(kind)-" + sha256Hex(contents).prefix(16)
        let built = folder + "/" + product
        if FileManager.default.fileExists(atPath: built) { return folder }
        // Built in a scratch folder and renamed, so a run cut short never leaves a half-written product behind.
        let scratch = folder + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let spec = command(scratch)
        let log = scratch + ".log"
        let process = try ChildProcess(
            "/bin/sh", ["-c", "exec \"$0\" \"$@\" >\"\(log)\" 2>&1", spec.executable] + spec.arguments,
            environment: spec.environment)
        let status = process.waitForExit()
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: log)
        guard status == 0, FileManager.default.fileExists(atPath: scratch + "/" + product) else {
            try? FileManager.default.removeItem(atPath: scratch)
            throw TestSupportError(.process, "building the \(kind) fixture server failed (\(status)): \(output)")
        }
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.moveItem(atPath: scratch, toPath: folder)
        return folder
    }

    private static func sha256Hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { raw in
            _ = SHA256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest)
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
