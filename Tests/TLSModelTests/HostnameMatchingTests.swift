import TLSModel
import Testing

@Suite("Apple SAN hostname matching (ats-rules §2.4)")
struct HostnameMatchingTests {
    struct Case: Sendable, CustomStringConvertible {
        var host: String
        var pattern: String
        var matches: Bool
        var description: String { "\(host) vs \(pattern) → \(matches)" }
    }

    @Test(
        "dNSName patterns",
        arguments: [
            Case(host: "api.example.com", pattern: "api.example.com", matches: true),
            Case(host: "API.Example.COM", pattern: "api.example.com", matches: true),
            Case(host: "api.example.com.", pattern: "api.example.com", matches: true),
            Case(host: "api.example.com", pattern: "*.example.com", matches: true),
            Case(host: "a.b.example.com", pattern: "*.example.com", matches: false),
            Case(host: "example.com", pattern: "*.example.com", matches: false),
            Case(host: "foo.example.com", pattern: "f*.example.com", matches: false),
            Case(host: "example.com", pattern: "*.com", matches: false),
            Case(host: "shop.co.uk", pattern: "*.co.uk", matches: false),
            Case(host: "www.shop.co.uk", pattern: "*.shop.co.uk", matches: true),
            Case(host: "other.com", pattern: "example.com", matches: false),
            Case(host: "a.example.com", pattern: "a.*.com", matches: false),
        ])
    func dnsNames(_ c: Case) {
        #expect(HostnameMatching.matches(host: c.host, pattern: c.pattern) == c.matches)
    }

    @Test("IP literals match only iPAddress SANs, compared as binary")
    func ipLiterals() {
        #expect(HostnameMatching.matches(host: "127.0.0.1", dnsNames: ["127.0.0.1"], ipAddresses: []) == false)
        #expect(HostnameMatching.matches(host: "127.0.0.1", dnsNames: [], ipAddresses: ["127.0.0.1"]))
        #expect(HostnameMatching.matches(host: "::1", dnsNames: [], ipAddresses: ["0:0:0:0:0:0:0:1"]))
        #expect(HostnameMatching.matches(host: "[::1]", dnsNames: [], ipAddresses: ["::1"]))
        #expect(HostnameMatching.matches(host: "10.0.0.1", dnsNames: [], ipAddresses: ["10.0.0.2"]) == false)
    }

    @Test("a certificate with only a CN matches nothing")
    func cnOnly() {
        #expect(HostnameMatching.matches(host: "localhost", dnsNames: [], ipAddresses: []) == false)
    }

    @Test("IPv6 text round-trips in RFC 5952 form")
    func ipv6Text() throws {
        #expect(try #require(IPAddress("2001:0db8:0000:0000:0000:0000:0000:0001")).description == "2001:db8::1")
        #expect(try #require(IPAddress("::ffff:10.0.0.1")).bytes.suffix(4) == [10, 0, 0, 1])
        #expect(IPAddress("1.2.3") == nil)
        #expect(IPAddress("1::2::3") == nil)
        #expect(try #require(IPAddress("fe80::1%eth0")).isLinkLocal)
        #expect(try #require(IPAddress("127.0.0.9")).isLoopback)
    }
}
