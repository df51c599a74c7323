import Foundation
import Testing

@testable import TLSTestSupport

/// The launcher shared by the independent servers (issue 35): up only once it accepts on loopback, a server that
/// dies at start reported with its own words, everything gone after stop, and a fixture built once per source.
@Suite("IndependentServer")
struct IndependentServerTests {
    /// A loopback listener in Python, standing in for a TLS server: listens on `127.0.0.1:PORT`, accepts for ever.
    static let listener =
        "import socket, sys; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(8)\nwhile True: s.accept()[0].close()"

    @Test(
        "a server is running once it accepts, and after stop it no longer accepts and its folder is gone",
        .enabled(if: IndependentServer.which("python3") != nil))
    func startAndStop() throws {
        let folder = try TemporaryFolder("atscheck-independent-test")
        let server = try IndependentServer.launch("listener", folder: folder) { port in
            IndependentServer.Command("python3", ["-c", Self.listener, "\(port)"])
        }
        #expect(server.process.isRunning)
        #expect(IndependentServer.accepts(server.port))
        server.stop()
        #expect(!server.process.isRunning)
        #expect(!IndependentServer.accepts(server.port))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("a server that exits before it accepts is an error that quotes its standard error")
    func exitsAtStart() throws {
        let folder = try TemporaryFolder("atscheck-independent-test")
        var attempts = 0
        do {
            _ = try IndependentServer.launch("broken", folder: folder, readiness: 2) { _ in
                attempts += 1
                return IndependentServer.Command("/bin/sh", ["-c", "echo 'no such cipher: FOO' >&2; exit 3"])
            }
            Issue.record("a server that exits at start was reported as running")
        } catch let error as TestSupportError {
            #expect(error.code == .process)
            #expect(error.reason.contains("no such cipher: FOO"), "\(error.reason)")
        }
        #expect(attempts == 3)
    }

    @Test("a fixture is built once per content of its sources, and again when a source changes")
    func cachedBuild() throws {
        let folder = try TemporaryFolder("atscheck-independent-build")
        let source = try folder.write("version 1\n", to: "server.src")
        let builds = folder.file("builds.log")
        func build() throws -> String {
            try IndependentServer.cachedBuild("test", sources: [source], product: "server", cache: folder.path) {
                output in
                IndependentServer.Command(
                    "/bin/sh", ["-c", "echo built >> \"$0\" && cp \"$1\" \"$2/server\"", builds, source, output])
            }
        }
        let first = try build()
        let second = try build()
        #expect(first == second)
        #expect(try String(contentsOfFile: builds, encoding: .utf8) == "built\n")
        #expect(try String(contentsOfFile: first + "/server", encoding: .utf8) == "version 1\n")

        try folder.write("version 2\n", to: "server.src")
        let third = try build()
        #expect(third != first)
        #expect(try String(contentsOfFile: builds, encoding: .utf8) == "built\nbuilt\n")
        #expect(try String(contentsOfFile: third + "/server", encoding: .utf8) == "version 2\n")
    }

    @Test("a failed build is an error with its output, and leaves nothing in the cache")
    func failedBuild() throws {
        let folder = try TemporaryFolder("atscheck-independent-build")
        let source = try folder.write("broken\n", to: "server.src")
        let error = #expect(throws: TestSupportError.self) {
            try IndependentServer.cachedBuild("test", sources: [source], product: "server", cache: folder.path) { _ in
                IndependentServer.Command("/bin/sh", ["-c", "echo 'syntax error' >&2; exit 1"])
            }
        }
        #expect(error?.code == .process)
        #expect(error?.reason.contains("syntax error") == true, "\(String(describing: error))")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("test-") }
        #expect(left.isEmpty, "\(left)")
    }
}
