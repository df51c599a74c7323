import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Cross-check an Info.plist against its live endpoints; the CI gate.",
        discussion: """
            Lints the plist, scans every endpoint concurrently, judges each under the policy the plist gives \
            that host, and reports the exception debt: exceptions needed but missing, present but unneeded, \
            broader than the minimal one, exception domains that match no endpoint, and http:// endpoints. \
            Without --plist every endpoint is judged under the default ATS policy (no exceptions).

            ENDPOINTS is a text file (one URL or host[:port] per line, # comments) or a YAML/JSON file with \
            per-endpoint options (url, resolve, sni, caFile, expect, name) and a pin check (pins, library and \
            the options of `pins check`: mode, allowInvalidCertificates, validatesDomainName, afVersion, evaluator, …). \
            The plist's NSPinnedDomains is checked against every endpoint it covers.

            Exit status: 0 no error; 1 an error finding (a failing endpoint, missing exception, error-level \
            plist finding, expired waiver, pin rejection; with --fail-on warning, a warning too); 2 an endpoint could not be \
            scanned; 64 usage error; 65 an input file is malformed, or TrustKit would refuse the plist's \
            TSKConfiguration or an entry's TrustKit pin set at launch (the app would crash; nothing is scanned or \
            written then); 130 Ctrl-C (143 SIGTERM): the audit of what completed is written, marked partial.

            --shard I/N audits the entries of one shard (split as scan --shard splits); `atscheck merge` of every \
            shard's --format json output gives the single run's report, exception debt and exit status.
            """
    )

    @Option(name: .long, help: "The app's Info.plist (XML or binary); without it, the default ATS policy.")
    var plist: String?

    @OptionGroup(title: "Reading the plist as Xcode builds it") var reading: PlistReadingOptions

    @Option(name: .long, help: "The endpoint list (text, YAML or JSON).")
    var endpoints: String

    @Option(name: .long, help: "Waivers (YAML or JSON): findings they match are reported as notes until they expire.")
    var baseline: String?

    @OptionGroup var scope: FullScanOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Audit only shard I of N of the endpoint list (1 ≤ I ≤ N, plain decimal); atscheck merge rebuilds the whole audit from the JSON of every shard.",
            valueName: "i/n"))
    var shard: String?

    @OptionGroup var scan: ScanOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions
    @OptionGroup var quantum: QuantumOption

    func validate() throws {
        try scope.validate(with: scan)
        if let shard {
            do { _ = try Shard(parsing: shard) } catch let error as ShardError {
                throw ValidationError(error.description)
            }
        }
        try output.check(showing: AuditDocument.self, command: "audit")
        try PolicyOptions.refuseSystemServices(
            policy.client,
            "audit weighs the app's Info.plist exceptions, which system processes do not read: judge the servers "
                + "with `atscheck scan --client system-services --targets FILE`")
    }

    func run() async throws {
        // Ctrl-C or SIGTERM cancels the scan: what completed is still reported (marked partial), then exit 130/143.
        let command = Interruption.Unchecked(value: self)
        let (audited, signal) = try await Interruption.run { try await command.value.audited() }
        var result = audited
        Terminal.endProgress()
        guard let signal else {
            return try Self.emit(result, plist: plist, endpoints: endpoints, output: output, gate: gate)
        }
        result.report.partial?.signal = signal
        try output.emit(
            AuditDocument(
                report: result.report, audit: result.section(judgedUnderDefaultPolicy: plist == nil),
                sources: ReportSources(plistFile: plist, endpointsFile: endpoints)))
        try Interruption.finish(signal: signal, partial: result.report.partial)
    }

    /// Reads the inputs, scans the endpoints and audits them.
    private func audited() async throws -> AuditResult {
        try await Terminal.exitingOnFileErrors { () -> AuditResult in
            var settings = try scan.settings()
            settings.scope = scope.scope
            try quantum.apply(to: &settings)
            settings.plistReading = try reading.readOptions()
            // The pipeline refuses --resolve rules that match no entry (UnusedResolveRules, exit 64) before scanning.
            return try await ScanPipeline(settings: settings).audit(
                plistPath: plist, endpointsPath: endpoints, for: policy.judged, baselinePath: baseline,
                now: Date(), shard: try shard.map(Shard.init(parsing:))
            ) { done, total, profile in
                Terminal.progress("audit: scanned \(done)/\(total): \(profile.target) \(profile.status.rawValue)")
            }
        }
    }

    /// Renders an audit in every requested format and exits with its status (`audit`, and `merge` of audit shards).
    static func emit(_ result: AuditResult, plist: String?, endpoints: String, output: OutputOptions, gate: GateOptions)
        throws
    {
        try output.emit(
            AuditDocument(
                report: result.report, audit: result.section(judgedUnderDefaultPolicy: plist == nil),
                sources: ReportSources(plistFile: plist, endpointsFile: endpoints)))
        try gate.finish(result.exitStatus, reason: result.exitReason, findings: result.report.findings)
    }
}
