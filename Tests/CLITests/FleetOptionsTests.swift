import Foundation
import Testing

/// The fleet options of the scanning commands: `--delay` and the default `--concurrency`.
@Suite("Fleet options (CLI)")
struct FleetOptionsTests {
    @Test("--delay out of range is a usage error naming the option", arguments: ["scan", "diagnose", "audit", "pins check"])
    func delayOutOfRange(command: String) async throws {
        var arguments = command.split(separator: " ").map(String.init)
        switch command {
        case "audit": arguments += ["--endpoints", try CLI.temporaryFile("localhost:1\n")]
        case "diagnose": arguments += ["https://localhost:1"]
        default: arguments += ["localhost:1"]
        }
        let finalArguments = arguments + ["--delay", "60001"]
        let result = try await CLI.offPool { try CLI.run(finalArguments) }
        #expect(result.status == 64)
        #expect(result.stderr.contains("--delay must be 0…60000 milliseconds"))
    }

    @Test("--delay is listed in the help of every scanning command", arguments: ["scan", "diagnose", "audit", "pins check"])
    func delayInHelp(command: String) async throws {
        let arguments = command.split(separator: " ").map(String.init) + ["--help"]
        let result = try await CLI.offPool { try CLI.run(arguments) }
        #expect(result.status == 0)
        #expect(result.stdout.contains("--delay <ms>"))
    }
}
