import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Probe endpoints: every TLS version, cipher suite and certificate fact, and the ATS verdict.",
        discussion: """
            TARGET is host, host:port, [v6]:port or an https:// URL (port 443 by default).
            Examples:
              atscheck scan api.example.com
              atscheck scan https://staging.example.com:8443 --ca-file staging-root.pem
              atscheck scan api.example.com --resolve api.example.com:443:10.0.0.5 --format json
              atscheck scan --profile saved.json        # re-render a saved profile without connecting
            """
    )

    @Argument(help: "Endpoints to scan.")
    var targets: [String] = []

    @OptionGroup var scan: ScanOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: "Judge under the NSAppTransportSecurity of this Info.plist (XML or binary) instead of the default ATS policy.")
    var plist: String?

    @Option(name: .customLong("save-profile"), help: "Write the scanned profiles (JSON) to FILE, to re-judge later with --profile.")
    var saveProfile: String?

    @Option(name: .long, help: "Render profiles saved with --save-profile instead of scanning. Repeatable.")
    var profile: [String] = []

    func validate() throws {
        if targets.isEmpty && profile.isEmpty { throw ValidationError("give at least one TARGET, or --profile FILE") }
        if !targets.isEmpty && !profile.isEmpty { throw ValidationError("give TARGETs or --profile, not both") }
        for target in targets {
            do { _ = try Target(parsing: target) } catch let error as TargetError { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        let report = try await Terminal.exitingOnFileErrors {
            // The plist is read first: with a bad plist and a bad profile, the plist is named.
            let judge = try PolicyJudge(plist: plist, os: policy.os, client: policy.clientKind)
            let report: ScanReport
            if profile.isEmpty {
                let pipeline = ScanPipeline(settings: try scan.settings())
                report = await pipeline.scan(try targets.map { try Target(parsing: $0) }, judge: judge) { done, total, profile in
                    Terminal.progress("scanned \(done)/\(total): \(profile.target) \(profile.status.rawValue)")
                }
                Terminal.endProgress()
            } else {
                report = ScanPipeline.report(try ProfileFile.load(profile), judge: judge)
            }
            if let saveProfile { try ProfileFile.save(report.profiles, to: saveProfile) }
            return report
        }
        try output.emit(try Render.report(report, format: output.resolvedFormat, color: output.useColor, plistFile: plist))
        let status = ExitStatus.of(report)
        if let reason = ExitStatus.reason(for: report) { Terminal.fail(reason) }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}

enum Render {
    /// Renders a report in any format; every format is a view of the same JSON model.
    static func report(
        _ report: ScanReport, format: OutputFormat, color: Bool, plistFile: String? = nil, endpointsFile: String? = nil
    ) throws -> String {
        switch format {
        case .json: return try JSONRendering.render(report)
        case .text: return ScanTextRenderer(style: TextStyle(enabled: color)).render(report)
        case .sarif:
            return try SARIFRenderer.render(report, plistFile: plistFile, endpointsFile: endpointsFile)
        case .junit: return JUnitRenderer.render(report)
        case .markdown: return MarkdownRenderer.render(report)
        }
    }
}
