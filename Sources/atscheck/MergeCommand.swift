import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON reports of scan --shard I/N runs into the report of a single run.",
        usage: "atscheck merge <file> ... [<options>]",
        discussion: """
            FILE is the output of `atscheck scan --shard I/N --format json` (every shard of one split, in any \
            order). Endpoints come back in the order a single run gives, findings once each, the summary \
            recomputed; --format and --report render it as scan does, and the exit status is scan's.

            Examples:
              atscheck merge shard-*.json --report sarif=atscheck.sarif --report junit=atscheck.xml
              atscheck merge shard-1.json shard-2.json --format json --output atscheck.json

            Exit status: as scan (0, 1, 2); 64 usage error; 65 a file is not a scan report, or the shards do not \
            belong together (a shard missing or given twice).
            """
    )

    @Argument(help: ArgumentHelp("Shard reports (scan --format json).", valueName: "file"))
    var files: [String]

    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    @Option(name: .customLong("endpoints-file"), help: ArgumentHelp(
        "The endpoint list the shards scanned, for the locations in SARIF, GitHub and Code Climate output.", valueName: "file"))
    var endpointsFile: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one report FILE") }
    }

    func run() async throws {
        let report = try await Terminal.exitingOnFileErrors {
            do { return try ReportMerge.merge(paths: files) } catch let error as MergeError {
                Terminal.fail("cannot merge: \(error.description)")
                throw ExitCode(ExitStatus.badInput.rawValue)
            }
        }
        try output.emit { format, color in
            try Render.report(report, format: format, color: color, endpointsFile: endpointsFile)
        }
        try gate.finish(ExitStatus.of(report), reason: ExitStatus.reason(for: report), findings: report.findings)
    }
}
