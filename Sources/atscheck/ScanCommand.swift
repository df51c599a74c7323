import ATSCheckKit
import ATSPolicy
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Probe endpoints: every TLS version, cipher suite and certificate fact, and the ATS verdict.",
        discussion: """
            TARGET is host, host:port, [v6]:port or an https:// URL (port 443 by default). `-` reads targets \
            from standard input and --targets FILE from a file, in the formats of an audit endpoint list: one \
            target a line with # comments, or YAML/JSON with per-endpoint resolve, sni and caFile. A line that \
            is not a target is reported as an endpoints.invalid finding with its file and line.

            Output is text unless --format says otherwise, on a terminal or in a pipe; --report FORMAT=PATH \
            writes more formats from the same scan.

            Examples:
              atscheck scan api.example.com
              atscheck scan https://staging.example.com:8443 --ca-file staging-root.pem
              atscheck scan api.example.com --resolve api.example.com:443:10.0.0.5 --format json
              atscheck scan --targets endpoints.txt --report sarif=atscheck.sarif --report junit=atscheck.xml
              grep -v staging hosts.txt | atscheck scan -
              atscheck scan --profile saved.json        # judge a saved profile again without connecting
              atscheck scan --profile saved.json --at 2027-03-01   # ...as of a later date (the chain is re-verified)

            With --plist, the plist's NSPinnedDomains are checked against the served chain of every host they \
            cover, as ATS checks them (live or --profile): a chain they reject is a \(RuleID.Pins.rejected) \
            error at the plist line of the pinned domain.

            Exit status: 0 every endpoint passes; 1 an endpoint fails ATS or an error-level finding (a pin \
            rejection among them; with --fail-on warning, a warning too); 2 an endpoint could not be scanned; \
            64 usage error; 65 an input file is malformed (nothing is written then); 130 Ctrl-C (143 SIGTERM): \
            no endpoint starts after it, those in flight have 2 s to finish, and the report of what completed \
            is written, marked partial (endpoints not scanned are `cancelled`); a second Ctrl-C quits at once.
            """
    )

    @Argument(
        help: ArgumentHelp("Endpoints to scan; - reads them from standard input.", valueName: "target"),
        transform: ScanArgument.parse)
    var targets: [ScanArgument] = []

    @Option(
        name: .customLong("targets"),
        help: ArgumentHelp("Read targets from FILE (text, YAML or JSON endpoint list). Repeatable.", valueName: "file"))
    var targetsFile: [String] = []

    @OptionGroup var scan: ScanOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions
    @OptionGroup var quantum: QuantumOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Judge under the NSAppTransportSecurity of this Info.plist (XML or binary) instead of the default ATS policy.",
            discussion:
                "Its NSPinnedDomains are checked against each covered host's served chain: a chain they reject is a "
                + "\(RuleID.Pins.rejected) error at the plist line (exit 1)."))
    var plist: String?

    @OptionGroup(title: "Reading the plist as Xcode builds it") var reading: PlistReadingOptions

    @Option(
        name: .customLong("save-profile"),
        help: "Write the scanned profiles (JSON) to FILE, to re-judge later with --profile.")
    var saveProfile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Judge profiles saved with --save-profile instead of scanning. Repeatable.",
            discussion:
                "The saved chain is verified again (at --at, or now) against --trust-store and --ca-file, which must be given again: the saved trust verdict is not reused."
        ))
    var profile: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Scan only shard I of N (1 ≤ I ≤ N, plain decimal); join the JSON reports with atscheck merge.",
            discussion:
                "Endpoints are split by a stable hash of scheme://host:port, resolve and sni, not their position.",
            valueName: "i/n"))
    var shard: String?

    /// `--format jsonl` to standard output of a scan (not of saved profiles): written as endpoints finish.
    var streamsLines: Bool { output.resolvedFormat == .jsonl && output.output == nil && profile.isEmpty }

    /// The targets given as arguments (`-` excluded).
    var argumentTargets: [Target] { targets.compactMap(\.target) }
    var readsStandardInput: Bool { targets.contains(.standardInput) }

    func validate() throws {
        let hasTargets = !targets.isEmpty || !targetsFile.isEmpty
        if !hasTargets && profile.isEmpty {
            throw ValidationError("give at least one TARGET, --targets FILE, - (standard input) or --profile FILE")
        }
        if hasTargets && !profile.isEmpty { throw ValidationError("give targets or --profile, not both") }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch let error as ShardError {
                throw ValidationError(error.description)
            }
            if !profile.isEmpty { throw ValidationError("--shard splits targets; it does not apply to --profile") }
        }
        if targets.filter({ $0 == .standardInput }).count > 1 {
            throw ValidationError("- (standard input) can be given once")
        }
        try output.check(showing: ScanDocument.self, command: "scan")
    }

    func run() async throws {
        // Ctrl-C or SIGTERM cancels the scan: what completed is still reported (marked partial), then exit 130/143.
        let command = Interruption.Unchecked(value: self)
        let (outcome, signal) = try await Interruption.run {
            try await Terminal.exitingOnFileErrors { try await command.value.scanned() }
        }
        switch outcome {
        case .streamed(var streamed):
            if let signal { streamed.report.partial?.signal = signal }
            let summary = try JSONLinesRendering.summaryLine(streamed.report)
            try output.emit(ScanDocument(report: streamed.report), streamed: summary)
            if let signal { try Interruption.finish(signal: signal, partial: streamed.report.partial) }
            try gate.finish(streamed.status, reason: streamed.reason, findings: streamed.report.findings)
        case .report(var report):
            if let signal { report.partial?.signal = signal }
            let endpointsFile = targetsFile.count == 1 && !readsStandardInput ? targetsFile[0] : nil
            let streamed = streamsLines ? try JSONLinesRendering.summaryLine(report) : nil
            let sources = ReportSources(plistFile: plist, endpointsFile: endpointsFile)
            try output.emit(ScanDocument(report: report, sources: sources), streamed: streamed)
            if let signal { try Interruption.finish(signal: signal, partial: report.partial) }
            try gate.finish(ExitStatus.of(report), reason: ExitStatus.reason(for: report), findings: report.findings)
        }
    }

    /// Scans (or loads saved profiles) and judges: the whole report, or what is left once JSON Lines streamed.
    private func scanned() async throws -> Outcome {
        // The plist is read first: with a bad plist and a bad profile, the plist is named.
        let options = try reading.readOptions()
        let source = try plist.map { try PlistSource.input($0, options: options) }
        let document = source?.document
        var judge = PolicyJudge(source: source, for: policy.judged)
        let report: ScanReport
        if profile.isEmpty {
            var lists = try targetsFile.map { try EndpointList.load(path: $0) }
            if readsStandardInput { lists.append(try EndpointList.loadStandardInput()) }
            let direct = argumentTargets
            var settings = try scan.settings()
            try quantum.apply(to: &settings)
            try scan.requireResolveRulesUsed(settings, targets: direct, entries: lists.flatMap(\.entries))
            // The plist's NSPinnedDomains, against each served chain: a host whose pins reject it cannot connect.
            judge.checkPinnedDomains(of: document, settings: settings)
            let pipeline = ScanPipeline(settings: settings)
            let progress: @Sendable (Int, Int, ServerProfile) -> Void = { done, total, profile in
                Terminal.progress("scanned \(done)/\(total): \(profile.target) \(profile.status.rawValue)")
            }
            let selected = try shard.map(Shard.init(parsing:))
            // JSON Lines to standard output stream: each endpoint is written as its probe finishes.
            var stream: (@Sendable (EndpointResult) -> Void)?
            if streamsLines {
                stream = { endpoint in
                    guard let line = try? JSONLinesRendering.line(endpoint) else { return }
                    Terminal.endProgress()
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            }
            if let stream, output.reports.isEmpty, saveProfile == nil {
                // Nothing else shows the endpoints: keep only the summary and the exit status.
                let streamed = await pipeline.scanStreaming(
                    direct, lists: lists, shard: selected, judge: judge, progress: progress, onEndpoint: stream)
                Terminal.endProgress()
                return .streamed(streamed)
            }
            report = await pipeline.scan(
                direct, lists: lists, shard: selected, judge: judge, progress: progress, onEndpoint: stream)
            Terminal.endProgress()
        } else {
            // A saved profile keeps the served chain; its trust is verified again (at --at, or now), never read back.
            let settings = try scan.settings(connects: false)
            let profiles = try ProfileFile.reverified(try ProfileFile.load(profile), settings: settings)
            if document != nil { judge.checkPinnedDomains(of: document, settings: settings) }
            report = ScanPipeline.report(profiles, judge: judge)
                .addingExpiryWarnings(days: scan.warnDays, now: settings.now ?? Date())
                .addingQuantumRequirement(quantum.requirePQ)
        }
        if let saveProfile { try ProfileFile.save(report.profiles, to: saveProfile) }
        return .report(report)
    }

    /// What a scan keeps for its outputs and exit status.
    private enum Outcome {
        /// The whole report.
        case report(ScanReport)
        /// JSON Lines already written: the summary line and the exit status are left.
        case streamed(StreamedScan)
    }
}
