import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

/// Output formats (``OutputFormat``, in Reporting): text unless `--format` (or a `--report`) asks for another,
/// on a terminal or not.
extension OutputFormat: ExpressibleByArgument {}

/// One `--report FORMAT=PATH`.
struct ReportRequest: ExpressibleByArgument, Equatable {
    var format: OutputFormat
    var path: String

    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    init(format: OutputFormat, path: String) {
        self.format = format
        self.path = path
    }

    /// `FORMAT=PATH`, or an error that names what is wrong: no `=`, an unknown format (with the valid ones), an empty
    /// path (as `--report markdown="$GITHUB_STEP_SUMMARY"` gives when the variable is unset).
    static func parse(_ argument: String) throws -> ReportRequest {
        let formats = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let equals = argument.firstIndex(of: "=") else {
            throw ValidationError("--report '\(argument)' is not FORMAT=PATH (formats: \(formats))")
        }
        let name = String(argument[..<equals])
        let path = String(argument[argument.index(after: equals)...])
        guard let format = OutputFormat(rawValue: name) else {
            throw ValidationError("--report \(argument): unknown format '\(name)' (formats: \(formats))")
        }
        guard !path.isEmpty else {
            throw ValidationError(
                "--report \(argument): the path is empty (an unset variable, such as $GITHUB_STEP_SUMMARY outside "
                    + "GitHub Actions?)")
        }
        return ReportRequest(format: format, path: path)
    }

    static var defaultCompletionKind: CompletionKind { .file() }
}

