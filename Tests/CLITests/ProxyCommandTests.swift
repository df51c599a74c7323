import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `--proxy`, `--no-proxy`, `HTTPS_PROXY` / `https_proxy` and `NO_PROXY` end to end: the built binary with its
/// environment set per run (the test process's own environment is never changed), a ``ConnectProxy`` on loopback
/// that resolves the test names itself.
@Suite("atscheck through an HTTP proxy (CLI)", .serialized)
struct ProxyCommandTests {
    static let proxied = "api.proxy.atscheck.test"
    static let direct = "direct.proxy.atscheck.test"

    /// A TLS 1.2/1.3 server whose leaf names both test hosts, and a CA file trusting it.
    static func server() throws -> (TestTLSServer, String) {
        let leaf = try TestPKI.shared.leaf(.leaf(proxied, direct))
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: .tls1_2, maxVersion: .tls1_3,
                cipherList: "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384",
                chain: TestPKI.shared.chain(for: leaf)))
        return (server, try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem"))
    }

    static func endpoints(_ result: CLI.Result) throws -> [[String: Any]] {
        try #require(
            (result.json as? [String: Any])?["endpoints"] as? [[String: Any]],
            "stdout: \(result.stdout) stderr: \(result.stderr)")
    }

    /// Environment variables that would otherwise leak in from the test process's own environment.
    static let clean = ["HTTPS_PROXY": "", "https_proxy": "", "NO_PROXY": "", "no_proxy": ""]

    static func env(_ values: [String: String]) -> [String: String] { clean.merging(values) { $1 } }

    /// Runs the binary off Swift's cooperative pool (``CLI/offPool(_:)``), with `environment` over the clean one.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLI.Result {
        let environment = env(environment)
        return try await CLI.offPool { try CLI.run(arguments, environment: environment) }
    }

    @Test("HTTPS_PROXY is used by default: the proxy resolves the name, sees every connection, and the report says so")
    func environmentProxy() async throws {
        let (server, ca) = try Self.server()
        defer { server.stop() }
        let proxy = try ConnectProxy(hosts: [Self.proxied: server.host])
        defer { proxy.stop() }
        let target = "\(Self.proxied):\(server.port)"
        let json = try await Self.run(
            ["scan", target, "--ca-file", ca, "--format", "json"], environment: ["HTTPS_PROXY": proxy.url()])
        #expect(json.status == 0, "\(json.stderr)")
        let endpoint = try #require(try Self.endpoints(json).first)
        #expect(endpoint["status"] as? String == "completed")
        #expect(endpoint["proxy"] as? String == "http://\(proxy.target)")
        #expect(endpoint["address"] is NSNull)
        #expect(endpoint["handshakes"] as? Int == proxy.connectRequests.count)
        #expect(proxy.connectRequests.allSatisfy { $0.authority == target && $0.sni == Self.proxied })

        let text = try await Self.run(["scan", target, "--ca-file", ca], environment: ["HTTPS_PROXY": proxy.url()])
        #expect(text.status == 0)
        #expect(text.stdout.contains("\(target) (via proxy http://\(proxy.target))"), "\(text.stdout)")
    }

    @Test("https_proxy wins over HTTPS_PROXY, and --proxy over both")
    func precedence() async throws {
        let (server, ca) = try Self.server()
        defer { server.stop() }
        let good = try ConnectProxy(hosts: [Self.proxied: server.host])
        defer { good.stop() }
        let closed = try ClosedPort()
        let target = "\(Self.proxied):\(server.port)"
        let lower = try await Self.run(
            ["scan", target, "--ca-file", ca, "--format", "json"],
            environment: ["https_proxy": good.url(), "HTTPS_PROXY": "http://\(closed.target)"])
        #expect(try Self.endpoints(lower).first?["proxy"] as? String == "http://\(good.target)")
        #expect(lower.status == 0)
        let option = try await Self.run(
            ["scan", target, "--ca-file", ca, "--format", "json", "--proxy", good.url()],
            environment: ["https_proxy": "http://\(closed.target)"])
        #expect(try Self.endpoints(option).first?["proxy"] as? String == "http://\(good.target)")
        #expect(option.status == 0)
    }

    @Test("--no-proxy ignores the environment's proxy")
    func noProxyFlag() async throws {
        let refusing = try ConnectProxy(behaviour: .answer(status: 502, reason: "Bad Gateway"))
        defer { refusing.stop() }
        let env = Self.env(["HTTPS_PROXY": refusing.url()])
        let through = try await Self.run(
            ["scan", "\(Self.proxied):443", "--format", "json", "--timeout", "2"], environment: env)
        let proxiedEndpoint = try #require(try Self.endpoints(through).first)
        #expect(proxiedEndpoint["status"] as? String == "error")
        #expect(
            (proxiedEndpoint["error"] as? String)?.contains("refused CONNECT \(Self.proxied):443: 502 Bad Gateway")
                == true)
        let seen = refusing.connectRequests.count
        #expect(seen > 0)

        let bypassed = try await Self.run(
            ["scan", "\(Self.proxied):443", "--format", "json", "--timeout", "2", "--no-proxy"], environment: env)
        let endpoint = try #require(try Self.endpoints(bypassed).first)
        #expect(endpoint["proxy"] == nil)
        // Direct, the reserved .test name does not resolve: the failure is the resolver's, not the proxy's.
        #expect(endpoint["status"] as? String == "unreachable", "\(endpoint["error"] ?? "")")
        #expect(refusing.connectRequests.count == seen)
    }

    @Test(
        "NO_PROXY sends its hosts direct while the others go through the proxy, in one batch; a 407 is that endpoint's error"
    )
    func bypassInABatch() async throws {
        let (server, ca) = try Self.server()
        defer { server.stop() }
        let proxy = try ConnectProxy(
            behaviour: .requireCredentials(user: "ci", password: "right"), hosts: [Self.proxied: server.host])
        defer { proxy.stop() }
        let result = try await Self.run(
            [
                "scan", "\(Self.direct):\(server.port)", "\(Self.proxied):\(server.port)",
                "--resolve", "\(Self.direct):\(server.port):127.0.0.1", "--ca-file", ca, "--format", "json",
                "--proxy", proxy.url(credentials: "ci:hunter2"),
            ],
            environment: ["NO_PROXY": ".proxy.atscheck.test:\(server.port + 1), \(Self.direct)"])
        #expect(result.status == 2, "one endpoint could not be scanned: \(result.stderr)")
        let endpoints = try Self.endpoints(result)
        try #require(endpoints.count == 2)
        #expect(endpoints[0]["status"] as? String == "completed")
        #expect(endpoints[0]["proxy"] == nil)
        #expect(endpoints[0]["address"] as? String == "127.0.0.1")
        #expect(endpoints[1]["status"] as? String == "error")
        #expect(endpoints[1]["proxy"] as? String == "http://\(proxy.target)")
        #expect(
            endpoints[1]["error"] as? String
                == "proxy \(proxy.target) refused CONNECT \(Self.proxied):\(server.port): 407 Proxy Authentication Required (the proxy refused the credentials given)"
        )
        let protocols = try #require(endpoints[1]["protocols"] as? [[String: Any]])
        #expect(protocols.allSatisfy { $0["supported"] is NSNull })
        #expect(proxy.connectRequests.map(\.authority) == ["\(Self.proxied):\(server.port)"])
        #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"))
    }

    @Test("credentials in the proxy URL open the tunnel and are printed nowhere")
    func credentialsRedacted() async throws {
        let (server, ca) = try Self.server()
        defer { server.stop() }
        let proxy = try ConnectProxy(
            behaviour: .requireCredentials(user: "ci", password: "hunter2"), hosts: [Self.proxied: server.host])
        defer { proxy.stop() }
        let url = proxy.url(credentials: "ci:hunter2")
        for format in ["json", "text", "markdown", "sarif"] {
            let result = try await Self.run(
                ["scan", "\(Self.proxied):\(server.port)", "--ca-file", ca, "--format", format, "--proxy", url],
                environment: [:])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"), "\(format)")
        }
        #expect(!proxy.connectRequests.isEmpty)
    }

    @Test(
        "an unusable proxy setting exits 64 with one line that never shows the password",
        arguments: [
            (["--proxy", "https://u:hunter2@127.0.0.1:3128"], [:], "https:// proxies"),
            (["--proxy", "socks5://127.0.0.1:1080"], [:], "SOCKS proxies are not supported"),
            (["--proxy", "http://127.0.0.1"], [:], "no port"),
            (["--proxy", "http://127.0.0.1:3128", "--no-proxy"], [:], "--proxy and --no-proxy"),
            ([], ["HTTPS_PROXY": "socks5h://u:hunter2@127.0.0.1:1080"], "HTTPS_PROXY: proxy URL 'socks5h://***@"),
            ([], ["https_proxy": "proxy.example"], "https_proxy: proxy URL 'proxy.example': no port"),
        ] as [([String], [String: String], String)])
    func usageErrors(_ arguments: [String], _ environment: [String: String], _ message: String) async throws {
        let result = try await Self.run(["scan", "\(Self.proxied):443"] + arguments, environment: environment)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
        #expect(result.stdout.isEmpty)
    }

    @Test("judging a saved profile connects nowhere: a malformed HTTPS_PROXY does not stop it")
    func savedProfileIgnoresEnvironment() async throws {
        let saved = TestScratch.file("atscheck-proxy", suffix: ".json")
        let first = try await Self.run(
            ["scan", "http://plain.atscheck.test/", "--save-profile", saved])
        #expect(first.status == 1)
        let again = try await Self.run(
            ["scan", "--profile", saved, "--format", "json"], environment: ["HTTPS_PROXY": "socks5://x:1"])
        #expect(again.status == 1, "\(again.stderr)")
    }

    @Test(
        "every command that connects takes --proxy and --no-proxy",
        arguments: [
            ["scan"], ["audit"], ["diagnose"], ["pins", "check"], ["pins", "extract"], ["app"],
        ])
    func everyCommand(_ command: [String]) async throws {
        let help = try await Self.run(command + ["--help"])
        #expect(help.stdout.contains("--proxy <url>") && help.stdout.contains("--no-proxy"), "\(command)")
    }

    @Test("diagnose and pins extract go through the proxy too")
    func otherCommands() async throws {
        let (server, ca) = try Self.server()
        defer { server.stop() }
        let proxy = try ConnectProxy(hosts: [Self.proxied: server.host])
        defer { proxy.stop() }
        let target = "\(Self.proxied):\(server.port)"
        let diagnose = try await Self.run(
            ["diagnose", "https://\(target)/", "--ca-file", ca, "--format", "json", "--proxy", proxy.url()],
            environment: [:])
        #expect([0, 1].contains(diagnose.status), "\(diagnose.stderr)")
        let afterDiagnose = proxy.connectRequests.count
        #expect(afterDiagnose > 0)
        let extract = try await Self.run(
            ["pins", "extract", target, "--ca-file", ca, "--json", "--proxy", proxy.url()])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(proxy.connectRequests.count > afterDiagnose)
        #expect(proxy.connectRequests.allSatisfy { $0.authority == target })
    }
}
