import ATSCheckKit
import AppBundle
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract:
            "Audit an app build (.ipa, .app, .xcarchive): its Info.plist, pins, pinning libraries and endpoints, live.",
        usage: "atscheck app <path> [--offline] [--endpoints <file>] [--emit-endpoints <file>] [<options>]",
        discussion: """
            Reads the bundle: the Info.plist (binary or XML) and its NSAppTransportSecurity lint, the minimum OS \
            and the OS eras it implies, the pinning libraries linked (AFNetworking, Alamofire, TrustKit) and which \
            bundled .cer/.crt/.der files they would load, TSKConfiguration and NSPinnedDomains, and the http(s) \
            URLs and host names harvested from the executables, plists, JSON, .strings and JavaScript bundles. \
            Hostile bundles (zip bombs, ../ or absolute entries, escaping or looping symlinks, duplicate entries, \
            truncated zips, offsets outside the file, malformed Mach-O executables, a FIFO or device as the path) \
            are refused with exit 65. At most 10,000 harvested endpoints are kept (the first found); the output \
            says how many more there were.

            Then, live: every endpoint (harvested, or --endpoints FILE, which replaces the harvest) is probed once \
            (ATS-only by default; --full enumerates every suite) and judged under the bundle's own ATS dictionary \
            for each OS era from its minimum OS to the newest ("fails on iOS 12–12.2, passes on 13+"); http:// \
            endpoints are judged without a connection. The exception debt is reported as `audit` reports it. \
            NSPinnedDomains and TSKConfiguration are checked against the hosts they cover; the certificates a \
            linked AFNetworking or Alamofire loads are checked against every https endpoint in each plausible \
            mode (AFNetworking certificate and public-key, Alamofire pinned-certificates and public-keys), since \
            the mode is set in code: a rejection is then a warning. --library/--mode/--evaluator name the policy, \
            and a rejection is an error. AFNetworking 2.x/3.x linked as a dynamic framework loads pins from its \
            own bundle: the app's top-level .cer files are never used, and the check says so.

            --offline reads the bundle without connecting anywhere. --emit-endpoints FILE writes the harvested \
            endpoints as an endpoint list in the `audit` text format, for review and for --endpoints.

            Examples:
              atscheck app Demo.ipa
              atscheck app Demo.ipa --resolve api.example.com:443:10.0.0.5 --ca-file staging-root.pem
              atscheck app Demo.ipa --endpoints reviewed.txt --library afnetworking --mode public-key
              atscheck app build/Demo.xcarchive --offline --emit-endpoints endpoints.txt
              atscheck app Demo.app --format json --report sarif=app.sarif

            Exit status: 0 every endpoint passes on every era and no error-level finding (with --fail-on warning, \
            no warning either); 1 an error finding (an endpoint failing ATS on an era the build supports, a missing \
            exception, an error-level plist finding, a pin rejection); 2 no failure, but an endpoint could not be \
            scanned; 64 usage error; 65 the bundle, the endpoint list or a CA file is unreadable or refused, or \
            the bundle links TrustKit and TrustKit refuses its TSKConfiguration (the app would crash at launch; \
            nothing is written then).
            """
    )

    @Argument(help: ArgumentHelp("An .ipa, an .app folder or an .xcarchive.", valueName: "path"))
    var path: String

    @Flag(name: .long, help: "Read the bundle only; connect nowhere.")
    var offline = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An endpoint list (text, YAML or JSON, as for audit) that replaces the harvested endpoints.",
            valueName: "file"))
    var endpoints: String?

    @Option(
        name: .customLong("emit-endpoints"),
        help: ArgumentHelp(
            "Write the harvested endpoints to FILE as an endpoint list (audit text format).", valueName: "file"))
    var emitEndpoints: String?

    @OptionGroup var scope: FullScanOption

    @OptionGroup var pinLibrary: PinLibraryOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Client class (default: \(ClientKind.urlSession.optionValue)).", visibility: .default))
    var client: ClientKind?

    @OptionGroup var scan: ScanOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions
    @OptionGroup var quantum: QuantumOption

    var pinScope: AppPinScope { AppPinScope(library: pinLibrary.library, values: pinLibrary.values) }

    func validate() throws {
        if let emitEndpoints,
            output.output == emitEndpoints || output.reports.contains(where: { $0.path == emitEndpoints })
        {
            throw ValidationError("two outputs write to \(emitEndpoints)")
        }
        try scope.validate(with: scan)
        try PolicyOptions.refuseSystemServices(
            client,
            "app judges the app's own connections under its Info.plist, which system processes do not read: judge a "
                + "server with `atscheck scan --client system-services URL`")
        if offline {
            let live =
                [("--endpoints", endpoints != nil), ("--full", scope.full), ("--require-pq", quantum.requirePQ)].filter(
                    \.1
                ).map(\.0) + pinLibrary.given
            if !live.isEmpty {
                throw ValidationError("\(live.joined(separator: ", ")) need the live checks: drop --offline")
            }
        }
        if let problem = pinScope.problem { throw ValidationError(problem) }
        try output.check(showing: AppDocument.self, command: "app")
    }

    func run() async throws {
        if offline { return try await runOffline() }
        let result = try await Terminal.exitingOnFileErrors { () -> AppLiveResult in
            var settings = try scan.settings()
            settings.scope = scope.scope
            try quantum.apply(to: &settings)
            return try await AppLiveAudit.run(
                path: path, endpointsPath: endpoints, settings: settings, client: client ?? .urlSession,
                pinScope: pinScope
            ) { done, total, profile in
                Terminal.progress("app: scanned \(done)/\(total): \(profile.target) \(profile.status.rawValue)")
            }
        }
        Terminal.endProgress()
        warnUnusedResolveRules(result)
        let report = result.report
        let sources = ReportSources(plistFile: path, endpointsFile: endpoints ?? path)
        try output.emit(AppDocument(report: report, app: result.section, sources: sources))
        if let emitEndpoints {
            let offline = result.offline
            try ReportFile.write(
                EndpointListWriter.text(offline.endpoints, input: path, notShown: offline.endpointsNotShown),
                to: emitEndpoints)
        }
        try gate.finish(result.exitStatus, reason: result.exitReason, findings: report.findings)
    }

    /// `atscheck app --offline`: the bundle only.
    func runOffline() async throws {
        let result = try await Terminal.exitingOnFileErrors { try AppOfflineAudit.run(path: path) }
        let report = result.report
        try output.emit(
            AppDocument(
                report: report, app: result.section, sources: ReportSources(plistFile: path, endpointsFile: path)))
        if let emitEndpoints {
            try ReportFile.write(
                EndpointListWriter.text(result.endpoints, input: path, notShown: result.endpointsNotShown),
                to: emitEndpoints)
        }
        try gate.finish(ExitStatus.of(report), reason: ExitStatus.reason(for: report), findings: report.findings)
    }

    /// A `--resolve` rule that matches no endpoint of the bundle is named on stderr (the endpoints are only
    /// known once the bundle is read, so it is not a usage error as it is for `scan`).
    func warnUnusedResolveRules(_ result: AppLiveResult) {
        // The rules only (scan.settings() would read every CA file again).
        let rules = scan.resolve.compactMap { try? ResolveRule(parsing: $0) }
        guard !rules.isEmpty else { return }
        let used = Set(result.report.endpoints.map { "\($0.profile.host.lowercased()):\($0.profile.port)" })
        let unused = rules.map { "\($0.host):\($0.port)" }.filter { !used.contains($0.lowercased()) }
        if !unused.isEmpty {
            Terminal.fail("note: --resolve \(Terminal.list(unused)) matches no endpoint of the bundle")
        }
    }
}
