import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// The bounded fetcher against loopback servers: plain and HTTPS (verified against a test CA given as `--ca-file`),
/// every framing, and one line for each way a fetch fails.
@Suite("HTTPFetcher: bounded GET over http and https")
struct HTTPFetcherTests {
    static let body = Data((0..<5000).map { UInt8($0 % 251) })

    static func request(_ url: String, maximumBytes: Int = 1 << 20, timeout: Double = 5, redirects: Int = 0)
        -> HTTPFetchRequest
    {
        HTTPFetchRequest(url: url, maximumBytes: maximumBytes, timeout: timeout, maximumRedirects: redirects)
    }

    /// A fetch's outcome: the body, or the error.
    static func outcome(_ fetcher: HTTPFetcher, _ request: HTTPFetchRequest) async -> Result<
        HTTPFetchResponse, HTTPFetchError
    > {
        do throws(HTTPFetchError) { return .success(try await fetcher.fetch(request)) } catch { return .failure(error) }
    }

    @Test(
        "every framing gives the body byte for byte, over http and https",
        arguments: [false, true], ["/length", "/chunked", "/unframed"])
    func framings(secure: Bool, path: String) async throws {
        let server = try TestHTTPServer(
            routes: [
                "/length": .body(Self.body), "/chunked": .chunked(Self.body, chunk: 777),
                "/unframed": .unframed(Self.body),
            ], tls: secure ? TestPKI.sharedLocalhostChain : nil)
        defer { server.stop() }
        let fetcher = HTTPFetcher(caFiles: [try ProbeFixtures.caFile()])
        let response = try await fetcher.fetch(Self.request(server.url(path)))
        #expect(response.body == Self.body)
        #expect(response.status == 200)
        #expect(response.url == server.url(path))
        #expect(server.requests(for: path) == 1)
    }

    @Test("HTTPS to a server whose CA is not given fails the handshake with OpenSSL's reason")
    func untrustedServer() async throws {
        let server = try TestHTTPServer(routes: ["/x": .body(Self.body)], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let result = await Self.outcome(HTTPFetcher(), Self.request(server.url("/x")))
        guard case .failure(let error) = result else { Issue.record("fetched from an unverified server"); return }
        #expect(error.kind == .tls)
        #expect(error.reason.contains("does not verify: unable to get local issuer certificate"), "\(error)")
        #expect(server.requests(for: "/x") == 0, "no request may be sent before the server is verified")
    }

    @Test("HTTPS to a server whose certificate names another host fails")
    func wrongHost() async throws {
        let pki = TestPKI.shared
        let leaf = try pki.leaf(.leaf("elsewhere.example"))
        let server = try TestHTTPServer(routes: ["/x": .body(Self.body)], tls: pki.chain(for: leaf))
        defer { server.stop() }
        let result = await Self.outcome(
            HTTPFetcher(caFiles: [try ProbeFixtures.caFile()]), Self.request(server.url("/x")))
        guard case .failure(let error) = result else { Issue.record("fetched from a server for another name"); return }
        #expect(error.kind == .tls)
        #expect(error.reason.contains("does not verify"), "\(error)")
    }

    @Test(
        "a body over the cap is refused: announced, chunked or unframed",
        arguments: ["/length", "/chunked", "/unframed"])
    func tooLarge(path: String) async throws {
        let server = try TestHTTPServer(routes: [
            "/length": .body(Self.body), "/chunked": .chunked(Self.body), "/unframed": .unframed(Self.body),
        ])
        defer { server.stop() }
        let result = await Self.outcome(HTTPFetcher(), Self.request(server.url(path), maximumBytes: 4096))
        guard case .failure(let error) = result else { Issue.record("a body over the cap was accepted"); return }
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("over the limit of 4096 bytes"), "\(error)")
    }

    @Test("a status other than 2xx is an error naming it")
    func status() async throws {
        let server = try TestHTTPServer(routes: ["/gone": .status(410, "Gone")])
        defer { server.stop() }
        let result = await Self.outcome(HTTPFetcher(), Self.request(server.url("/gone")))
        guard case .failure(let error) = result else { Issue.record("a 410 was a body"); return }
        #expect(error.kind == .status && error.status == 410)
        #expect(error.reason == "\(server.url("/gone")): HTTP 410 Gone")
    }

