import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

struct DiagnoseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "The nscurl --ats-diagnostics matrix from one scan, and the smallest exception that passes.",
        discussion: """
            Reproduces `nscurl --ats-diagnostics --verbose URL`: the same 16 tests in the same order, with the
            same titles and ATS dictionaries, each predicted PASS or FAIL from ONE scan (no connection per
            test), then the least-permissive NSExceptionDomains entry that makes the default test pass, as a
            ready-to-paste plist fragment.

            Text and JSON show the matrix; SARIF, JUnit, Markdown, github and codeclimate show the endpoint as \
            scan does, judged under the default ATS policy.

            With --tls-diagnostics, text and JSON show instead what macOS 26's `nscurl --tls-diagnostics URL` \
            prints (negotiated version and suite code points, group name), from the scan's simulated Apple client.

            Exit status: 0 the default test passes; 1 it fails (or is ambiguous; with --fail-on warning, a \
            warning too); 2 the URL could not be scanned; 64 usage error; 65 a saved profile is malformed.
            """
    )

    @Argument(help: "The URL (https://host[:port]/path), host or host:port.", transform: TargetArgument.parse)
    var url: Target

    @OptionGroup var scan: ScanOptions
    @OptionGroup var policy: PolicyOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    @Option(name: .long, help: "Diagnose a profile saved with `scan --save-profile` instead of scanning.")
    var profile: String?

    @Flag(
        name: .customLong("tls-diagnostics"),
        help: ArgumentHelp(
            "Print what macOS 26's `nscurl --tls-diagnostics` prints instead of the ATS matrix.",
            discussion: """
                The negotiated TLS version and cipher suite (code points) and key-exchange group (name) of the \
                scan's simulated Apple URLSession client of the era in force on --os-version (the newest by \
                default), or how that client fails. Exit status: 0 it connects; 1 it fails; 2 nothing was simulated \
                for that release.
                """))
    var tlsDiagnostics = false

    @Flag(
        name: .customLong("older-sdk"),
        help: ArgumentHelp(
            "With --tls-diagnostics: iOS 26 as an app built with an SDK before iOS 26's (Xcode 16 or older).",
            discussion: """
                Such an app still offers TLS 1.1 and 1.0 where ATS does not set its TLS 1.2 minimum \
                (NSAllowsArbitraryLoads, or an NSExceptionMinimumTLSVersion below TLS 1.2): iOS 26 makes TLS 1.2 \
                the default minimum only for apps linked with its SDK (inferred from Apple's Security source, not \
                captured).
                """))
    var olderSDK = false

    func validate() throws {
        try output.check(showing: DiagnosisDocument.self, command: "diagnose")
        if tlsDiagnostics && scan.noSimulation {
            throw ValidationError("--tls-diagnostics prints a simulated client's handshake: drop --no-simulation")
        }
        if olderSDK {
            guard tlsDiagnostics else { throw ValidationError("--older-sdk needs --tls-diagnostics") }
            guard profile == nil else {
                throw ValidationError("--older-sdk simulates iOS 26 again: drop --profile to scan")
            }
            guard policy.os.major >= 26 else {
                throw ValidationError("--older-sdk concerns iOS 26 and later: drop --os-version \(policy.os)")
            }
        }
        if !tlsDiagnostics {
            try PolicyOptions.refuseSystemServices(
                policy.client,
                "the nscurl matrix varies Info.plist keys, which system processes do not read: add "
                    + "--tls-diagnostics, or judge the server with `atscheck scan --client system-services URL`")
        }
    }

    func run() async throws {
        let target = url
        let found = try await Terminal.exitingOnFileErrors { () -> Diagnosis? in
            if let profile {
                return try ScanPipeline.diagnose(
                    target, url: url.original, savedProfile: profile, for: policy.judged, warnDays: scan.warnDays)
            }
            var settings = try scan.settings()
            settings.simulatesOlderSDK = olderSDK
            try scan.requireResolveRulesUsed(settings, targets: [target])
            let pipeline = ScanPipeline(settings: settings)
            return await pipeline.diagnose(target, url: url.original, for: policy.judged)
        }
        guard var diagnosis = found else { throw ExitCode(ExitStatus.incomplete.rawValue) }
        if tlsDiagnostics { diagnosis = diagnosis.showingTLSDiagnostics(for: policy.os) }
        try output.emit(DiagnosisDocument(report: diagnosis.scanReport, diagnosis: diagnosis.section))
        try gate.finish(diagnosis.exitStatus, reason: diagnosis.exitReason, findings: diagnosis.findings)
    }
}
