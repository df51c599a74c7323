import Foundation
import TLSTestSupport
import Testing

/// Help that renders cleanly, colour rules, shell completion and escaped stderr (issue 11).
@Suite("atscheck help and terminal (CLI)", .serialized)
struct TerminalTests {
    /// Every command path: the root, its subcommands, and theirs.
    static func commandPaths() throws -> [[String]] {
        var paths: [[String]] = [[]]
        var index = 0
        while index < paths.count, paths.count < 50 {
            let help = try CLI.run(paths[index] + ["--help"]).stdout
            if let section = help.range(of: "SUBCOMMANDS:\n") {
                // The section ends at its first blank line; each entry starts with two spaces and a lower-case name.
                for line in help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
                    guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                        name.allSatisfy({ $0.isLowercase || $0 == "-" }), name != "help"
                    else { continue }
                    paths.append(paths[index] + [String(name)])
                }
            }
            index += 1
        }
        return paths
    }

    /// What is wrong with a help text: stray backslashes, lines over 100 columns, words broken across lines,
    /// sentences said twice.
    static func problems(in text: String) -> [String] {
        var problems: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (number, line) in lines.enumerated() {
            if line.contains("\\") { problems.append("backslash on line \(number + 1): \(line)") }
            if line.count > 100 { problems.append("line \(number + 1) is \(line.count) columns") }
            // ArgumentParser wraps at 80 columns in a pipe; a full line ending in a letter followed by a line
            // starting with one is a word broken in two.
            if line.count >= 80, let last = line.last, last.isLetter, number + 1 < lines.count,
                let next = lines[number + 1].drop(while: { $0 == " " }).first, next.isLowercase
            {
                problems.append("word broken after line \(number + 1): \(line)")
            }
        }
        let flat = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        let sentences = flat.components(separatedBy: ". ").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.count > 25
        }
        var seen: Set<String> = []
        for sentence in sentences where !seen.insert(sentence).inserted { problems.append("said twice: \(sentence)") }
        return problems
    }

    @Test("every command's help, as `help X` and `X --help`, has no stray backslash, broken word or repeated sentence")
    func helpRendersCleanly() async throws {
        let paths = try Self.commandPaths()
        #expect(
            paths.contains(["audit"]) && paths.contains(["scan"]) && paths.contains(["plist"])
                && paths.contains(["diagnose"]))
        for path in paths {
            for args in [["help"] + path, path + ["--help"]] {
                let result = try await CLI.offPool { try CLI.run(args) }
                #expect(result.status == 0, "\(args)")
                #expect(result.stdout.contains("USAGE:"), "\(args)")
                let found = Self.problems(in: result.stdout)
                #expect(found.isEmpty, "\(args.joined(separator: " ")): \(found)")
            }
        }
        // The checker itself catches what it is meant to.
        #expect(!Self.problems(in: "A line that ends with a backslash \\\nnext").isEmpty)
        #expect(!Self.problems(in: "Say it once. Say it twice over and over. Say it twice over and over. End").isEmpty)
    }

    @Test("help of every rendering command lists --report, the github format and text as the default")
    func helpMentionsReports() throws {
        for command in ["scan", "diagnose", "plist", "audit"] {
            let help = try CLI.run([command, "--help"]).stdout
            #expect(help.contains("--report <format=path>"), "\(command)")
            #expect(help.contains("github"), "\(command)")
            #expect(help.contains("Default: text"), "\(command)")
            #expect(help.contains("--fail-on"), "\(command)")
        }
    }

    /// Runs the binary on a pseudo-terminal (util-linux `script`), so that stdout is a TTY.
    static func onTerminal(_ arguments: [String], environment: [String: String]) throws -> String {
        let command = ([CLI.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(
        "colour on a terminal, but not with TERM=dumb or NO_COLOR",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colourRules() throws {
        let plist = try CLI.temporaryFile(
            "<plist><dict><key>NSAppTransportSecurity</key><dict><key>NSAllowArbitraryLoads</key><true/></dict></dict></plist>",
            suffix: ".plist")
        let coloured = try Self.onTerminal(["plist", plist], environment: ["TERM": "xterm"])
        #expect(coloured.contains("\u{1B}["), "the test can see colour: \(coloured.prefix(200))")
        let dumb = try Self.onTerminal(["plist", plist], environment: ["TERM": "dumb"])
        #expect(dumb.contains("NSAllowArbitraryLoads"))
        #expect(!dumb.contains("\u{1B}["))
        let noColor = try Self.onTerminal(["plist", plist], environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(!noColor.contains("\u{1B}["))
    }

    @Test(
        "shell completion scripts generate for bash, zsh and fish and know the new options",
        arguments: ["bash", "zsh", "fish"])
    func completion(_ shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        #expect(result.stdout.contains("atscheck"))
        #expect(
            result.stdout.contains("report") && result.stdout.contains("fail-on") && result.stdout.contains("targets"))
    }

    @Test("control characters in file names are escaped on stderr")
    func stderrEscaped() throws {
        let path = TestScratch.file("atscheck-\u{1B}[31mred", suffix: ".plist")
        try "<plist><dict><key>x</key></plist>".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["plist", path])
        #expect(result.status == 65)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains("\\u{1B}[31mred-"))
    }

    @Test("messages do not repeat themselves: an unreachable target is named once in the exit reason")
    func noRepetition() throws {
        let result = try CLI.run(["scan", "127.0.0.1:1", "--timeout", "0.5"])
        #expect(result.status == 2)
        #expect(!result.stderr.contains("127.0.0.1:1: connect to 127.0.0.1:1"), "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:1"))
    }
}
