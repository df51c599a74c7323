import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Where Debian installs tinyproxy, if it is installed.
let tinyproxyBinary = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// An independent CONNECT proxy: Debian's `tinyproxy` (package `tinyproxy-bin`) on loopback, in front of an
/// in-process server. It resolves `localhost` itself and checks Basic credentials its own way. Skipped, with the
/// reason, when the binary is not installed.
@Suite(
    "Scans through tinyproxy",
    .enabled(
        if: tinyproxyBinary != nil,
        "tinyproxy is not installed (apt-get install tinyproxy-bin): the independent proxy check is skipped"))
struct TinyproxyTests {
    /// A tinyproxy on 127.0.0.1 with Basic credentials `ci` / `hunter2`, logging every request to `log`.
    final class Tinyproxy {
        let process = Process()
        let port: Int
        let log: String
        let config: String

        init() throws {
            let binary = try #require(tinyproxyBinary)
            let base = NSTemporaryDirectory() + "atscheck-tinyproxy-\(UUID().uuidString)"
            log = base + ".log"
            config = base + ".conf"
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
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["-d", "-c", config]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try waitForListener()
        }

        deinit {
            // SIGKILL to the one process this fixture started: the child inherits the test process's blocked
            // signals, so SIGTERM (`terminate()`) may never reach it.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            for path in [config, log] { try? FileManager.default.removeItem(atPath: path) }
        }

        var url: String { "http://ci:hunter2@127.0.0.1:\(port)" }

        /// The CONNECT requests tinyproxy logged for `authority`.
        func requests(for authority: String) -> Int {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.components(separatedBy: "\n").filter { $0.hasSuffix("CONNECT \(authority) HTTP/1.1") }.count
        }

        /// Waits (at most 10 s) until the port accepts a connection.
        private func waitForListener() throws {
            for _ in 0..<200 {
                guard process.isRunning else { throw TinyproxyError.exited(process.terminationStatus) }
                if Self.accepts(port) { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw TinyproxyError.notListening(port)
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

    enum TinyproxyError: Error {
        case exited(Int32)
        case notListening(Int)
    }

    static func request(_ server: TestTLSServer, proxy: String?) throws -> ProbeRequest {
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: proxy == nil ? server.host : nil,
            timeout: 5, deadline: 30, caFiles: [try ProbeFixtures.caFile()])
        request.proxy = try proxy.map { try HTTPProxy(parsing: $0) }
        return request
    }

    @Test("a full scan through tinyproxy equals the direct scan, and tinyproxy logged one CONNECT per handshake")
    func sameAsDirect() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let tinyproxy = try Tinyproxy()
        let prober = TLSProber(perHostLimit: 3)
        let direct = await prober.scan(try Self.request(server, proxy: nil))
        let tunnelled = await prober.scan(try Self.request(server, proxy: tinyproxy.url))
        try #require(tunnelled.status == .completed, "\(tunnelled.error ?? "")")
        #expect(PreconnectTests.answer(tunnelled) == PreconnectTests.answer(direct))
        #expect(tunnelled.certificate?.chain.map(\.sha256) == direct.certificate?.chain.map(\.sha256))
        #expect(tunnelled.certificate?.trusted == true && tunnelled.certificate?.hostnameMatches == true)
        #expect(tunnelled.proxy == "http://127.0.0.1:\(tinyproxy.port)")
        // tinyproxy writes its log as it goes: wait for the last line, then compare.
        let authority = "localhost:\(server.port)"
        for _ in 0..<100 where tinyproxy.requests(for: authority) < tunnelled.handshakes {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(tinyproxy.requests(for: authority) == tunnelled.handshakes)
    }

    @Test("tinyproxy's refusal of wrong credentials is the endpoint's error, with its status line")
    func wrongCredentials() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let tinyproxy = try Tinyproxy()
        let profile = await TLSProber(perHostLimit: 3).scan(
            try Self.request(server, proxy: "http://ci:wrong@127.0.0.1:\(tinyproxy.port)"))
        #expect(profile.status == .error)
        // tinyproxy answers 401 rather than 407; either is a refusal, reported as the proxy said it.
        let error = try #require(profile.error)
        #expect(
            error.hasPrefix("proxy 127.0.0.1:\(tinyproxy.port) refused CONNECT localhost:\(server.port): 40"),
            "\(error)")
        #expect(profile.protocols.allSatisfy { $0.supported == nil })
        #expect(profile.handshakes == 1 && server.acceptedConnections == 0)
    }
}
