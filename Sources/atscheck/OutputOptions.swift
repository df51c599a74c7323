import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

/// Output formats: text unless `--format` (or a `--report`) asks for another, on a terminal or not.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, jsonl, sarif, junit, markdown, github, codeclimate
}

/// One `--report FORMAT=PATH`.
struct ReportRequest: ExpressibleByArgument, Equatable {
    var format: OutputFormat
    var path: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let path = String(argument[argument.index(after: equals)...])
        guard let format = OutputFormat(rawValue: String(argument[..<equals])), !path.isEmpty else { return nil }
        self.format = format
        self.path = path
    }

    static var defaultCompletionKind: CompletionKind { .file() }
}

/// The options of every command that renders a report: `--format`, `--output`, `--report`.
///
/// A command includes it with `@OptionGroup var output: OutputOptions` and hands ``emit(_:)`` a function that
/// renders its result in any format; everything is rendered first and written only when the run is complete,
/// each file atomically (so a failed run writes no report, and a report that was written is whole).
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Format of standard output (or of --output).",
        discussion: "Default: text, on a terminal or in a pipe; colour only on a terminal, never with NO_COLOR or TERM=dumb.",
        valueName: "format"))
    var format: OutputFormat?

    @Option(name: .long, help: ArgumentHelp("Write the --format output to FILE instead of standard output.", valueName: "file"))
    var output: String?

    @Option(name: .customLong("report"), help: ArgumentHelp(
        "Also write the report in FORMAT to PATH, e.g. sarif=atscheck.sarif (repeatable).",
        discussion: "Several reports come from one run; each is written whole, and only when the run completes.",
        valueName: "format=path"))
    var reports: [ReportRequest] = []

    func validate() throws {
        var seen: Set<String> = []
        for path in reports.map(\.path) + (output.map { [$0] } ?? []) where !seen.insert(path).inserted {
            throw ValidationError("two outputs write to \(path)")
        }
    }

    /// The format of standard output (or `--output`).
    var resolvedFormat: OutputFormat { format ?? .text }

    /// Colour only for text on a terminal (``Terminal/colorOnStdout``), never into a file.
    var useColor: Bool { output == nil && Terminal.colorOnStdout }

    /// Every format this run renders.
    var formats: [OutputFormat] { [resolvedFormat] + reports.map(\.format) }

    /// A usage error when a format is not one the command can render.
    /// - Parameters:
    ///   - allowed: the formats the command renders.
    ///   - command: how to name the command in the message.
    func check(allowed: [OutputFormat], command: String) throws {
        if let bad = formats.first(where: { !allowed.contains($0) }) {
            throw ValidationError("\(command) writes \(allowed.map(\.rawValue).joined(separator: ", ")), not \(bad.rawValue)")
        }
    }

    /// Renders every output, then writes the `--report` files and `--output` (atomically) and standard output.
    /// - Parameters:
    ///   - streamed: what is left to write to standard output when the rest was streamed already.
    ///   - pieces: for a format written in pieces (JSON), the writer that replaces `render`: it runs as its
    ///     output is written (a file still appears whole, by rename), so a large report is never one string.
    ///   - render: the report in a format; `color` is true only for text to a terminal.
    /// - Throws: `ExitCode` 73 when a file cannot be written (files already written are complete).
    func emit(
        streamed: String? = nil, pieces: (OutputFormat) -> ReportPieces? = { _ in nil },
        _ render: (_ format: OutputFormat, _ color: Bool) throws -> String
    ) throws {
        func rendered(_ format: OutputFormat, color: Bool) throws -> RenderedOutput {
            if let writer = pieces(format) { return .pieces(writer) }
            return .text(try render(format, color))
        }
        let primary = try streamed.map(RenderedOutput.text) ?? rendered(resolvedFormat, color: resolvedFormat == .text && useColor)
        let files = try reports.map { ($0.path, try rendered($0.format, color: false)) }
        for (path, output) in files { try output.write(to: path) }
        if let output {
            try primary.write(to: output)
        } else {
            switch primary {
            case .text(let text): FileHandle.standardOutput.write(Data(text.utf8))
            case .pieces(let writer): try writer { FileHandle.standardOutput.write($0) }
            }
        }
    }
}