    @Test("redirects: refused with their target at 0, followed up to the count")
    func redirects() async throws {
        let server = try TestHTTPServer(routes: ["/a": .redirect("/b"), "/b": .redirect("/c"), "/c": .body(Self.body)])
        defer { server.stop() }
        let refused = await Self.outcome(HTTPFetcher(), Self.request(server.url("/a")))
        guard case .failure(let error) = refused else { Issue.record("a redirect was followed"); return }
        #expect(error.kind == .status && error.status == 302)
        #expect(error.reason.contains("redirected to \(server.url("/b")) (redirects are not followed)"), "\(error)")
        let tooFew = await Self.outcome(HTTPFetcher(), Self.request(server.url("/a"), redirects: 1))
        guard case .failure(let many) = tooFew else { Issue.record("two redirects followed with a limit of 1"); return }
        #expect(many.reason.contains("too many redirects"))
        let followed = try await HTTPFetcher().fetch(Self.request(server.url("/a"), redirects: 2))
        #expect(followed.body == Self.body && followed.url == server.url("/c"))
    }

    @Test("a refused port is unreachable; a server that never answers times out within the deadline")
    func refusedAndSilent() async throws {
        let closed = try ClosedPort()
        let refused = await Self.outcome(HTTPFetcher(), Self.request("http://127.0.0.1:\(closed.port)/x"))
        guard case .failure(let error) = refused else { Issue.record("a closed port answered"); return }
        #expect(error.kind == .unreachable)
        #expect(error.reason.contains("Connection refused"), "\(error)")

        let server = try TestHTTPServer(routes: ["/slow": .silence])
        defer { server.stop() }
        // The server stays silent for 30 s and then closes: a timeout (not a close) is the deadline's doing.
        let silent = await Self.outcome(HTTPFetcher(), Self.request(server.url("/slow"), timeout: 0.5))
        guard case .failure(let timeout) = silent else { Issue.record("silence was an answer"); return }
        #expect(timeout.kind == .timeout)
        #expect(timeout.reason == "\(server.url("/slow")): no answer before the deadline")
    }

    @Test("a server that closes without answering, or answers in something other than HTTP, is a protocol error")
    func protocolErrors() async throws {
        let server = try TestHTTPServer(routes: ["/close": .close])
        defer { server.stop() }
        let closed = await Self.outcome(HTTPFetcher(), Self.request(server.url("/close")))
        guard case .failure(let error) = closed else { Issue.record("a close was an answer"); return }
        #expect(error.kind == .protocolError)
        #expect(error.reason.contains("closed the connection without answering"), "\(error)")

        let garbage = try HostilePeer(.garbage)
        defer { garbage.stop() }
        let notHTTP = await Self.outcome(HTTPFetcher(), Self.request("http://127.0.0.1:\(garbage.port)/"))
        guard case .failure(let other) = notHTTP else { Issue.record("garbage was an answer"); return }
        #expect(other.kind == .protocolError)
    }

    @Test(
        "URLs atscheck does not fetch are refused before any connection",
        arguments: [
            "ftp://127.0.0.1/x", "not a url", "http:///nohost", "http://user:pw@127.0.0.1/x",
        ])
    func invalidURLs(url: String) async throws {
        let result = await Self.outcome(HTTPFetcher(), Self.request(url))
        guard case .failure(let error) = result else { Issue.record("\(url) was fetched"); return }
        #expect(error.kind == .invalidURL)
        #expect(error.reason.hasPrefix(url))
    }

