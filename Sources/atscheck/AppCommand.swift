import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Audit an app build (.ipa, .app, .xcarchive): its Info.plist, pins, pinning libraries and endpoints.",
        usage: "atscheck app <path> --offline [--emit-endpoints <file>] [<options>]",
        discussion: """
            --offline reads the bundle without connecting anywhere: the Info.plist (binary or XML) and its \
            NSAppTransportSecurity lint, the minimum OS and the OS eras it implies, the pinning libraries linked \
            (AFNetworking, Alamofire, TrustKit) and which bundled .cer/.crt/.der files they would load, \
            TSKConfiguration and NSPinnedDomains, and the http(s) URLs and host names harvested from the \
            executables, plists, JSON, .strings and JavaScript bundles. Hostile archives (zip bombs, ../ or \
            absolute entries, escaping symlinks, duplicate entries, truncated zips) are refused with exit 65.

            Live checks of an app bundle (its endpoints judged under its own ATS dictionary, its pins against \
            the live paths) are not built yet: --offline is required for now.

            --emit-endpoints FILE writes the harvested endpoints as an endpoint list in the `audit` text format, \
            with the files each came from, for review before `atscheck audit --endpoints FILE`.

            Examples:
              atscheck app Demo.ipa --offline
              atscheck app build/Demo.xcarchive --offline --emit-endpoints endpoints.txt
              atscheck app Demo.app --offline --format json --report sarif=app.sarif

            Exit status: 0 no error-level finding (with --fail-on warning, no warning either); 1 at least one; \
            64 usage error (including a missing --offline); 65 the bundle is unreadable or refused as hostile \
            (nothing is written then).
            """
    )

    /// The message for a run without `--offline`.
    static let liveNotBuilt = "live checks of an app bundle are not built yet; use --offline"

    @Argument(help: ArgumentHelp("An .ipa, an .app folder or an .xcarchive.", valueName: "path"))
    var path: String

    @Flag(name: .long, help: "Read the bundle only; connect nowhere (required for now: live checks are not built yet).")
    var offline = false

    @Option(name: .customLong("emit-endpoints"), help: ArgumentHelp(
        "Write the harvested endpoints to FILE as an endpoint list (audit text format).", valueName: "file"))
    var emitEndpoints: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    func validate() throws {
        if !offline { throw ValidationError(Self.liveNotBuilt) }
        if let emitEndpoints, output.output == emitEndpoints || output.reports.contains(where: { $0.path == emitEndpoints }) {
            throw ValidationError("two outputs write to \(emitEndpoints)")
        }
    }

    func run() async throws {
        let result = try await Terminal.exitingOnFileErrors { try AppOfflineAudit.run(path: path) }
        let report = result.report
        try output.emit { format, color in
            switch format {
            case .json: return try JSONRendering.render(AppJSON(result: result))
            case .text:
                return AppOfflineText.header(result, style: TextStyle(enabled: color))
                    + (try Render.report(report, format: format, color: color))
            default: return try Render.report(report, format: format, color: color)
            }
        }
        if let emitEndpoints {
            try ReportFile.write(EndpointListWriter.text(result.endpoints, input: path), to: emitEndpoints)
        }
        try gate.finish(ExitStatus.of(report), reason: ExitStatus.reason(for: report), findings: report.findings)
    }
}
