import Foundation
import Testing

/// Text fitted to the terminal (issue 24): `COLUMNS`, else the terminal's size, else 80; the closing stderr line
/// short.
@Suite("atscheck text width (CLI)", .serialized)
struct TerminalWidthTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// A plist whose `--explain` rows run to ~190 columns unwrapped.
    static let plist = root.appendingPathComponent("Examples/legacy-api-app/Info.plist").path

    /// Runs the binary with `COLUMNS` as given (nil: removed from the environment, whatever the test runner has).
    static func run(_ arguments: [String], columns: String?) throws -> CLI.Result {
        guard let columns else { return try CLI.run(arguments, unsetting: ["COLUMNS"]) }
        return try CLI.run(arguments, environment: ["COLUMNS": columns])
    }

    /// The widest line, in characters (ANSI escapes and carriage returns left out), not counting a single word
    /// wider than `limit` standing alone (the layout lets one pass).
    static func widest(_ text: String, limit: Int) -> Int {
        let plain = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
        return plain.split(separator: "\n").map { line in
            let words = line.split(separator: " ")
            return words.count == 1 && words[0].count > limit ? 0 : line.count
        }.max() ?? 0
    }

    @Test("off a terminal, text is fitted to 80 columns; COLUMNS=120 is honoured")
    func pipeAndColumns() throws {
        let piped = try Self.run(["plist", "--explain", Self.plist], columns: nil)
        #expect(piped.status == 0, "\(piped.stderr)")
        let unbounded = try Self.run(["plist", "--explain", Self.plist], columns: "100000")
        #expect(Self.widest(unbounded.stdout, limit: 100_000) > 120, "the rows are wide unwrapped")
        #expect(Self.widest(piped.stdout, limit: 80) <= 80)
        #expect(Self.widest(piped.stdout, limit: 80) > 70, "the width is used, not a narrower one")
        let wide = try Self.run(["plist", "--explain", Self.plist], columns: "120")
        #expect(Self.widest(wide.stdout, limit: 120) <= 120)
        #expect(Self.widest(wide.stdout, limit: 120) > 80)
        // Only the layout differs: the same words at every width.
        func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace).sorted() }
        #expect(words(piped.stdout) == words(unbounded.stdout))
        #expect(words(wide.stdout) == words(unbounded.stdout))
        // A COLUMNS that is not a positive number is ignored.
        #expect(try Self.run(["plist", "--explain", Self.plist], columns: "wide").stdout == piped.stdout)
        // JSON is not laid out.
        let json = try Self.run(["plist", "--explain", Self.plist, "--format", "json"], columns: "40")
        #expect(
            json.stdout == (try Self.run(["plist", "--explain", Self.plist, "--format", "json"], columns: nil)).stdout)
    }

    @Test(
        "on a terminal without COLUMNS, the terminal's width",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminalSize() throws {
        // `script` gives the command a pseudo-terminal; `stty` sets its size, which atscheck reads (TIOCGWINSZ).
        let command = "stty cols 100 rows 40; '\(CLI.binary.path)' plist --explain '\(Self.plist)'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = nil
        env["TERM"] = "xterm"
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("legacy-api.example.com"), "\(text.prefix(300))")
        #expect(Self.widest(text, limit: 100) <= 100)
        #expect(Self.widest(text, limit: 100) > 80, "the terminal's 100 columns are used, not 80")
    }

    @Test("a failing audit's closing line names the place and rule, not the plist XML; the report keeps the XML")
    func closingLine() throws {
        let plist = try CLI.temporaryFile(
            "<plist version=\"1.0\"><dict><key>NSAppTransportSecurity</key><dict/></dict></plist>", suffix: ".plist")
        let endpoints = try CLI.temporaryFile("http://cdn.width.atscheck.test/logo.png\n")
        let result = try Self.run(["audit", "--plist", plist, "--endpoints", endpoints], columns: nil)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line in a pipe: \(result.stderr)")
        #expect(result.stderr.contains("first: \(endpoints):1 [audit.endpoint.http]"), "\(result.stderr)")
        #expect(!result.stderr.contains("<key>"))
        // The details stay in the report body, fitted to 80 columns.
        #expect(result.stdout.contains("<key>cdn.width.atscheck.test</key>"))
        #expect(Self.widest(result.stdout, limit: 80) <= 80)
    }
}
