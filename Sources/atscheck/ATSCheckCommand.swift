import ATSCheckKit
import ArgumentParser
import Foundation
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

            Exit status: 0 everything evaluated passes; 1 at least one policy failure; 2 no policy failure \
            but an endpoint could not be scanned; 64 usage error; 65 an input file is unreadable or malformed.
            """,
        version: ToolInfo.currentVersion,
        subcommands: [
            ScanCommand.self, DiagnoseCommand.self, PlistCommand.self, AuditCommand.self, MergeCommand.self,
            PinsCommand.self, AppCommand.self, CertCommand.self, RulesCommand.self, RootsCommand.self,
        ]
    )

    /// Keeps OpenSSL from registering its at-exit cleanup before anything can touch OpenSSL, then runs.
    static func main() async {
        ATSCheckRuntime.prepare()
        await main(nil)
    }
}