/// Writes a report in pieces to a sink (``JSONStreamRendering``).
typealias ReportPieces = (_ sink: (Data) throws -> Void) throws -> Void

/// One output of ``OutputOptions/emit(streamed:pieces:_:)``: rendered text, or a writer of pieces.
enum RenderedOutput {
    case text(String)
    case pieces(ReportPieces)

    /// Writes the output to a report file (``ReportFile``).
    func write(to path: String) throws {
        switch self {
        case .text(let text): try ReportFile.write(text, to: path)
        case .pieces(let writer): try ReportFile.write(pieces: writer, to: path)
        }
    }
}

/// Writes report files whole: to a temporary file beside the target, then renamed over it, so a reader never
/// sees half a report. A path that is not a regular file (`/dev/stdout`, a FIFO) is written directly, and the
/// file named by `$GITHUB_STEP_SUMMARY` is appended to: the job summary collects every report of the step, and
/// replacing it would drop what earlier commands of the same step wrote.
enum ReportFile {
    /// Writes `text` to `path`.
    /// - Parameter environment: the process environment (read for `GITHUB_STEP_SUMMARY`).
    /// - Throws: `ExitCode` 73 after one line on stderr when the file cannot be written.
    static func write(
        _ text: String, to path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty, sameFile(path, summary) {
            try append(text, to: path)
            return
        }
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw failure(path, "cannot open it for writing") }
            handle.write(Data(text.utf8))
            try? handle.close()
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).atscheck-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp").path
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw failure(path, "cannot create a file in its folder")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw failure(path, reason)
        }
    }

    /// Whether `a` and `b` name the same file: the same device and inode when `a` exists, else the same
    /// standardized path.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        if stat(a, &first) == 0, stat(b, &second) == 0 {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
        }
        return URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }

    /// Appends `text` in one `write(2)` with `O_APPEND`, after a blank line when the file already holds text.
    private static func append(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        let separator = fstat(fd, &status) == 0 && status.st_size > 0 ? "\n" : ""
        let bytes = Array((separator + text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(path, String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    private static func failure(_ path: String, _ reason: String) -> ExitCode {
        Terminal.fail("cannot write \(path): \(reason)")
        return ExitCode(ExitStatus.cannotWrite.rawValue)
    }
}

/// `--fail-on`: which findings fail the run. Shared by every command that gates (scan, diagnose, plist, audit).
struct GateOptions: ParsableArguments {
    @Option(name: .customLong("fail-on"), help: ArgumentHelp(
        "Exit non-zero on: error; warning (errors and warnings); never (only usage and input errors).",
        valueName: "level"))
    var failOn: FailThreshold = .error

    /// Prints why the run fails (or would have) and exits with the gated status.
    /// - Parameters:
    ///   - status: the status under the default threshold.
    ///   - reason: its one-line reason, when it is not success.
    ///   - findings: the run's findings.
    /// - Throws: `ExitCode` for a non-zero status.
    func finish(_ status: ExitStatus, reason: String?, findings: [Finding]) throws {
        let gated = failOn.gate(status, findings: findings)
        if gated == status {
            if let reason, status != .success { Terminal.fail(reason) }
        } else if gated == .success {
            if let reason { Terminal.fail("\(reason) (exit 0: --fail-on never)") }
        } else if let warning = failOn.warningReason(findings: findings) {
            Terminal.fail(warning)
        }
        if gated != .success { throw ExitCode(gated.rawValue) }
    }
}

extension FailThreshold: ExpressibleByArgument {
    public var defaultValueDescription: String { rawValue }
}
