import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Pinning
import Reporting
import TLSModel

struct PinsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pins",
        abstract:
            "Check pins as AFNetworking, TrustKit, Alamofire and NSPinnedDomains decide, or extract pins from a live "
            + "server.",
        subcommands: [PinsCheckCommand.self, PinsExtractCommand.self]
    )
}

struct PinsCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Decide as an iOS pinning library would for each TARGET's served chain (exit 0 accept, 1 reject, 2 could "
            + "not connect).",
        discussion: """
            Pins are matched against the path iOS would build (OpenSSL X509_verify_cert with the library's anchors), \
            with Apple's SSL-policy checks where the library asks for an SSL policy. With debug relaxations \
            (--allow-invalid-certificates, --no-validate-domain-name, Alamofire's flags) the release build is shown \
            next to it, with the risks of shipping the relaxed one. The chain comes from the ATS-only probe (at most \
            6 handshakes; the report says suite lists were not enumerated); --full enumerates every suite.
            A TrustKit configuration TrustKit refuses when it loads it (no backup pin, a domain outside its public \
            suffix list such as *.test, includeSubdomains on a public suffix, …) exits 65 before connecting, with \
            --library trustkit, and with any library for an Info.plist's TSKConfiguration: the app would crash at \
            launch.
            Examples:
              atscheck pins check staging.example.com --pins Pins/ --library afnetworking --mode certificate
              atscheck pins check staging.example.com --pins Pins/staging.cer --allow-invalid-certificates --no-validate-domain-name
              atscheck pins check api.example.com --pins Pins/api.json --library trustkit
              atscheck pins check api.example.com --pins App/Info.plist --library nspinneddomains
            """
    )

    @Argument(help: "Endpoints to check: host, host:port or an https:// URL.")
    var targets: [String]

    @Option(
        name: .long,
        help:
            "Pin material: a file or a directory of .cer/.der/.crt/.pem certificates, pin-set files (.json, .yaml) and Info.plists."
    )
    var pins: String = "Pins"

    @OptionGroup var library: PinLibraryOptions
    @OptionGroup var relaxations: PinRelaxationOptions

    @Flag(
        name: .long,
        help:
            "Enumerate every suite of every version (the default is --ats-only: the served chain from at most 6 handshakes)."
    )
    var full = false

    @OptionGroup var scan: ScanOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    func validate() throws {
        if full && scan.atsOnly { throw ValidationError("--full and --ats-only cannot be used together") }
        if targets.isEmpty { throw ValidationError("give at least one TARGET") }
        for target in targets {
            do { _ = try Target(parsing: target) } catch let error as TargetError {
                throw ValidationError(error.description)
            }
        }
        if let problem = options.problem(.commandLine) { throw ValidationError(problem) }
        try output.check(showing: PinCheckDocument.self, command: "pins check")
    }

    /// The options as the one model `pins check` and the audit's endpoint lists share.
    var options: PinPolicyOptions {
        PinPolicyOptions(library: library.library, values: relaxations.adding(to: library.values))
    }

    /// The policy the options describe.
    var policy: PinPolicy { options.policy }

    func run() async throws {
        let report = try await Terminal.exitingOnFileErrors {
            let loaded = try PinMaterialLoader.load(pins)
            var settings = try scan.settings()
            // The pin evaluation reads the served chain only: the ATS-only probe has it, in far fewer handshakes.
            settings.scope = full ? .full : .atsOnly
            var checker = try PinChecker(
                policy: policy, pins: loaded, pinsPath: pins, caFiles: settings.caFiles, warnDays: scan.warnDays,
                now: settings.now ?? Date())
            checker.trustSource = settings.trustSource
            return await checker.check(
                try targets.map { try Target(parsing: $0) }, pipeline: ScanPipeline(settings: settings))
        }
        try output.emit(PinCheckDocument(report: report, sources: ReportSources(plistFile: pins)))
        try gate.finish(
            ExitStatus.of(report), reason: ExitStatus.reason(for: report),
            findings: PinsFormats.findingsReport(report).findings)
    }
}
