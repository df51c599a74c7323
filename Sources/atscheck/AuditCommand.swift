import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Cross-check an Info.plist against its live endpoints; the CI gate.",
        discussion: """
            Lints the plist, scans every endpoint concurrently, judges each under the policy the plist gives \\
            that host, and reports the exception debt: exceptions needed but missing, present but unneeded, \\
            broader than the minimal one, exception domains that match no endpoint, and http:// endpoints.

            ENDPOINTS is a text file (one URL or host[:port] per line, # comments) or a YAML/JSON file with \\
            per-endpoint options (url, resolve, sni, caFile, expect, name) and a pin check (pins, library and \\
            the options of `pins check`: mode, allowInvalidCertificates, validatesDomainName, afVersion, evaluator, …). \\
            The plist's NSPinnedDomains is checked against every endpoint it covers.

            Exit status: 0 no error; 1 an error finding (a failing endpoint, missing exception, error-level \\
            plist finding, expired waiver, pin rejection); 2 an endpoint could not be scanned; 65 an input file is malformed.
            """
    )

    @Option(name: .long, help: "The app's Info.plist (XML or binary).")
    var plist: String

    @Option(name: .long, help: "The endpoint list (text, YAML or JSON).")
    var endpoints: String

    @Option(name: .long, help: "Waivers (YAML or JSON): findings they match are reported as notes until they expire.")
    var baseline: String?

    @OptionGroup var scan: ScanOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let result = try await Terminal.exitingOnFileErrors {
            try await ScanPipeline(settings: try scan.settings()).audit(
                plistPath: plist, endpointsPath: endpoints, os: policy.os, client: policy.clientKind, baselinePath: baseline, now: Date()
            ) { done, total, profile in
                Terminal.progress("audit: scanned \(done)/\(total): \(profile.target) \(profile.status.rawValue)")
            }
        }
        Terminal.endProgress()
        let text: String
        switch output.resolvedFormat {
        case .json: text = try JSONRendering.render(AuditJSON(result: result))
        default:
            text = try Render.report(result.report, format: output.resolvedFormat, color: output.useColor,
                                     plistFile: plist, endpointsFile: endpoints)
        }
        try output.emit(text)
        if let reason = result.exitReason { Terminal.fail(reason) }
        if result.exitStatus != .success { throw ExitCode(result.exitStatus.rawValue) }
    }
}
