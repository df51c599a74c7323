import Foundation
import TLSModel
import Testing

@Suite("HTTP proxy URLs and NO_PROXY lists")
struct HTTPProxyTests {
    struct Good: Sendable, CustomTestStringConvertible {
        var text: String
        var host: String
        var port: Int
        var username: String?
        var password: String?
        var testDescription: String { text }
    }

    @Test(
        "proxy URLs atscheck can use",
        arguments: [
            Good(text: "http://127.0.0.1:3128", host: "127.0.0.1", port: 3128),
            Good(text: "http://Proxy.Example:8080/", host: "proxy.example", port: 8080),
            Good(text: "proxy.example:3128", host: "proxy.example", port: 3128),  // no scheme: http, as curl
            Good(text: "HTTP://[::1]:3128", host: "::1", port: 3128),
            Good(
                text: "http://alice:s3cret@proxy:3128", host: "proxy", port: 3128, username: "alice", password: "s3cret"
            ),
            // Percent-decoded; the last @ ends the credentials.
            Good(
                text: "http://dom%5Calice:p%40ss%3Aword@proxy:3128", host: "proxy", port: 3128, username: "dom\\alice",
                password: "p@ss:word"),
            Good(text: "http://alice@proxy:3128", host: "proxy", port: 3128, username: "alice", password: ""),
            Good(text: "  http://proxy:1  ", host: "proxy", port: 1),
        ])
    func parses(_ good: Good) throws {
        let proxy = try HTTPProxy(parsing: good.text)
        #expect(proxy.host == good.host)
        #expect(proxy.port == good.port)
        #expect(proxy.username == good.username)
        #expect(proxy.password == good.password)
        #expect(!proxy.redacted.contains("@"))
    }

    @Test(
        "proxy URLs atscheck refuses, each with a reason that never holds the password",
        arguments: [
            ("https://proxy:3128", "https:// proxies"),
            ("socks5://proxy:1080", "SOCKS proxies are not supported"),
            ("socks5h://user:hunter2@proxy:1080", "SOCKS"),
            ("ftp://proxy:21", "'ftp://' proxies are not supported"),
            ("http://proxy", "no port"),
            ("http://proxy:", "no port"),
            ("http://proxy:0", "port must be 1…65535"),
            ("http://proxy:65536", "port must be 1…65535"),
            ("http://proxy:+80", "port must be 1…65535"),
            ("http://proxy:3128/path", "no path"),
            ("http://::1:3128", "in brackets"),
            ("http://[::1:3128", "unclosed"),
            ("http://[proxy]:3128", "not an IPv6 address"),
            ("http://pro xy:3128", "not a host name"),
            ("http://:hunter2@proxy:3128", "user name is empty"),
            ("http://user:hunter2%zz@proxy:3128", "percent-encoding"),
            ("", "empty"),
        ])
    func refuses(_ text: String, _ reason: String) throws {
        let error = try #require(throws: ProxyURLError.self) { try HTTPProxy(parsing: text) }
        #expect(error.reason.contains(reason), "\(error)")
        #expect(!error.description.contains("hunter2"))
    }

    @Test("reports name the proxy without its credentials; the header carries them in Basic")
    func redactionAndHeader() throws {
        let proxy = try HTTPProxy(parsing: "http://alice:open%20sesame@[::1]:3128")
        #expect(proxy.redacted == "http://[::1]:3128")
        #expect(proxy.hostPort == "[::1]:3128")
        // RFC 7617: base64 of "user:password".
        #expect(proxy.authorization == "Basic " + Data("alice:open sesame".utf8).base64EncodedString())
        #expect(try HTTPProxy(parsing: "http://proxy:1").authorization == nil)
        var request = ProbeRequest(target: Target(host: "api.test"))
        request.proxy = proxy
        #expect(!"\(proxy)".contains("sesame") && !String(reflecting: request).contains("sesame"))
        #expect(HTTPProxy.redacting("http://alice:pw@proxy:1/x@y") == "http://***@proxy:1/x@y")
        #expect(HTTPProxy.redacting("alice:pw@proxy:1") == "***@proxy:1")
        #expect(HTTPProxy.redacting("http://proxy:1") == "http://proxy:1")
    }

    @Test(
        "NO_PROXY matching follows curl: names and their subdomains, *, IPs and CIDR ranges, optional ports",
        arguments: [
            ("example.com", "example.com", 443, true),
            ("example.com", "API.Example.com", 443, true),
            ("example.com", "notexample.com", 443, false),
            ("example.com", "example.com.evil", 443, false),
            (".example.com", "example.com", 443, true),
            (".example.com", "a.b.example.com", 443, true),
            ("*.example.com", "api.example.com", 443, true),
            ("example.com.", "api.example.com.", 443, true),
            ("*", "anything.test", 8443, true),
            (" a.test , b.test ", "b.test", 443, true),
            ("a.test,,b.test", "c.test", 443, false),
            ("example.com:8443", "example.com", 8443, true),
            ("example.com:8443", "example.com", 443, false),
            ("10.1.2.3", "10.1.2.3", 443, true),
            ("10.1.2.3", "10.1.2.4", 443, false),
            ("10.0.0.0/8", "10.200.1.1", 443, true),
            ("10.0.0.0/8", "11.0.0.1", 443, false),
            ("192.168.0.0/16", "192.168.77.1", 443, true),
            ("::1", "::1", 443, true),
            ("[::1]:8443", "::1", 8443, true),
            ("[::1]:8443", "::1", 443, false),
            ("fd00::/8", "fd12::5", 443, true),
            ("fd00::/8", "fe80::1", 443, false),
            ("127.0.0.1", "localhost", 443, false),  // names are never resolved to match
            ("localhost", "127.0.0.1", 443, false),
            ("10.0.0.0/33", "10.0.0.1", 443, false),  // unusable items are ignored
            ("exa*mple.com", "example.com", 443, false),
            ("", "example.com", 443, false),
        ])
    func noProxy(_ list: String, _ host: String, _ port: Int, _ bypassed: Bool) {
        #expect(NoProxyList(parsing: list).matches(host: host, port: port) == bypassed)
    }
}
