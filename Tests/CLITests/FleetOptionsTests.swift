import Foundation
import TLSTestSupport
import Testing

/// The fleet options of the scanning commands: `--delay` and the default `--concurrency`.
@Suite("Fleet options (CLI)")
struct FleetOptionsTests {
    @Test(
        "--delay out of range is a usage error naming the option",
        arguments: ["scan", "diagnose", "audit", "pins check"])
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

    @Test(
        "--delay is listed in the help of every scanning command",
        arguments: ["scan", "diagnose", "audit", "pins check"])
    func delayInHelp(command: String) async throws {
        let arguments = command.split(separator: " ").map(String.init) + ["--help"]
        let result = try await CLI.offPool { try CLI.run(arguments) }
        #expect(result.status == 0)
        #expect(result.stdout.contains("--delay <ms>"))
        // Fleet default: many endpoints at once (I/O bound), chosen by Examples/scale.sh sweep.
        #expect(
            result.stdout.range(of: #"--concurrency <concurrency>[\s\S]*?\(default: 64\)"#, options: .regularExpression)
                != nil)
    }

    @Test("--format jsonl streams endpoints that were probed, not only http:// ones, one line each")
    func jsonLinesOfProbedEndpoints() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let list = try CLI.temporaryFile("https://localhost:\(server.port)\n\(server.target)\nhttp://plain.test/\n")
        let result = try await CLI.offPool { try CLI.run(["scan", "--targets", list, "--format", "jsonl"]) }
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 4)
        let targets = objects.compactMap { $0["target"] as? String }.sorted()
        #expect(targets == ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "plain.test:80"].sorted())
        #expect(objects.dropLast().filter { ($0["handshakes"] as? Int ?? 0) > 0 }.count == 2)
    }
}
