import Foundation

/// An independent CONNECT proxy: Debian's `tinyproxy` (package `tinyproxy-bin`) on 127.0.0.1 with Basic credentials
/// `ci` / `hunter2`, logging every request. It resolves names itself, checks credentials its own way, forwards plain
/// requests in absolute form and tunnels CONNECT. Gate tests on ``binary`` (nil when it is not installed).
///
/// > Warning: Starts a tinyproxy process until deinit, which stops it and removes its configuration and log.
package final class Tinyproxy {
    /// Where Debian installs tinyproxy, if it is installed.
    package static let binary = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let process: ChildProcess
    /// The port it listens on.
    package let port: Int
    private let log: String
    /// Its configuration and log.
    private let folder: TemporaryFolder

    /// Starts tinyproxy and waits (at most 10 s) until it accepts connections.
    /// - Throws: ``TestSupportError`` when it is not installed, exits, or never listens.
    package init() throws {
        guard let binary = Self.binary else { throw TestSupportError(.socket, "tinyproxy is not installed") }
        folder = try TemporaryFolder("atscheck-tinyproxy")
        log = folder.file("tinyproxy.log")
        // tinyproxy takes a fixed port: a free one, just released by a bound socket that never listened.
        port = try ClosedPort().port
        let text = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            MaxClients 100
            Allow 127.0.0.1
            LogLevel Connect
            LogFile "\(log)"
            BasicAuth ci hunter2
            """
        let config = try folder.write(text, to: "tinyproxy.conf")
        process = try ChildProcess(binary, ["-d", "-c", config])
        do { try waitForListener() } catch {
            process.stop()
            throw error
        }
    }

    deinit {
        process.stop()
        folder.remove()
    }

    /// `http://ci:hunter2@127.0.0.1:PORT`.
    package var url: String { "http://ci:hunter2@127.0.0.1:\(port)" }

    /// The CONNECT requests tinyproxy logged for `authority`.
    package func requests(for authority: String) -> Int {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\n").filter { $0.hasSuffix("CONNECT \(authority) HTTP/1.1") }.count
    }

    /// Waits (at most 10 s) until the port accepts a connection.
    private func waitForListener() throws {
        for _ in 0..<200 {
            guard process.isRunning else {
                throw TestSupportError(.process, "tinyproxy exited with status \(process.exitStatus ?? -1)")
            }
            if Self.accepts(port) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSupportError(.socket, "tinyproxy did not listen on port \(port)")
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
