import ATSCheckKit
import ArgumentParser
import Dispatch
import Foundation
import Judging
import Synchronization
import TLSModel

/// Ctrl-C (SIGINT) and SIGTERM during a scan: the scan's task is cancelled, so no endpoint starts after the signal
/// and those in flight get the grace (2 s) before they are abandoned (``BatchScanner`` in ATSCheckKit); the command
/// then writes the report of what completed, marked partial, and exits 130 (143 for SIGTERM) whatever the verdicts.
/// A second signal ends the process at once, without a report.
enum Interruption {
    /// The signals handled, with the exit status each leads to.
    static let handled: [(signal: Int32, name: String, status: ExitStatus)] = [
        (SIGINT, "SIGINT", .interrupted), (SIGTERM, "SIGTERM", .terminated),
    ]

    /// Runs `body` in a task that SIGINT and SIGTERM cancel.
    /// - Parameter body: the scan; it must return what completed when its task is cancelled.
    /// - Returns: what `body` returned, and the name of the signal that cancelled it (nil: it ran to its end).
    /// - Throws: what `body` throws.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> (
        value: T, signal: String?
    ) {
        let received = Mutex<String?>(nil)
        let task = Task { try await body() }
        // The default action would end the process before any report: ignore the signals, then watch them on a queue.
        let sources = handled.map { handled in
            signal(handled.signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: handled.signal, queue: .global())
            source.setEventHandler {
                let first = received.withLock { name in
                    defer { name = name ?? handled.name }
                    return name == nil
                }
                guard first else { _exit(Int32(handled.status.rawValue)) }
                Terminal.endProgress()
                Terminal.fail(
                    "interrupted (\(handled.name)): no new endpoint starts; those in flight have "
                        + "\(graceText) to finish, then the partial report is written (Ctrl-C again quits at once)")
                task.cancel()
            }
            source.resume()
            return source
        }
        defer {
            // Writing the report is not interruptible: a signal from here on ends the process as usual.
            for (source, handled) in zip(sources, handled) {
                source.cancel()
                signal(handled.signal, SIG_DFL)
            }
        }
        let value = try await task.value
        return (value, received.withLock { $0 })
    }

    /// The grace, as people read it: `2 s`.
    static var graceText: String {
        let grace = BatchScanner.defaultGrace.components
        return "\(grace.seconds) s"
    }

    /// Ends an interrupted run: its one line on stderr and its exit status, whatever the verdicts.
    /// - Parameters:
    ///   - signal: the signal's name (``run(_:)``).
    ///   - partial: the report's partial marker.
    /// - Throws: `ExitCode` 130 for SIGINT, 143 for SIGTERM.
    static func finish(signal: String, partial: PartialScan?) throws -> Never {
        let status = handled.first { $0.name == signal }?.status ?? .interrupted
        // No marker: the signal came as the scan ended, and the report written is whole.
        Terminal.close(
            partial.map { "partial report: \($0.summary)" } ?? "interrupted by \(signal) (the report is complete)")
        throw ExitCode(status.rawValue)
    }

    /// A value handed to the task that runs a command's scan: the command is a struct of parsed options that
    /// nothing mutates, and its caller waits for that task, so no two threads use it at once.
    struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
    }
}