/// The options of every command that renders a report: `--format`, `--output`, `--report`.
///
/// A command includes it with `@OptionGroup var output: OutputOptions` and hands ``emit(_:streamed:)`` the one
/// ``ReportDocument`` of its run (its own type: ``ScanDocument``, ``AuditDocument``, …); the renderers of
/// ``ReportRendererRegistry/standard`` render it in every format asked for. Everything is rendered first and written only when the run is complete, each file atomically (so a
/// failed run writes no report, and a report that was written is whole).
struct OutputOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Format of standard output (or of --output).",
            discussion:
                "Default: text, on a terminal or in a pipe; colour only on a terminal, never with NO_COLOR or TERM=dumb. Text wraps to COLUMNS, else the terminal's width, else 80.",
            valueName: "format"))
    var format: OutputFormat?

    @Option(
        name: .long,
        help: ArgumentHelp("Write the --format output to FILE instead of standard output.", valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Also write the report in FORMAT to PATH, e.g. sarif=atscheck.sarif or html=release.html (repeatable).",
            discussion:
                "Several reports come from one run; each is written whole, and only when the run completes. html is "
                + "one self-contained page for a browser: the endpoints × OS-era matrix, failures with their fix, "
                + "the exceptions to paste, the pin verdicts.",
            valueName: "format=path"),
        transform: ReportRequest.parse)
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

    /// A usage error, before the run, when a format asked for does not show the command's type of document
    /// (`plist --explain writes text, json, not sarif`).
    /// - Parameters:
    ///   - documents: the types of document the command may report (`merge`: a scan's or an audit's).
    ///   - command: how to name the command in the message.
    func check(showing documents: any ReportDocument.Type..., command: String) throws {
        let registry = ReportRendererRegistry.standard
        let allowed = OutputFormat.allCases.filter { format in
            documents.allSatisfy { registry.formats(showing: $0).contains(format) }
        }
        if let bad = formats.first(where: { !allowed.contains($0) }) {
            let formats = allowed.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("\(command) writes \(formats), not \(bad.rawValue)")
        }
    }

    /// Renders the document in every format asked for, then writes the `--report` files and `--output`
    /// (atomically) and standard output. A format written in pieces (a scan's JSON) is rendered as it is written
    /// (a file still appears whole, by rename), so a large report is never one string.
    /// - Parameters:
    ///   - document: what the run reports.
    ///   - streamed: what is left to write to standard output when the rest was streamed already.
    /// - Throws: `ExitCode` 73 when a file cannot be written (files already written are complete).
    func emit(_ document: some ReportDocument, streamed: String? = nil) throws {
        var document = document
        // Every report names the trust data it was judged with (a merged report keeps its shards').
        document.complete(root: ArtifactRoot.current(), trustData: RunTrustData.current)
        // Text is fitted to the terminal standard output is on; text for a file to COLUMNS, else 80.
        let width = Terminal.width(of: output == nil ? STDOUT_FILENO : nil)
        let primary =
            try streamed.map(RenderedReport.text)
            ?? Self.rendered(document, as: resolvedFormat, color: resolvedFormat == .text && useColor, width: width)
        let files = try reports.map {
            ($0.path, try Self.rendered(document, as: $0.format, color: false, width: Terminal.width(of: nil)))
        }
        for (path, output) in files { try output.write(to: path) }
        if let output {
            try primary.write(to: output)
        } else {
            try primary.writeToStandardOutput()
        }
    }

    /// Renders the document in one format to standard output: for commands with a format option of their own
    /// (`rules --format`, `pins extract --json`).
    /// - Parameters:
    ///   - document: what the run reports.
    ///   - format: the format.
    ///   - color: ANSI colour in text.
    static func emit(_ document: some ReportDocument, as format: OutputFormat, color: Bool) throws {
        var document = document
        document.complete(root: ArtifactRoot.current(), trustData: RunTrustData.current)
        try rendered(document, as: format, color: color, width: Terminal.width()).writeToStandardOutput()
    }

    /// The one place a document meets a renderer.
    /// - Throws: `ExitCode` 64 after one line on stderr when the format cannot show the document (a command
    ///   that did not ``check(showing:command:)`` its document).
    private static func rendered(
        _ document: some ReportDocument, as format: OutputFormat, color: Bool, width: Int
    ) throws -> RenderedReport {
        do {
            let options = RenderOptions(catalogue: .atscheck, color: color, width: width)
            return try ReportRendererRegistry.standard.output(document, as: format, options: options)
        } catch let error as ReportRenderingError {
            Terminal.fail(error.description)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}

extension RenderedReport {
    /// Writes the output to a report file (``ReportFile``).
    func write(to path: String) throws {
        switch self {
        case .text(let text): try ReportFile.write(text, to: path)
        case .pieces(let writer): try ReportFile.write(pieces: writer, to: path)
        }
    }

    /// Writes the output to standard output.
    func writeToStandardOutput() throws {
        switch self {
        case .text(let text): FileHandle.standardOutput.write(Data(text.utf8))
        case .pieces(let writer): try writer { FileHandle.standardOutput.write($0) }
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
        // One piece: the same temporary file and rename as a report written in pieces.
        try write(pieces: { sink in try sink(Data(text.utf8)) }, to: path, environment: environment)
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
        guard fd >= 0 else { throw cannotWrite(path, String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        let separator = fstat(fd, &status) == 0 && status.st_size > 0 ? "\n" : ""
        let bytes = Array((separator + text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw cannotWrite(path, String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Says on stderr that `path` cannot be written and why; the exit status 73 to throw.
    static func cannotWrite(_ path: String, _ reason: String) -> ExitCode {
        Terminal.fail("cannot write \(path): \(reason)")
        return ExitCode(ExitStatus.cannotWrite.rawValue)
    }
}

/// `--fail-on`: which findings fail the run. Shared by every command that gates (scan, diagnose, plist, audit).
struct GateOptions: ParsableArguments {
    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
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
            if let reason, status != .success { Terminal.close(reason) }
        } else if gated == .success {
            if let reason { Terminal.close("\(reason) (exit 0: --fail-on never)") }
        } else if let warning = failOn.warningReason(findings: findings) {
            Terminal.close(warning)
        }
        if gated != .success { throw ExitCode(gated.rawValue) }
    }
}

extension FailThreshold: ExpressibleByArgument {
    public var defaultValueDescription: String { rawValue }
}
