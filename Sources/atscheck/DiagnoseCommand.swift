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
        let scanned: ServerProfile
        if let profile {
            let profiles = try ProfileFile.load(profile)
            guard let match = profiles.first(where: { $0.host == target.host && $0.port == target.port }) ?? profiles.first else {
                Terminal.fail("\(profile) holds no profile")
                throw ExitCode(ExitStatus.badInput.rawValue)
            }
            scanned = match
        } else {
            let check = ATSCheck(settings: try scan.settings())
            guard let first = await check.scan([target]).first else { throw ExitCode(ExitStatus.incomplete.rawValue) }
            scanned = first
        }
        let report = ATSDiagnostics.run(profile: scanned, target: target, os: policy.os, client: policy.clientKind)
        switch output.resolvedFormat {
        case .json, .sarif, .junit, .markdown: try output.emit(try JSONRendering.render(report))
        case .text:
            var text = DiagnosticsTextRenderer.render(report)
            if scanned.status != .completed {
                text = "atscheck could not scan \(scanned.target): \(scanned.error ?? scanned.status.rawValue)\n\n" + text
            }
            try output.emit(text)
        }
        guard scanned.status == .completed else {
            Terminal.fail("\(scanned.target) could not be scanned: \(scanned.error ?? scanned.status.rawValue)")
            throw ExitCode(ExitStatus.incomplete.rawValue)
        }
        switch report.tests.first?.result {
        case .pass?: return
        case .unknown?, nil:
            Terminal.fail("the default ATS test could not be predicted for \(url)")
            throw ExitCode(ExitStatus.incomplete.rawValue)
        default:
            Terminal.fail("\(url) fails the default ATS test: \(report.tests.first?.reason ?? "")")
            throw ExitCode(ExitStatus.policyFailure.rawValue)
        }
    }
}
