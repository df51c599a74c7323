import ArgumentParser
import ATSCheckKit
import Foundation

/// Output formats. Text on a terminal, JSON when piped, unless `--format` says otherwise.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, junit, markdown
}

/// Options every command that writes a report shares.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: "|")) (default: text on a terminal, json otherwise).")
    var format: OutputFormat?

    @Option(name: .long, help: "Write the report to FILE instead of standard output.")
    var output: String?

    var resolvedFormat: OutputFormat {
        format ?? (output == nil && Terminal.stdoutIsTTY ? .text : .json)
    }

    /// Colour only on a terminal, never with NO_COLOR, never into a file.
    var useColor: Bool { output == nil && Terminal.stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    func emit(_ text: String) throws {
        if let output {
            do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
                Terminal.fail("cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(ExitStatus.cannotWrite.rawValue)
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

/// Options every scanning command shares.
struct ScanOptions: ParsableArguments {
    @Option(name: .long, help: "Per-connection timeout in seconds.")
    var timeout: Double = 5

    @Option(name: .long, help: "Overall deadline per endpoint in seconds, from its first connection (default: 12 × timeout, at least 30).")
    var deadline: Double?

    @Option(name: .customLong("ca-file"), help: "PEM file of extra trust anchors (counted as user/MDM-installed roots). Repeatable.")
    var caFiles: [String] = []

    @Option(name: .long, help: "Endpoints scanned at once.")
    var concurrency: Int = 8

    @Option(name: .customLong("per-host"), help: "Simultaneous handshakes against one host.")
    var perHost: Int = 3

    @Option(name: .long, help: "HOST:PORT:ADDRESS — connect to ADDRESS for HOST:PORT, keep HOST for SNI and certificate checks. Repeatable.")
    var resolve: [String] = []

    @Flag(name: .customLong("all-addresses"), help: "Scan every A/AAAA address of each name separately.")
    var allAddresses = false

    @Option(name: .long, help: "Send this SNI instead of the target host.")
    var sni: String?

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 300 else { throw ValidationError("--timeout must be between 0 and 300 seconds") }
        if let deadline, !(timeout...3600).contains(deadline) {
            throw ValidationError("--deadline must be between --timeout and 3600 seconds")
        }
        guard concurrency >= 1, concurrency <= 256 else { throw ValidationError("--concurrency must be 1…256") }
        guard perHost >= 1, perHost <= 32 else { throw ValidationError("--per-host must be 1…32") }
        for rule in resolve {
            do { _ = try ResolveRule(parsing: rule) } catch let error as TargetError {
                throw ValidationError(error.reason)
            }
        }
    }

    /// The scan settings; reads every `--ca-file` first, so a missing or malformed one is an input error (exit 65).
    func settings() throws -> ScanSettings {
        try PEMFile.validate(caFiles)
        var settings = ScanSettings()
        settings.timeout = timeout
        settings.endpointDeadline = deadline
        settings.caFiles = caFiles
        settings.concurrency = concurrency
        settings.perHost = perHost
        settings.resolve = try resolve.map { try ResolveRule(parsing: $0) }
        settings.allAddresses = allAddresses
        settings.sni = sni
        return settings
    }
}

enum Terminal {
    static var stdoutIsTTY: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    /// One line on stderr.
    static func fail(_ message: String) {
        FileHandle.standardError.write(Data((message.hasPrefix("atscheck:") ? message : "atscheck: \(message)").utf8 + [10]))
    }

    /// A progress line that rewrites itself, only when stderr is a terminal.
    static func progress(_ message: String) {
        guard stderrIsTTY else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(message)".utf8))
    }

    static func endProgress() {
        guard stderrIsTTY else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

extension Terminal {
    /// Runs facade work; its typed file errors become one line on stderr and their exit status
    /// (``InputFileError`` 65, ``OutputFileError`` 73).
    static func exitingOnFileErrors<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as InputFileError {
            endProgress()
            fail(error.description)
            throw ExitCode(ExitStatus.badInput.rawValue)
        } catch let error as OutputFileError {
            endProgress()
            fail(error.description)
            throw ExitCode(ExitStatus.cannotWrite.rawValue)
        }
    }
}
