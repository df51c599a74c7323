import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TLS server from a stack this project did not write (GnuTLS, lighttpd's modules, JSSE, Go, tlslite-ng), running
/// as a child process on a loopback port: the fixture of the independent-server matrix (issue 35).
///
/// Each stack has its own launcher (``GnuTLSServe``, ``LighttpdServer``, ``JSSEServer``, ``GoTLSServer``,
/// ``TLSLiteServer``) that writes the server's files into ``folder`` and calls ``launch(_:folder:command:)``.
///
/// > Warning: Starts a process that runs until ``stop()`` or deinit.
package final class IndependentServer: @unchecked Sendable {  // immutable after init; the process locks its own state
    /// Which stack and launcher, for messages (`gnutls-serv`, `lighttpd+mod_gnutls`).
    package let name: String
    /// The loopback port it accepts on (127.0.0.1).
    package let port: Int
    /// The running server.
    package let process: ChildProcess
    /// Its private folder (certificates, configuration, logs); removed with the server.
    package let folder: TemporaryFolder

    private init(name: String, port: Int, process: ChildProcess, folder: TemporaryFolder) {
        self.name = name
        self.port = port
        self.process = process
        self.folder = folder
    }

    deinit { stop() }

    /// Stops the server, reaps it and removes its folder (idempotent).
    package func stop() {
        process.stop()
        folder.remove()
    }

    /// What a launcher runs for one port: the program, its arguments, and variables added to its environment.
    package struct Command {
        package var executable: String
        package var arguments: [String]
        package var environment: [String: String]

        package init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
        }
    }

    /// Starts a server on a free loopback port and waits until it accepts a TCP connection; a server that exits or
    /// does not accept within `readiness` seconds is stopped and tried again on another port (twice more).
    /// - Parameters:
    ///   - name: the stack, for messages.
    ///   - folder: the server's private folder, kept and removed with it.
    ///   - readiness: how long a start may take (a JVM or a Python import takes a second or two).
    ///   - command: the command for a port (writing any per-port file into `folder`).
    /// - Returns: the running server.
    /// - Throws: ``TestSupportError`` `.process` with the server's last standard error when it never accepted.
    package static func launch(
        _ name: String, folder: TemporaryFolder, readiness: Double = 10, command: (_ port: Int) throws -> Command
    ) throws -> IndependentServer {
        var lastError = ""
        for _ in 0..<3 {
            let port = try freePort()
            let spec = try command(port)
            let log = folder.file("stderr-\(port).log")
            // The server's own output goes to a file (not a pipe nobody drains, which would block a chatty server).
            let process = try ChildProcess(
                "/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>\"\(log)\" >/dev/null", spec.executable] + spec.arguments,
                environment: spec.environment)
            let deadline = Date().addingTimeInterval(readiness)
            while process.isRunning, Date() < deadline {
                if accepts(port) {
                    return IndependentServer(name: name, port: port, process: process, folder: folder)
                }
                usleep(20_000)
            }
            process.stop()
            lastError = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        throw TestSupportError(.process, "\(name) did not accept on loopback: \(lastError.suffix(600))")
    }

    /// Whether `executable` is an executable file, or a name found on `PATH`.
    /// - Parameter executable: a path or a program name.
    /// - Returns: the path found, or nil.
    package static func which(_ executable: String) -> String? {
        if executable.contains("/") {
            return FileManager.default.isExecutableFile(atPath: executable) ? executable : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return directories.map { $0 + "/" + executable }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A loopback port free now (bound by the kernel, then released).
    static func freePort() throws -> Int {
        try LoopbackAddress("127.0.0.1").listen(backlog: 1).port
    }

    /// Whether something accepts TCP connections on `127.0.0.1:port` (the connection is closed at once).
    static func accepts(_ port: Int) -> Bool {
        guard let address = try? LoopbackAddress("127.0.0.1", port: port) else { return false }
        return (try? address.connect(timeout: 1)) != nil
    }
}
