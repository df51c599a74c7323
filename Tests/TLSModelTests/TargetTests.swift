import TLSModel
import Testing

@Suite("Target parsing")
struct TargetTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var host: String
        var port: Int
        var scheme: String = "https"
        var description: String { text }
    }

    @Test(
        "parses hosts, ports, URLs and IPv6 literals",
        arguments: [
            Case(text: "api.example.com", host: "api.example.com", port: 443),
            Case(text: "API.Example.com:8443", host: "api.example.com", port: 8443),
            Case(text: "https://api.example.com/v1/users?x=1", host: "api.example.com", port: 443),
            Case(text: "https://api.example.com:9443", host: "api.example.com", port: 9443),
            Case(text: "http://cdn.example.com/a", host: "cdn.example.com", port: 80, scheme: "http"),
            Case(text: "127.0.0.1:4433", host: "127.0.0.1", port: 4433),
            Case(text: "[::1]:4433", host: "::1", port: 4433),
            Case(text: "::1", host: "::1", port: 443),
            Case(text: "https://[2001:db8::1]:8443/x", host: "2001:db8::1", port: 8443),
            Case(text: "123.example.com", host: "123.example.com", port: 443),
            Case(text: "v4.0x.example:8443", host: "v4.0x.example", port: 8443),
        ])
    func parses(_ c: Case) throws {
        let target = try Target(parsing: c.text)
        #expect(target.host == c.host)
        #expect(target.port == c.port)
        #expect(target.scheme == c.scheme)
    }

    @Test(
        "rejects malformed targets with a reason",
        arguments: [
            "", "ftp://example.com", "example.com:0", "example.com:70000", "example.com:abc", "[::1", "bad host",
            "https://:443", "[zz::1]:443",
        ])
    func rejects(_ text: String) {
        #expect(throws: TargetError.self) { try Target(parsing: text) }
    }

    /// A bare number is read by the resolver as a short IPv4 form (`42` is 0.0.0.42): never a connection nobody
    /// asked for (issue 20).
    @Test(
        "rejects a bare number, a short IPv4 form or a numeric last label",
        arguments: [
            "42", "42:443", "https://5/", "10.1", "127.1:8443", "0x7f000001", "example.0x1f", "host.123", "1.2.3.4.5",
        ])
    func rejectsNumbers(_ text: String) throws {
        let error = try #require(throws: TargetError.self) { try Target(parsing: text) }
        #expect(error.reason.contains("is a number"), "\(error.reason)")
    }

    @Test("hostPort brackets IPv6")
    func hostPort() throws {
        #expect(try Target(parsing: "[::1]:8443").hostPort == "[::1]:8443")
        #expect(try Target(parsing: "example.com").hostPort == "example.com:443")
    }
}
