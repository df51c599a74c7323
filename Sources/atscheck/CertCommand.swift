import ATSCheckKit
import ATSPolicy
import ArgumentParser
import Foundation
import Judging
import Pinning
import Reporting
import TLSModel

struct CertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert",
        abstract: "Judge a certificate chain file before it is deployed: Apple's trust, hostname, CT, expiry and pins.",
        discussion: """
            CHAIN is a PEM file (a server's fullchain.pem: leaf first, or any order — it is put in path order and \
            the report says so) or one DER certificate. Without a handshake, atscheck judges what the certificate \
            decides: trust in Apple's store of each iOS release (or --trust-store), the hostname against the SAN \
            (each --host), extended key usage and key usage, key algorithms and sizes, signature hashes, lifetime \
            caps, Certificate Transparency from the embedded SCTs, Apple's revocation-database restrictions, and \
            expiry at --at (default now; --warn-days warns ahead). TLS versions and cipher suites are the server's, \
            not the certificate's: `atscheck scan` judges those once the chain is served. A chain without its \
            intermediate is completed from the leaf's AIA caIssuers URL as iOS does (through the environment's \
            proxy); with --no-fetch it is judged ambiguous.

            With --pins, every pinning library whose material is there (or --library) decides for this chain, as \
            `atscheck pins check` does for a served one, with its outage warnings: a renewal that drops a pinned \
            intermediate or key is rejected before it ships. With --plist, the app's NSPinnedDomains decides too.

            Examples:
              atscheck cert fullchain.pem --host api.example.com
              atscheck cert renewed.pem --host api.example.com --pins App/Pins --at 2027-02-01
              atscheck cert renewed.pem --host api.example.com --plist App/Info.plist --format sarif

            Exit status: 0 the chain passes; 1 a rule or a pin policy rejects it (with --fail-on warning, a warning \
            too); 64 usage error; 65 the chain, a CA file, the plist or the pins cannot be read (one line names the \
            file and why), or a TrustKit configuration the app would crash on at launch.
            """
    )

    @Argument(
        help: ArgumentHelp("The chain: PEM (one or more certificates) or one DER certificate.", valueName: "chain"))
    var chain: String

    @Option(
        name: .long, help: "A name the app connects to; the leaf must name it. Repeatable.",
        transform: { text in
            _ = try TargetArgument.parse(text)
            return text
        })
    var host: [String] = []

    @OptionGroup var certificates: CertificateOptions
    @OptionGroup var policy: PolicyOptions

    @Option(
        name: .long, help: "Judge under this Info.plist: its NSAppTransportSecurity exceptions and NSPinnedDomains.")
    var plist: String?

    @OptionGroup(title: "Reading the plist as Xcode builds it") var reading: PlistReadingOptions

    @Option(
        name: .long,
        help:
            "Pin material (a file or a directory of certificates, pin-set files and Info.plists): every library's verdict for this chain."
    )
    var pins: String?

    @OptionGroup var library: PinLibraryOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    func validate() throws {
        if pins == nil && !library.given.isEmpty {
            throw ValidationError("\(library.given.joined(separator: ", ")) needs --pins")
        }
        if pins != nil && host.isEmpty {
            throw ValidationError("--pins needs --host: pins are configured per host")
        }
        try output.check(showing: CertDocument.self, command: "cert")
    }

    func run() async throws {
        let (report, pinReports) = try await Terminal.exitingOnFileErrors { try judged() }
        var combined = report
        var pinFindings: [Finding] = []
        for pinReport in pinReports {
            let prefix = pinReports.count > 1 ? "\(pinReport.library.rawValue): " : ""
            for var finding in PinsFormats.findingsReport(pinReport).findings {
                finding.message = prefix + finding.message
                if finding.file == nil { finding.file = chain }  // a verdict on the chain: located at its file
                pinFindings.append(finding)
            }
        }
        combined.findings += pinFindings
        let document = CertDocument(
            report: combined, pinCheck: pinReports.count == 1 ? pinReports[0] : nil,
            sources: ReportSources(plistFile: plist))
        try output.emit(document)
        let rejected = pinReports.contains { ExitStatus.of($0) == .policyFailure }
        let status = rejected ? .policyFailure : ExitStatus.of(combined)
        let reason =
            rejected && ExitStatus.of(combined) == .success
            ? "atscheck: \(chain): a pin policy rejects this chain" : ExitStatus.reason(for: combined)
        try gate.finish(status, reason: reason, findings: combined.findings)
    }

    /// The certificate report and, with --pins or a plist's NSPinnedDomains, each library's pin check.
    private func judged() throws -> (ScanReport, [PinCheckReport]) {
        // The plist is read first: with a bad plist and a bad chain, the plist is named.
        let options = try reading.readOptions()
        let source = try plist.map { try PlistSource.input($0, options: options) }
        let document = source?.document
        let judge = PolicyJudge(source: source, for: policy.judged)
        // An app whose TSKConfiguration TrustKit refuses crashes at launch: nothing else is worth judging.
        if let document, let error = TrustKitLaunchFailure.error(TrustKitLaunchFailure.inPlist(document)) {
            throw error
        }
        var settings = ScanSettings()
        try certificates.apply(to: &settings)
        if settings.fetchIssuers {
            // A missing issuer is fetched through the environment's proxy, as a scan's connections go.
            do {
                settings.proxy = try ProxySettings.resolve(
                    option: nil, ignoreEnvironment: false, environment: ProcessInfo.processInfo.environment)
            } catch let error as ProxySettingsError {
                Terminal.fail(error.message)
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
        let check = CertCheck(file: chain, hosts: host, settings: settings)
        let (report, _) = try check.report(judge: judge)
        var material: [(String, LoadedPins, [PinLibrary])] = []
        if let pins {
            let loaded = try PinMaterialLoader.load(pins, plistReading: options)
            material.append((pins, loaded, library.library.map { [$0] } ?? CertPins.libraries(for: loaded)))
        }
        if let plist, pins != plist, !host.isEmpty {
            let loaded = try PinMaterialLoader.load(plist, plistReading: options)
            let libraries = CertPins.plistLibraries(for: loaded)
            if !libraries.isEmpty { material.append((plist, loaded, libraries)) }
        }
        var pinReports: [PinCheckReport] = []
        for (path, loaded, libraries) in material {
            for id in libraries {
                let options = PinPolicyOptions(library: id, values: library.values)
                if let problem = options.problem(.commandLine) { throw ValidationError(problem) }
                pinReports.append(
                    try CertPins.check(
                        served: report.endpoints.first?.profile.certificate?.chain ?? [], hosts: host, file: chain,
                        policy: options.policy, pins: loaded, pinsPath: path, settings: settings, at: check.judgedAt,
                        fetched: report.endpoints.first?.profile.certificate?.fetchedIssuerCertificates ?? []))
            }
        }
        return (report, pinReports)
    }
}