    @Test("https through a CONNECT proxy: one tunnel to the server's authority; a refusing proxy is named")
    func throughConnectProxy() async throws {
        let server = try TestHTTPServer(routes: ["/x": .body(Self.body)], tls: TestPKI.sharedLocalhostChain)
        defer { server.stop() }
        let proxy = try ConnectProxy(hosts: ["localhost": server.host])
        defer { proxy.stop() }
        let via = try HTTPProxy(parsing: proxy.url())
        let fetcher = HTTPFetcher(caFiles: [try ProbeFixtures.caFile()]) { _, _ in via }
        let response = try await fetcher.fetch(Self.request("https://localhost:\(server.port)/x"))
        #expect(response.body == Self.body)
        #expect(response.proxy == "http://\(proxy.target)")
        #expect(proxy.connectRequests.map(\.authority) == ["localhost:\(server.port)"])
        #expect(proxy.connectRequests.first?.sni == "localhost")

        let refusing = try ConnectProxy(behaviour: .answer(status: 403, reason: "Forbidden"))
        defer { refusing.stop() }
        let blocked = try HTTPProxy(parsing: refusing.url())
        let result = await Self.outcome(
            HTTPFetcher(caFiles: [try ProbeFixtures.caFile()]) { _, _ in blocked },
            Self.request("https://localhost:\(server.port)/x"))
        guard case .failure(let error) = result else { Issue.record("a refusing proxy let the fetch through"); return }
        #expect(error.kind == .proxy)
        #expect(error.reason.contains("refused CONNECT localhost:\(server.port): 403 Forbidden"), "\(error)")
    }
}

/// The fetcher through an independent proxy, Debian's tinyproxy: an `http://` URL asked in absolute form, an
/// `https://` URL through a CONNECT tunnel, both with Basic credentials.
@Suite(
    "HTTPFetcher through tinyproxy",
    .enabled(
        if: tinyproxyBinary != nil,
        "tinyproxy is not installed (apt-get install tinyproxy-bin): the independent proxy check is skipped"))
struct HTTPFetcherTinyproxyTests {
    @Test("http:// in absolute form and https:// through CONNECT both arrive, once each, through tinyproxy")
    func bothSchemes() async throws {
        let plain = try TestHTTPServer(routes: ["/plain": .body(HTTPFetcherTests.body)])
        defer { plain.stop() }
        let secure = try TestHTTPServer(
            routes: ["/secure": .body(HTTPFetcherTests.body)], tls: TestPKI.sharedLocalhostChain)
        defer { secure.stop() }
        let tinyproxy = try TinyproxyTests.Tinyproxy()
        let via = try HTTPProxy(parsing: tinyproxy.url)
        let fetcher = HTTPFetcher(caFiles: [try ProbeFixtures.caFile()]) { _, _ in via }
        let overHTTP = try await fetcher.fetch(HTTPFetcherTests.request("http://localhost:\(plain.port)/plain"))
        let overHTTPS = try await fetcher.fetch(HTTPFetcherTests.request("https://localhost:\(secure.port)/secure"))
        #expect(overHTTP.body == HTTPFetcherTests.body && overHTTPS.body == HTTPFetcherTests.body)
        #expect(overHTTP.proxy == "http://127.0.0.1:\(tinyproxy.port)")
        #expect(plain.requests(for: "/plain") == 1 && secure.requests(for: "/secure") == 1)
        for _ in 0..<100 where tinyproxy.requests(for: "localhost:\(secure.port)") < 1 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(tinyproxy.requests(for: "localhost:\(secure.port)") == 1, "the https fetch was one CONNECT")
    }

    @Test("tinyproxy's refusal of wrong credentials is the fetch's one-line error")
    func wrongCredentials() async throws {
        let plain = try TestHTTPServer(routes: ["/plain": .body(HTTPFetcherTests.body)])
        defer { plain.stop() }
        let tinyproxy = try TinyproxyTests.Tinyproxy()
        let via = try HTTPProxy(parsing: "http://ci:wrong@127.0.0.1:\(tinyproxy.port)")
        let result = await HTTPFetcherTests.outcome(
            HTTPFetcher { _, _ in via }, HTTPFetcherTests.request("http://localhost:\(plain.port)/plain"))
        guard case .failure(let error) = result else { Issue.record("wrong credentials went through"); return }
        // Asked in absolute form, the proxy's refusal is the answer's status (tinyproxy says 401, not 407).
        #expect(error.kind == .status && [401, 407].contains(error.status ?? 0), "\(error)")
        #expect(plain.requests(for: "/plain") == 0)
    }
}
