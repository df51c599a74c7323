import Foundation
import TLSTestSupport
import Testing

/// Ctrl-C during a scan (issue 34): the real binary, on a batch of loopback endpoints where two never answer, gets
/// SIGINT once the first results are in, writes the report of what completed marked partial, and exits 130.
@Suite("atscheck scan interrupted by Ctrl-C (CLI)", .serialized)
struct InterruptionTests {
    /// Reads `handle` until `lines` complete lines have arrived or it ends; everything read so far.
    static func read(_ handle: FileHandle, lines: Int, into buffer: inout Data) {
        while buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).count < lines {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            buffer.append(chunk)
        }
    }

    @Test("SIGINT after the first results: exit 130 within the grace, a JSON report marked partial, lines kept")
    func sigintWritesPartialReport() async throws {
        let leaf = try TestPKI.shared.leaf(.leaf("api.cli.atscheck.test"))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3, cipherList: "ECDHE-RSA-AES128-GCM-SHA256",
                chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        let refused = try ClosedPort()
        let never = try ClosedPort()
        let silent = [try HostilePeer(.silent), try HostilePeer(.silent)]
        defer { silent.forEach { $0.stop() } }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let reportPath = TestScratch.file("atscheck-interrupted", suffix: ".json")
        let host = "api.cli.atscheck.test"
        // Two at once: the server and the refused port finish, then the two silent peers hold both slots (a 30 s
        // timeout, far past the test), so the last target never starts.
        let targets = ["\(host):\(server.port)", refused.target, silent[0].target, silent[1].target, never.target]
        let child = try ChildProcess(
            CLI.binary.path,
            ["scan"] + targets + [
                "--resolve", "\(host):\(server.port):127.0.0.1", "--ca-file", ca, "--concurrency", "2",
                "--timeout", "30", "--deadline", "60", "--format", "jsonl", "--report", "json=\(reportPath)",
            ], environment: ["XDG_DATA_HOME": CLI.emptyDataHome], standardOutput: .pipe, standardError: .pipe)
        defer { child.stop() }
        let stdout = try #require(child.standardOutput)
        let stderr = try #require(child.standardError)

        let (lines, status, seconds, errors) = try await CLI.offPool { () -> ([String], Int32, Double, String) in
            var buffer = Data()
            Self.read(stdout, lines: 2, into: &buffer)
            // Both silent peers are connected: the endpoints in flight ignore the interruption until the grace.
            let connected = Date().addingTimeInterval(10)
            while silent.contains(where: { $0.acceptedConnections == 0 }) && Date() < connected { usleep(10_000) }
            let interrupted = Date()
            kill(child.pid, SIGINT)
            let status = child.waitForExit()
            let seconds = Date().timeIntervalSince(interrupted)
            buffer.append(stdout.readDataToEndOfFile())
            let errors = String(decoding: stderr.readDataToEndOfFile(), as: UTF8.self)
            let text = String(decoding: buffer, as: UTF8.self)
            return (text.split(separator: "\n").map(String.init), status, seconds, errors)
        }
        print("atscheck exited \(status) \(String(format: "%.2f", seconds)) s after SIGINT")

        // 130 is also what a process killed by SIGINT decodes to: the report and the closing line show it was handled.
        #expect(status == 130, "stderr: \(errors)")
        #expect(seconds < 10)
        #expect(errors.contains("partial report: interrupted by SIGINT; 3 endpoints not scanned"), "\(errors)")

        let data = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let partial = try #require(root["partial"] as? [String: Any], "\(root.keys)")
        #expect(partial["signal"] as? String == "SIGINT")
        #expect(partial["notScanned"] as? Int == 3)
        #expect(partial["graceSeconds"] as? Double == 2)
        let endpoints = try #require(root["endpoints"] as? [[String: Any]])
        #expect(endpoints.compactMap { $0["target"] as? String } == targets)
        #expect(
            endpoints.compactMap { $0["status"] as? String }
                == ["completed", "unreachable", "cancelled", "cancelled", "cancelled"])
        // The completed endpoint is whole: its versions and its verdict.
        let completed = endpoints[0]
        #expect((completed["ats"] as? [String: Any])?["verdict"] as? String == "pass")
        #expect((completed["protocols"] as? [[String: Any]])?.contains { $0["supported"] as? Bool == true } == true)
        // Cancelled endpoints claim nothing about the server.
        for endpoint in endpoints.suffix(3) {
            #expect((endpoint["protocols"] as? [Any])?.isEmpty == true)
            #expect((endpoint["ats"] as? [String: Any])?["verdict"] as? String == "unknown")
        }

        // JSON Lines: one line per endpoint (the streamed ones first), then the summary line, marked partial.
        #expect(lines.count == 6, "\(lines)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any])
        #expect((summary["partial"] as? [String: Any])?["notScanned"] as? Int == 3)
        #expect(lines.prefix(2).allSatisfy { !$0.contains("\"cancelled\"") })
    }

    @Test("SIGTERM during an audit: exit 143 and the audit's JSON marked partial, the stalled endpoint cancelled")
    func sigtermDuringAudit() async throws {
        let refused = try ClosedPort()
        let silent = try HostilePeer(.silent)
        defer { silent.stop() }
        let list = try CLI.temporaryFile("\(refused.target)\n\(silent.target)\n")
        let reportPath = TestScratch.file("atscheck-audit-interrupted", suffix: ".json")
        let child = try ChildProcess(
            CLI.binary.path,
            [
                "audit", "--endpoints", list, "--concurrency", "1", "--timeout", "30", "--deadline", "60",
                "--format", "json", "--output", reportPath,
            ], environment: ["XDG_DATA_HOME": CLI.emptyDataHome], standardError: .pipe)
        defer { child.stop() }
        let stderr = try #require(child.standardError)
        let (status, seconds, errors) = try await CLI.offPool { () -> (Int32, Double, String) in
            // The refused entry is done and the silent one connected: the batch is in flight.
            let connected = Date().addingTimeInterval(10)
            while silent.acceptedConnections == 0 && Date() < connected { usleep(10_000) }
            let interrupted = Date()
            kill(child.pid, SIGTERM)
            let status = child.waitForExit()
            let errors = String(decoding: stderr.readDataToEndOfFile(), as: UTF8.self)
            return (status, Date().timeIntervalSince(interrupted), errors)
        }
        print("atscheck audit exited \(status) \(String(format: "%.2f", seconds)) s after SIGTERM")
        #expect(status == 143, "stderr: \(errors)")
        #expect(seconds < 10)
        #expect(errors.contains("partial report: interrupted by SIGTERM; 1 endpoint not scanned"), "\(errors)")
        let data = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((root["partial"] as? [String: Any])?["signal"] as? String == "SIGTERM")
        let endpoints = try #require(root["endpoints"] as? [[String: Any]])
        #expect(endpoints.compactMap { $0["status"] as? String } == ["unreachable", "cancelled"])
        #expect(root["exceptionDebt"] != nil)
    }
}
