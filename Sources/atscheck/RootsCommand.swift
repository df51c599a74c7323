import ATSCheckKit
import ATSPolicy
import ArgumentParser
import Foundation
import Reporting
import TLSModel

/// `atscheck roots`: the Apple trust stores atscheck judges with, and where they come from.
struct RootsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roots",
        abstract: "List the bundled Apple trust stores (one per iOS release) with their provenance.",
        discussion: """
            Trust is judged with Apple's published root store of the release being judged \
            (apple-oss-distributions/security_certificates; scripts/apple-trust/generate.py made the data), its \
            removed roots, the TLS restrictions of its revocation database and its CT log list. Without \
            --os-version: every store; with it: that release's store, its roots and what changed since the store \
            before it.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(
        name: .customLong("os-version"),
        help: ArgumentHelp("List the store of this iOS-family release (e.g. 17.4).", valueName: "version"))
    var osVersion: AppleOSVersion?

    @Option(name: .long, help: "Output format.")
    var format: Format = .text

    @Option(
        name: .customLong("apple-data"),
        help: ArgumentHelp(
            "The data folder `atscheck data update` wrote (default: $XDG_DATA_HOME/atscheck, else ~/.local/share/atscheck); none: the bundled data only.",
            valueName: "dir"))
    var appleData: String?

    func run() throws {
        let data = TrustInputs.bundled
        let release = osVersion.map { [$0.major, $0.minor] }
        // The updated list beside the bundled data: what runs judge with when it is there.
        let updated = try Terminal.exitingOnInputErrors { try TrustInputs.updatedLogList(folder: appleData) }
        switch format {
        case .text:
            print(
                TrustStoreListing.text(data, release: release, width: Terminal.width(), updated: updated),
                terminator: "")
        case .json: print(try TrustStoreListing.json(data, release: release, updated: updated), terminator: "")
        }
    }
}
