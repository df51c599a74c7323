import Foundation
import TLSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The fixtures' spawner (issue 33): a child starts with no blocked and no ignored signal whatever the spawning
/// thread blocks, SIGTERM stops it, and it is reaped.
@Suite("ChildProcess and TemporaryFolder")
struct ChildProcessTests {
    /// One line of the child's own `/proc/self/status`, read while the spawning thread blocks SIGTERM and SIGINT.
    static func statusLine(_ name: String) throws -> String {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let child = try ChildProcess("sh", ["-c", "grep '^\(name):' /proc/self/status"], standardOutput: .pipe)
        let output = child.standardOutput?.readDataToEndOfFile() ?? Data()
        #expect(child.waitForExit() == 0)
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the child blocks no signal and ignores no standard one, though the spawning thread blocks SIGTERM")
    func emptyMask() throws {
        let blocked = try Self.statusLine("SigBlk")
        #expect(blocked == "SigBlk:\t0000000000000000")
        // Signals 1–31 (bits 0–30) at their default action. glibc's posix_spawn leaves its two internal real-time signals (32,
        // 33: thread cancellation and setxid) ignored; a glibc program sets them up again at start.
        let ignored = try Self.statusLine("SigIgn")
        let mask = try #require(
            UInt64(ignored.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        #expect(mask & 0x7FFF_FFFF == 0, "\(ignored)")
    }

    @Test("stop ends the child by SIGTERM and reaps it; stop again does nothing")
    func stops() throws {
        let child = try ChildProcess("sleep", ["30"])
        #expect(child.isRunning)
        let started = Date()
        child.stop()
        #expect(Date().timeIntervalSince(started) < 1, "SIGTERM, not the SIGKILL after the grace period")
        #expect(!child.isRunning)
        #expect(child.exitStatus == 128 + SIGTERM)
        // Reaped: no zombie is left under the pid.
        #expect(kill(child.pid, 0) == -1 && errno == ESRCH)
        child.stop()
    }

    @Test("deinit stops and reaps a child nobody stopped")
    func deinitStops() throws {
        var child: ChildProcess? = try ChildProcess("sleep", ["30"])
        let pid = try #require(child?.pid)
        child = nil
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test("a program that cannot be found throws")
    func missing() {
        #expect(throws: TestSupportError.self) { try ChildProcess("/nonexistent/atscheck-no-such-program", []) }
    }

    @Test("a TemporaryFolder is made under TMPDIR and removed with its files at deinit")
    func folder() throws {
        var folder: TemporaryFolder? = try TemporaryFolder("atscheck-folder-test")
        let path = try #require(folder?.path)
        #expect(path.hasPrefix(NSTemporaryDirectory()))
        let file = try #require(try folder?.write("text", to: "a.txt"))
        #expect(FileManager.default.fileExists(atPath: file))
        folder = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
