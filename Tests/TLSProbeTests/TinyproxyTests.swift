import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Where Debian installs tinyproxy, if it is installed.
let tinyproxyBinary = Tinyproxy.binary

/// An independent CONNECT proxy: Debian's `tinyproxy` (package `tinyproxy-bin`) on loopback, in front of an
/// in-process server. It resolves `localhost` itself and checks Basic credentials its own way. Skipped, with the
/// reason, when the binary is not installed.
@Suite(
    "Scans through tinyproxy",
    .enabled(
        if: tinyproxyBinary != nil,
        "tinyproxy is not installed (apt-get install tinyproxy-bin): the independent proxy check is skipped"))
struct TinyproxyTests {
    /// The fixture (TLSTestSupport's): tinyproxy on 127.0.0.1 with Basic credentials `ci` / `hunter2`.
    typealias Tinyproxy = TLSTestSupport.Tinyproxy

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
