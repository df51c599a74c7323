import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

extension PinMaterialFormat: ExpressibleByArgument {}

struct PinsExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write pins for TARGET's live path in the format an app uses, recommending a CA pin plus a backup.",
        discussion: """
            The live path is the one iOS would build under default trust (system store plus --ca-file), not the \
            raw list the server sent. Without --out the material is printed instead of written.
            Examples:
              atscheck pins extract api.example.com --out Pins/ --format afnetworking
              atscheck pins extract staging.example.com:8443 --ca-file staging-root.pem --format trustkit
              atscheck pins extract api.example.com --format curl
            """
    )

    @Argument(help: "The endpoint: host, host:port or an https:// URL.")
    var target: String

    @Option(name: .long, help: "Directory to write the material to (created when missing).")
    var out: String?

    @Option(name: .long, help: "Material format: \(PinMaterialFormat.allCases.map(\.rawValue).joined(separator: "|")).")
    var format: PinMaterialFormat = .json

    @Flag(name: .long, help: "Print the report as JSON (schema in docs/pins.md) instead of text.")
    var json = false

    @OptionGroup var scan: ScanOptions

    func validate() throws {
        do { _ = try Target(parsing: target) } catch let error as TargetError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let parsed = try Target(parsing: target)
        let settings = try scan.settings()
        let profile = await ScanPipeline(settings: settings).probe([parsed]).first
        guard let profile, profile.status == .completed, let chain = profile.certificate?.chain, !chain.isEmpty else {
            Terminal.fail(
                "\(parsed.hostPort): could not read the certificate chain "
                    + "(\(profile?.error ?? profile?.status.rawValue ?? "not scanned"))"
            )
            throw ExitCode(ExitStatus.incomplete.rawValue)
        }
        var report: PinExtractReport
        do {
            report = try PinExtractor.extract(
                target: profile.target, host: profile.host, served: chain, format: format, caFiles: settings.caFiles,
                source: settings.trustSource, fetched: profile.certificate?.fetchedIssuerCertificates ?? [])
        } catch {
            Terminal.fail("\(parsed.hostPort): \(error)")
            throw ExitCode(ExitStatus.incomplete.rawValue)
        }
        if let out {
            report.written = try await Terminal.exitingOnFileErrors { try PinExtractor.write(report.material, to: out) }
        }
        let color = !json && Terminal.stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        try OutputOptions.emit(PinExtractDocument(report: report), as: json ? .json : .text, color: color)
    }
}
