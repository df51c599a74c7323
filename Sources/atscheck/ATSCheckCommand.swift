import ATSCheckKit
import ArgumentParser
import Foundation
import Judging
import TLSModel

@main
struct ATSCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atscheck",
        abstract: "Will your iOS/macOS app be allowed to talk to its servers? App Transport Security checks on Linux.",
        discussion: """
            Probes endpoints through OpenSSL (every TLS version, cipher suite and certificate fact) and judges \
            them against Apple's App Transport Security and system trust rules, validates Info.plist \
            NSAppTransportSecurity dictionaries, and reproduces nscurl --ats-diagnostics headless.

            Exit status: \(ExitStatus.summary).
            """,
        version: VersionReport.text,
        subcommands: [
            ScanCommand.self, DiagnoseCommand.self, PlistCommand.self, AuditCommand.self, MergeCommand.self,
            PinsCommand.self, AppCommand.self, CertCommand.self, RulesCommand.self, RootsCommand.self,
            DataCommand.self,
        ]
    )

    /// Keeps OpenSSL from registering its at-exit cleanup before anything can touch OpenSSL, then runs.
    static func main() async {
        ATSCheckRuntime.prepare()
        await main(nil)
    }
}
