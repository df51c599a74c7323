import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON reports of scan or audit --shard I/N runs into the report of a single run.",
        usage: "atscheck merge <file> ... [<options>]",
        discussion: """
            FILE is the output of `atscheck scan --shard I/N --format json` (every shard of one split, in any \
            order). Endpoints come back in the order a single run gives, findings once each, the summary \
            recomputed; --format and --report render it as scan does, and the exit status is scan's.

            Examples:
              atscheck merge shard-*.json --report sarif=atscheck.sarif --report junit=atscheck.xml
              atscheck merge shard-1.json shard-2.json --format json --output atscheck.json

            The outputs of `atscheck audit --shard I/N --format json` merge into the whole audit: each endpoint's \
            scan comes from its shard, and the audit's inputs (plist, endpoint list, baseline, pin material, recorded \
            in each shard's `auditShard`) are read again to judge the whole list, exception debt included; run the \
            merge from the shards' working directory. Text, JSON, SARIF, JUnit and the exit status are the single \
            audit's.

            Exit status: as scan or audit (0, 1, 2); 64 usage error; 65 a file is not a regular file or not a scan \
            or audit report (the line names the file and the first wrong value), the reports do not belong together \
            (a shard missing or given twice, different splits or atscheck versions, the same whole report twice, scan \
            and audit reports mixed, different audits: the line names the files), or an audit input changed since the \
            shards ran.
            """
    )

    @Argument(help: ArgumentHelp("Shard reports (scan --format json).", valueName: "file"))
    var files: [String]

    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    @Option(
        name: .customLong("endpoints-file"),
        help: ArgumentHelp(
            "The endpoint list the shards scanned, for the locations in SARIF, GitHub and Code Climate output.",
            valueName: "file"))
    var endpointsFile: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one report FILE") }
        // The shards may be a scan's or an audit's: the formats that show both.
        try output.check(showing: ScanDocument.self, AuditDocument.self, command: "merge")
    }

    func run() async throws {
        let merged = try await Terminal.exitingOnFileErrors {
            do { return try AuditMerge.merge(paths: files) } catch let error as MergeError {
                Terminal.fail("cannot merge: \(error.description)")
                throw ExitCode(ExitStatus.badInput.rawValue)
            }
        }
        let report: ScanReport
        switch merged {
        case .audit(let result, let inputs):
            try AuditCommand.emit(
                result, plist: inputs.plist, endpoints: endpointsFile ?? inputs.endpoints, output: output, gate: gate)
            return
        case .scan(let scanReport):
            report = scanReport
        }
        try output.emit(ScanDocument(report: report, sources: ReportSources(endpointsFile: endpointsFile)))
        try gate.finish(ExitStatus.of(report), reason: ExitStatus.reason(for: report), findings: report.findings)
    }
}
