import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

struct DiagnoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "The nscurl --ats-diagnostics matrix from one scan, and the smallest exception that passes.",
        discussion: """
            Reproduces `nscurl --ats-diagnostics --verbose URL`: the same 16 tests in the same order, with the
            same titles and ATS dictionaries, each predicted PASS or FAIL from ONE scan (no connection per
            test), then the least-permissive NSExceptionDomains entry that makes the default test pass, as a
            ready-to-paste plist fragment.

            Exit status: 0 the default test passes; 1 it fails (or is ambiguous); 2 the URL could not be scanned.
            """
    )

    @Argument(help: "The URL (https://host[:port]/path), host or host:port.")
    var url: String

    @OptionGroup var scan: ScanOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: "Diagnose a profile saved with `scan --save-profile` instead of scanning.")
    var profile: String?

    func validate() throws {
        if let format = output.format, ![.text, .json].contains(format) {
            throw ValidationError("diagnose writes text or json")
        }
        do { _ = try Target(parsing: url) } catch let error as TargetError { throw ValidationError(error.description) }
    }

    func run() async throws {
        let target = try Target(parsing: url)
        let found = try await Terminal.exitingOnFileErrors { () -> Diagnosis? in
            if let profile {
                return try ScanPipeline.diagnose(target, url: url, savedProfile: profile, os: policy.os, client: policy.clientKind)
            }
            let pipeline = ScanPipeline(settings: try scan.settings())
            return await pipeline.diagnose(target, url: url, os: policy.os, client: policy.clientKind)
        }
        guard let diagnosis = found else { throw ExitCode(ExitStatus.incomplete.rawValue) }
        switch output.resolvedFormat {
        case .json, .sarif, .junit, .markdown: try output.emit(try JSONRendering.render(diagnosis.report))
        case .text:
            var text = DiagnosticsTextRenderer.render(diagnosis.report)
            let scanned = diagnosis.profile
            if scanned.status != .completed {
                text = "atscheck could not scan \(scanned.target): \(scanned.error ?? scanned.status.rawValue)\n\n" + text
            }
            try output.emit(text)
        }
        if let reason = diagnosis.exitReason { Terminal.fail(reason) }
        if diagnosis.exitStatus != .success { throw ExitCode(diagnosis.exitStatus.rawValue) }
    }
}
