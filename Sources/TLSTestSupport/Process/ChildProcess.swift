import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process a test fixture owns: started with `posix_spawn`, stopped and reaped by ``stop()`` or at deinit.
///
/// Not Foundation's `Process`: on Linux it starts the child with the blocked-signal mask of the thread that spawns
/// it. A test thread blocks most signals, so an `openssl s_server` started that way ignored SIGTERM and outlived the
/// test run (issue 33). Here the child starts with an empty signal mask and every signal at its default action, its
/// standard input is `/dev/null`, and its output goes to `/dev/null` or to a pipe of its own.
///
/// > Warning: Starts a process that runs until ``stop()``, deinit, or its own exit.
package final class ChildProcess: @unchecked Sendable {  // the exit status is behind `Locked`
    /// Where a child's standard output or standard error goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case discard
        /// A pipe whose read end is ``standardOutput`` or ``standardError``.
        case pipe
    }

    /// The child's process id.
    package let pid: pid_t
    /// The read end of the child's standard output, when it was asked for as a pipe.
    package let standardOutput: FileHandle?
    /// The read end of the child's standard error, when it was asked for as a pipe.
    package let standardError: FileHandle?
    /// The raw `waitpid` status, once the child has been reaped.
    private let reaped = Locked<Int32?>(nil)

    /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`.
    /// - Parameters:
    ///   - executable: the program; without a `/` it is looked up on `PATH`.
    ///   - arguments: its arguments, without the program name.
    ///   - environment: variables set or replaced in the child's environment (the rest is inherited).
    ///   - standardOutput: where its standard output goes.
    ///   - standardError: where its standard error goes.
    /// - Throws: ``TestSupportError`` when the process cannot be started.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        standardOutput: Output = .discard, standardError: Output = .discard
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var readEnds: [FileHandle?] = []
        for (output, target) in [(standardOutput, Int32(1)), (standardError, Int32(2))] {
            switch output {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
                readEnds.append(nil)
            case .pipe:
                var fds: [Int32] = [-1, -1]
                guard pipe(&fds) == 0 else {
                    for fd in parentEnds { close(fd) }
                    throw TestSupportError(.process, "pipe failed: errno \(errno)")
                }
                // Neither end leaks into other children (the child gets its copy through dup2, which clears it).
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                parentEnds.append(fds[0])
                childEnds.append(fds[1])
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
                readEnds.append(FileHandle(fileDescriptor: fds[0], closeOnDealloc: true))
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let argv = Self.cStrings([executable] + arguments)
        let envp = Self.cStrings(variables.map { "\($0.key)=\($0.value)" })
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let status = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            for handle in readEnds { try? handle?.close() }
            throw TestSupportError(.process, "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        self.standardOutput = readEnds[0]
        self.standardError = readEnds[1]
    }

    deinit { stop() }

    /// Whether the child has not exited yet (reaps it when it has).
    package var isRunning: Bool { poll() == nil }

    /// The child's exit status (or 128 + the signal that ended it), nil while it runs.
    package var exitStatus: Int32? { poll().map(Self.decode) }

    /// Waits until the child exits on its own and reaps it.
    /// - Returns: its exit status, or 128 + the signal that ended it.
    @discardableResult
    package func waitForExit() -> Int32 {
        while true {
            if let status = poll() { return Self.decode(status) }
            usleep(5_000)
        }
    }

    /// Stops the child and reaps it (idempotent): SIGTERM, then SIGKILL when it is still running after `grace`.
    /// - Parameter grace: seconds the child has to exit after SIGTERM.
    package func stop(grace: Double = 1) {
        guard poll() == nil else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while poll() == nil, Date() < deadline { usleep(5_000) }
        if poll() == nil { kill(pid, SIGKILL) }
        waitForExit()
    }

    /// Reaps the child if it has exited; its raw status, or nil while it runs. The lock keeps two callers from
    /// both reaping (the second would get ECHILD, or another child's pid recycled into this one).
    private func poll() -> Int32? {
        reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                reaped = status
            } else if result < 0, errno == ECHILD {
                reaped = 255 << 8  // reaped elsewhere: gone, status unknown
            }
            return reaped
        }
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] {
        strings.map { strdup($0) } + [nil]
    }
}
