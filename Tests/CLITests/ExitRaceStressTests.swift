import Foundation
import TLSTestSupport
import Testing

/// The exit-time race (issue 8): `exit()` used to run OpenSSL's at-exit cleanup while an abandoned probe thread
/// was still inside libcrypto, so about one run in a few hundred died of SIGSEGV or "double free" after
/// printing its result. Runs the real binary many times against a refused and a stalling port and counts signals.
@Suite("atscheck exits cleanly under load (CLI stress)", .serialized)
struct ExitRaceStressTests {
    static let runs = 300
    static let parallel = 6

    struct Outcome: Sendable {
        var signal: Int32?
        var status: Int32
        var stderr: String
    }

    static func runOnce(_ arguments: [String]) -> Outcome {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Outcome(signal: nil, status: -1, stderr: "\(error)") }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let signalled = process.terminationReason == .uncaughtSignal
        return Outcome(
            signal: signalled ? process.terminationStatus : nil, status: signalled ? -1 : process.terminationStatus,
            stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test("300 scans of a refused and a stalling port end by exit 2, never by a signal")
    func noSignalAtExit() async throws {
        let refused = try ClosedPort()
        let stalling = try HostilePeer(.silent)
        defer { stalling.stop() }
        let arguments = [
            "scan", refused.target, stalling.target, "--timeout", "0.2", "--deadline", "0.3", "--format", "json",
        ]
        let outcomes = OutcomeBox<[Outcome]>([])
        try await CLI.offPool {
            DispatchQueue.concurrentPerform(iterations: Self.parallel) { worker in
                for _ in stride(from: worker, to: Self.runs, by: Self.parallel) {
                    let outcome = Self.runOnce(arguments)
                    outcomes.withLock { $0.append(outcome) }
                }
            }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == Self.runs)
        let signalled = all.filter { $0.signal != nil }
        #expect(
            signalled.isEmpty,
            "\(signalled.count) of \(all.count) runs ended by a signal: \(signalled.prefix(3).map { "signal \($0.signal!): \($0.stderr.suffix(300))" })"
        )
        let unexpected = all.filter { $0.signal == nil && $0.status != 2 }
        #expect(
            unexpected.isEmpty, "exit codes other than 2: \(unexpected.prefix(3).map { "\($0.status): \($0.stderr)" })")
        #expect(!all.contains { $0.stderr.localizedCaseInsensitiveContains("double free") })
    }
}

/// A lock-protected value for the worker threads above.
final class OutcomeBox<Value>: @unchecked Sendable {  // every access goes through the lock
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
