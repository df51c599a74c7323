import ATSPolicy
import Foundation
import Testing

/// `--os-version` and `--client` are typed options: a value atscheck does not know is a usage error
/// (exit 64) whose message lists the values it does know.
@Suite("atscheck --os-version and --client (CLI)")
struct PolicyOptionsTests {
    static let knownOSVersions = [
        "9", "10", "11", "12", "12.1", "12.2", "13", "14", "15", "15.4", "16", "17", "18", "26", "26.4",
    ]

    @Test(
        "an unknown --os-version is a usage error listing every known release",
        arguments: [
            ["scan", "example.com", "--os-version", "9.x"],
            ["diagnose", "https://example.com/", "--os-version", "9.x"],
            ["plist", "Info.plist", "--os-version", "9.x"],
            ["plist", "Info.plist", "--os-version", "19"],
        ])
    func unknownOSVersion(_ args: [String]) throws {
        let result = try CLI.run(args)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("'\(args.last!)' is invalid for '--os-version"))
        for version in Self.knownOSVersions {
            #expect(result.stderr.contains("- \(version)\n"), "missing \(version) in: \(result.stderr)")
        }
    }

    @Test(
        "an unknown --client is a usage error listing the five clients",
        arguments: [
            ["scan", "example.com", "--client", "bogus"],
            ["diagnose", "https://example.com/", "--client", "URLSession"],
        ])
    func unknownClient(_ args: [String]) throws {
        let result = try CLI.run(args)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("'\(args.last!)' is invalid for '--client"))
        for client in ["urlSession", "wkWebView", "media", "uiWebView", "system-services"] {
            #expect(result.stderr.contains("'\(client)'"), "missing \(client) in: \(result.stderr)")
        }
    }

    @Test("help shows the default OS release and the CLI spelling of the default client")
    func helpDefaults() throws {
        let result = try CLI.run(["scan", "--help"])
        #expect(result.status == 0)
        let help = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        #expect(help.contains("default: \(AppleOSVersion.newest)"))  // the newest era of the table, e.g. 26.4
        #expect(help.contains("Client class (default: urlSession)"))
    }
}
