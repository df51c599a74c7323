import Foundation
import Synchronization
import TLSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 25, rows 8, 9, 10, 12, 13 and 14: hostile endpoint lists, input files that are not regular files, merge
/// inputs and `--shard` values, through the built binary. Each ends with exit 65 (64 for a bad `--shard`) and one line
/// naming the file, never a signal or a hang. "No hang" is held by a kill timeout on the child, never by a time
/// assertion: a child that has to be killed fails the test.
@Suite("Hostile lists, FIFOs, merge inputs and --shard values (CLI)", .serialized)
struct HostileMergeInputTests {
    /// Runs the binary; kills it (SIGKILL) if it still runs after `seconds`.
    static func run(_ arguments: [String], stdin: String? = nil, killAfter seconds: Double = 120) throws -> (
        result: CLI.Result, killed: Bool
    ) {
        let killed = Mutex(false)
        let result = try CLI.run(arguments, stdin: stdin) { pid in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if !isRunning(pid) { return }
                usleep(20_000)
            }
            killed.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        return (result, killed.withLock { $0 })
    }

    /// Whether the process runs (not yet exited: a zombie or a reaped process does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"), stat.distance(from: close, to: stat.endIndex) > 2
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    /// Asserts the input contract: exit 65, not killed, exactly one line on stderr that starts `atscheck: PREFIX` and
    /// holds every piece of `holding`.
    static func expectRefused(
        _ run: (result: CLI.Result, killed: Bool), prefix: String, holding: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!run.killed, "killed after the timeout: it hung", sourceLocation: sourceLocation)
        #expect(run.result.status == 65, "\(run.result.status): \(run.result.stderr)", sourceLocation: sourceLocation)
        let lines = run.result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.result.stderr)", sourceLocation: sourceLocation)
        #expect(
            run.result.stderr.hasPrefix("atscheck: \(prefix)"), "\(run.result.stderr)", sourceLocation: sourceLocation)
        for piece in holding {
            #expect(
                run.result.stderr.contains(piece), "no '\(piece)' in \(run.result.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(run.result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    static func directory() throws -> String {
        let path = TestScratch.file("atscheck-hostile")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func fifo(_ path: String) throws -> String {
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    static let plist = "<plist><dict><key>NSAppTransportSecurity</key><dict/></dict></plist>\n"

    // MARK: Row 9: a FIFO with no writer, a device

    /// (name, arguments with FIFO for the FIFO's path, the FIFO's file name)
    static let fifoCases: [(String, [String], String)] = [
        ("merge", ["merge", "FIFO"], "shard.json"),
        ("pins check --pins (certificate)", ["pins", "check", "127.0.0.1:1", "--pins", "FIFO"], "pin.pem"),
        ("pins check --pins (pin set)", ["pins", "check", "127.0.0.1:1", "--pins", "FIFO"], "pins.json"),
        ("pins check --pins (Info.plist)", ["pins", "check", "127.0.0.1:1", "--pins", "FIFO"], "Info.plist"),
        ("scan --targets", ["scan", "--targets", "FIFO"], "endpoints.txt"),
        ("scan --targets (YAML)", ["scan", "--targets", "FIFO"], "endpoints.yml"),
        ("audit --endpoints", ["audit", "--plist", "PLIST", "--endpoints", "FIFO"], "endpoints"),
        ("audit --plist", ["audit", "--plist", "FIFO", "--endpoints", "EMPTY"], "Info.plist"),
        ("audit --baseline", ["audit", "--plist", "PLIST", "--endpoints", "EMPTY", "--baseline", "FIFO"], "base.yml"),
        ("plist", ["plist", "FIFO"], "Info.plist"),
        ("scan --plist", ["scan", "127.0.0.1:1", "--plist", "FIFO"], "Info.plist"),
        ("scan --ca-file", ["scan", "127.0.0.1:1", "--ca-file", "FIFO"], "ca.pem"),
        ("scan --trust-store FILE", ["scan", "127.0.0.1:1", "--trust-store", "FIFO"], "roots.pem"),
        ("scan --ct-log-list", ["scan", "127.0.0.1:1", "--ct-log-list", "FIFO"], "log_list.json"),
        ("scan --profile", ["scan", "--profile", "FIFO"], "saved.json"),
        ("cert (chain file)", ["cert", "FIFO"], "chain.pem"),
    ]

    @Test("a FIFO with no writer is refused at once: exit 65, one line naming it", arguments: fifoCases)
    func fifoRefused(_ name: String, _ arguments: [String], _ fileName: String) throws {
        let directory = try Self.directory()
        let fifo = try Self.fifo(directory + "/" + fileName)
        try Self.plist.write(toFile: directory + "/ok.plist", atomically: true, encoding: .utf8)
        try "# nothing\n".write(toFile: directory + "/empty.txt", atomically: true, encoding: .utf8)
        let filled = arguments.map {
            $0 == "FIFO"
                ? fifo : $0 == "PLIST" ? directory + "/ok.plist" : $0 == "EMPTY" ? directory + "/empty.txt" : $0
        }
        let run = try Self.run(filled, killAfter: 60)
        Self.expectRefused(run, prefix: fifo, holding: ["FIFO (named pipe), not a regular file"])
    }

    @Test("a device as an endpoint list or a shard is refused, not read (it never ends)")
    func deviceRefused() throws {
        for arguments in [["scan", "--targets", "/dev/zero"], ["merge", "/dev/zero"], ["plist", "/dev/zero"]] {
            Self.expectRefused(
                try Self.run(arguments, killAfter: 60), prefix: "/dev/zero: a character device, not a regular file")
        }
    }

    @Test("merge of audit shards whose recorded endpoint list is now a FIFO: exit 65 naming it, no hang")
    func auditInputBecameFIFO() throws {
        let directory = try Self.directory()
        let list = directory + "/endpoints.txt"
        let plist = directory + "/Info.plist"
        try "http://a.test/\nhttp://b.test/\n".write(toFile: list, atomically: true, encoding: .utf8)
        try Self.plist.write(toFile: plist, atomically: true, encoding: .utf8)
        let shard = directory + "/audit-1.json"
        let audit = try Self.run(
            ["audit", "--plist", plist, "--endpoints", list, "--shard", "1/1", "--format", "json", "--output", shard])
        #expect([0, 1].contains(audit.result.status), "\(audit.result.stderr)")
        try FileManager.default.removeItem(atPath: list)
        _ = try Self.fifo(list)
        Self.expectRefused(
            try Self.run(["merge", shard], killAfter: 60), prefix: list,
            holding: ["FIFO (named pipe), not a regular file"])
    }

    // MARK: Row 8: endpoint lines longer than 2,048 bytes

    @Test("a 64 KB line and a 1 MB line in --targets: FILE:LINE, exit 65, before any scan")
    func longLines() throws {
        let directory = try Self.directory()
        for (size, line) in [(1 << 16, 2), (1 << 20, 3)] {
            let list = directory + "/long-\(size).txt"
            let text =
                "http://a.test/\n" + String(repeating: "#\n", count: line - 2) + String(repeating: "a", count: size)
            try (text + "\n").write(toFile: list, atomically: true, encoding: .utf8)
            Self.expectRefused(
                try Self.run(["scan", "--targets", list]), prefix: "\(list):\(line): longer than 2048 bytes",
                holding: ["the limit for one endpoint"])
            let plist = directory + "/Info.plist"
            try Self.plist.write(toFile: plist, atomically: true, encoding: .utf8)
            Self.expectRefused(
                try Self.run(["audit", "--plist", plist, "--endpoints", list]),
                prefix: "\(list):\(line): longer than 2048 bytes")
        }
    }

    @Test("2,048 bytes is a line (a bad target, reported as a finding); 2,049 is refused with its line")
    func lineLimitBoundary() throws {
        let directory = try Self.directory()
        // Two words: an endpoints.invalid finding (exit 1), never a connection.
        let at = directory + "/at.txt"
        try ("http://a.test/\n" + String(repeating: "b", count: 2046) + " x\n").write(
            toFile: at, atomically: true, encoding: .utf8)
        let accepted = try Self.run(["scan", "--targets", at, "--format", "json"])
        #expect(accepted.result.status == 1, "\(accepted.result.stderr)")
        let findings = (accepted.result.json as? [String: Any])?["findings"] as? [[String: Any]]
        #expect(findings?.contains { $0["rule"] as? String == "endpoints.invalid" && $0["line"] as? Int == 2 } == true)
        let over = directory + "/over.txt"
        try ("http://a.test/\n\n" + String(repeating: "b", count: 2047) + " x\n").write(
            toFile: over, atomically: true, encoding: .utf8)
        Self.expectRefused(try Self.run(["scan", "--targets", over]), prefix: "\(over):3: longer than 2048 bytes")
        // Lines ending in \r alone are lines too: a short line after a long \r-ended one keeps its number.
        let carriage = directory + "/carriage.txt"
        try ("http://a.test/\r" + String(repeating: "c", count: 3000) + "\r").write(
            toFile: carriage, atomically: true, encoding: .utf8)
        Self.expectRefused(try Self.run(["scan", "--targets", carriage]), prefix: "\(carriage):2: longer than 2048")
    }

    @Test("a long URL in a YAML or JSON list, and a long line on standard input: FILE:LINE, exit 65")
    func longTargetsElsewhere() throws {
        let directory = try Self.directory()
        let long = "https://" + String(repeating: "d", count: 3000) + ".test/"
        let yaml = directory + "/list.yml"
        try "endpoints:\n  - http://a.test/\n  - url: \(long)\n".write(toFile: yaml, atomically: true, encoding: .utf8)
        Self.expectRefused(try Self.run(["scan", "--targets", yaml]), prefix: "\(yaml):3: longer than 2048 bytes")
        let json = directory + "/list.json"
        try "{\"endpoints\": [\n\"http://a.test/\",\n\"\(long)\"]}\n".write(
            toFile: json, atomically: true, encoding: .utf8)
        Self.expectRefused(try Self.run(["scan", "--targets", json]), prefix: "\(json):3: longer than 2048 bytes")
        Self.expectRefused(
            try Self.run(["scan", "-"], stdin: "http://a.test/\n\(long)\n"), prefix: "(stdin):2: longer than 2048 bytes"
        )
    }

    @Test("a 1 MB target in a report's endpoint (error holds the host, not the port): the exit reason in linear time")
    func longTargetExitReason() throws {
        // A real report of an endpoint that could not be scanned (a refused loopback port), its names made 1 MB long.
        let directory = try Self.directory()
        let path = directory + "/refused.json"
        let scan = try Self.run(["scan", "127.0.0.1:1", "--timeout", "1", "--format", "json", "--output", path])
        #expect(scan.result.status == 2, "\(scan.result.stderr)")
        var report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var endpoints = try #require(report["endpoints"] as? [[String: Any]])
        let host = String(repeating: "a", count: 1 << 20)
        endpoints[0]["target"] = "\(host):443"
        endpoints[0]["host"] = host
        endpoints[0]["error"] = "cannot resolve \(host): Name or service not known"
        report["endpoints"] = endpoints
        let long = directory + "/long-target.json"
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: long))
        // Quadratic, this took hours (64 KB: 36–430 s); linear, a few seconds. The kill timeout is the assertion.
        let run = try Self.run(["merge", long, "--format", "json", "--output", long + ".out"], killAfter: 300)
        #expect(!run.killed, "killed after the timeout: the exit reason is not linear")
        #expect(run.result.status == 2, "\(run.result.stderr.prefix(300))")
        #expect(run.result.stderr.split(separator: "\n").count == 1)
        #expect(run.result.stderr.hasSuffix("\(host):443: cannot resolve \(host): Name or service not known)\n"))
    }

    // MARK: Row 12: a shard of the wrong shape

    /// Runs the binary under python3 and returns the child's peak resident set (KB) with the run.
    static func peakRSS(_ arguments: [String]) throws -> (kilobytes: Int, status: Int32, stderr: String) {
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
            sys.stderr.buffer.write(run.stderr)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, run.returncode)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, CLI.binary.path] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: outData, as: UTF8.self).split(separator: " ").map {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        return (fields.first ?? -1, Int32(fields.count > 1 ? fields[1] : -1), String(decoding: errData, as: UTF8.self))
    }

    /// (name, the file's text around 32 MB of `1,1,1,…`, the refusal after `FILE:LINE: `)
    static let wrongShapes: [(String, String, String, String)] = [
        ("a top-level array of numbers", "[", "1]", "the top level is an array, not a report object"),
        ("endpoints that are numbers", "{\"schemaVersion\": 1, \"endpoints\": [", "1]}", "'endpoints[0]' is a number"),
        ("an unknown key holding numbers", "{\"x\": [", "1]}", "no 'endpoints' key"),
        (
            "shard positions far more than the endpoints",
            "{\"schemaVersion\": 1, \"endpoints\": [], \"findings\": [], \"tool\": {\"name\": \"atscheck\", "
                + "\"version\": \"0.1.0\"}, \"summary\": {}, \"shard\": {\"index\": 1, \"count\": 2, \"total\": 9, "
                + "\"selected\": 0, \"positions\": [",
            "1]}}", "'shard' holds"
        ),
    ]

    @Test(
        "a 32 MB shard of the wrong shape is refused without mapping it: exit 65, peak memory ≤ 3× the file + 64 MB",
        arguments: wrongShapes)
    func wrongShape(_ name: String, _ head: String, _ tail: String, _ reason: String) throws {
        let path = try Self.directory() + "/numbers.json"
        let count = 16 << 20
        try (head + String(repeating: "1,", count: count) + tail).write(
            toFile: path, atomically: false, encoding: .utf8)
        let measured = try Self.peakRSS(["merge", path])
        #expect(measured.status == 65, "\(measured.stderr)")
        #expect(measured.stderr.hasPrefix("atscheck: \(path):1: not an atscheck scan or audit report"))
        #expect(measured.stderr.contains(reason), "\(measured.stderr)")
        #expect(measured.stderr.split(separator: "\n").count == 1)
        // JSONDecoder mapped the whole document first: about 24 bytes of memory per byte of such a file (800 MB).
        let fileKilobytes = (2 * count) / 1024
        #expect(
            measured.kilobytes > 0 && measured.kilobytes <= 3 * fileKilobytes + 64 * 1024, "\(measured.kilobytes) KB")
    }

    @Test("one endpoint object of more than 250,000 values is refused before it is decoded")
    func oversizedEndpoint() throws {
        let path = try Self.directory() + "/big-endpoint.json"
        let numbers = Array(repeating: "0", count: 300_000).joined(separator: ",")
        try "{\"schemaVersion\": 1, \"findings\": [], \"endpoints\": [\n{\"target\": \"a\", \"junk\": [\(numbers)]}]}"
            .write(toFile: path, atomically: true, encoding: .utf8)
        Self.expectRefused(
            try Self.run(["merge", path]), prefix: "\(path):2: not an atscheck scan or audit report",
            holding: ["'endpoints[0]' holds more than 250000 JSON values"])
    }

    @Test("malformed JSON in a shard: FILE:LINE: malformed JSON")
    func malformed() throws {
        let path = try Self.directory() + "/bad.json"
        try "{\"schemaVersion\": 1,\n\"endpoints\": [\n{\"a\": 1,}\n]}".write(
            toFile: path, atomically: true, encoding: .utf8)
        Self.expectRefused(try Self.run(["merge", path]), prefix: "\(path):3: malformed JSON: ")
    }

    // MARK: Rows 10 and 13: reports that do not belong together

    /// `scan --targets LIST [--shard I/N] --format json` of `http://` endpoints (judged without a connection).
    static func scanReport(_ list: String, shard: String?, to path: String) throws {
        let run = try Self.run(
            ["scan", "--targets", list, "--format", "json", "--output", path] + (shard.map { ["--shard", $0] } ?? []))
        #expect(run.result.status == 1, "\(run.result.stderr)")
    }

    static func list(_ directory: String, _ name: String = "endpoints.txt", hosts: Range<Int> = 0..<12) throws
        -> String
    {
        let path = directory + "/" + name
        try hosts.map { "http://h\($0).test/\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("the same whole report twice, or one file given twice: exit 65 naming both files (row 10)")
    func sameReportTwice() throws {
        let directory = try Self.directory()
        let list = try Self.list(directory)
        let report = directory + "/run.json"
        try Self.scanReport(list, shard: nil, to: report)
        let copy = directory + "/run-copy.json"
        try FileManager.default.copyItem(atPath: report, toPath: copy)
        Self.expectRefused(
            try Self.run(["merge", report, copy]), prefix: "cannot merge: \(report) and \(copy) are the same report")
        Self.expectRefused(try Self.run(["merge", report, report]), prefix: "cannot merge: \(report) is given twice")
        // Re-rendered (compact, other key order), it is still the same run.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
        let compact = directory + "/run-compact.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: compact))
        Self.expectRefused(try Self.run(["merge", compact, report]), prefix: "cannot merge: \(compact) and \(report)")
        // Two different whole runs are appended, as before.
        let other = directory + "/other.json"
        try Self.scanReport(try Self.list(directory, "other.txt", hosts: 20..<23), shard: nil, to: other)
        let both = try Self.run(["merge", report, other, "--format", "json"])
        #expect(both.result.status == 1, "\(both.result.stderr)")
        let endpoints = (both.result.json as? [String: Any])?["endpoints"] as? [[String: Any]]
        #expect(endpoints?.count == 15)
    }

    @Test(
        "merge refusals name the files: shard twice, shard missing, mixed splits, mixed with a whole report, versions")
    func refusalsNameFiles() throws {
        let directory = try Self.directory()
        let list = try Self.list(directory)
        let shards = (1...3).map { directory + "/shard-\($0)-of-3.json" }
        for (index, path) in shards.enumerated() { try Self.scanReport(list, shard: "\(index + 1)/3", to: path) }
        let half = directory + "/shard-1-of-2.json"
        try Self.scanReport(list, shard: "1/2", to: half)
        let whole = directory + "/whole.json"
        try Self.scanReport(list, shard: nil, to: whole)
        let copy = directory + "/shard-1-copy.json"
        try FileManager.default.copyItem(atPath: shards[0], toPath: copy)

        Self.expectRefused(
            try Self.run(["merge", shards[0], shards[1], copy, shards[2]]),
            prefix: "cannot merge: \(shards[0]) and \(copy) are both shard 1/3")
        Self.expectRefused(
            try Self.run(["merge", shards[2], shards[0]]),
            prefix: "cannot merge: shard 2/3 missing; given: \(shards[0]) (1/3), \(shards[2]) (3/3)")
        Self.expectRefused(
            try Self.run(["merge", shards[0], half]),
            prefix:
                "cannot merge: \(shards[0]) is shard 1/3 of a list of 12 endpoints but \(half) is shard 1/2 of a list "
                + "of 12 endpoints")
        Self.expectRefused(
            try Self.run(["merge", shards[0], whole]),
            prefix: "cannot merge: \(shards[0]) is shard 1/3 of a list of 12 endpoints but \(whole) is a whole report")

        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shards[1]))) as? [String: Any])
        object["tool"] = ["name": "atscheck", "version": "9.9.9"]
        let newer = directory + "/shard-2-newer.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: newer))
        Self.expectRefused(
            try Self.run(["merge", shards[0], newer, shards[2]]),
            prefix:
                "cannot merge: \(newer) was written by atscheck 9.9.9, report schema 1 but \(shards[0]) by atscheck "
                + "0.1.0, report schema 1")

        // A shard that claims an endpoint another shard reports.
        var stolen = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shards[2]))) as? [String: Any])
        let firstPositions = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shards[0]))) as? [String: Any])
                .flatMap { ($0["shard"] as? [String: Any])?["positions"] as? [Int] })
        var shard = try #require(stolen["shard"] as? [String: Any])
        var positions = try #require(shard["positions"] as? [Int])
        try #require(!positions.isEmpty && !firstPositions.isEmpty)
        positions[0] = firstPositions[0]
        shard["positions"] = positions
        stolen["shard"] = shard
        let thief = directory + "/shard-3-stolen.json"
        try JSONSerialization.data(withJSONObject: stolen).write(to: URL(fileURLWithPath: thief))
        Self.expectRefused(
            try Self.run(["merge", shards[0], shards[1], thief]),
            prefix: "cannot merge: \(shards[0]) and \(thief) both report endpoint \(firstPositions[0] + 1) of the list")
    }

    // MARK: Row 14: --shard in canonical form only

    static let nonCanonical = [
        "+1/2", " 1/2", "1/2 ", "01/2", "1/02", "1/+2", "1 /2", "1/2.0", "0x1/2", "١/٢", "1/2/3",
    ]

    @Test("--shard accepts only I/N in plain decimal: exit 64 for other spellings", arguments: nonCanonical)
    func shardSpelling(_ value: String) throws {
        for command in [["scan", "http://a.test/"], ["audit", "--plist", "x.plist", "--endpoints", "x.txt"]] {
            let run = try Self.run(command + ["--shard", value], killAfter: 60)
            #expect(run.result.status == 64, "\(value): \(run.result.status) \(run.result.stderr)")
            #expect(run.result.stderr.contains("invalid shard '\(value)': expected I/N in plain decimal"))
        }
        let plain = try Self.run(["scan", "http://a.test/", "--shard", "1/2"])
        #expect(plain.result.status != 64, "\(plain.result.stderr)")
    }
}
