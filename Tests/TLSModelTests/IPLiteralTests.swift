import TLSModel
import Testing

/// `IPAddress` parses only what `inet_pton` accepts (RFC 4291 / RFC 3986 IP-literal forms).
@Suite("IP literals are parsed by the system")
struct IPLiteralTests {
    @Test(
        "accepted forms",
        arguments: [
            ("127.0.0.1", [127, 0, 0, 1]),
            ("0.0.0.0", [0, 0, 0, 0]),
            ("255.255.255.255", [255, 255, 255, 255]),
            ("[127.0.0.1]", [127, 0, 0, 1]),
            ("::1", [UInt8](repeating: 0, count: 15) + [1]),
            ("[::1]", [UInt8](repeating: 0, count: 15) + [1]),
            ("::ffff:127.0.0.1", [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]),
            ("2001:DB8::1", [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [1]),
        ] as [(String, [UInt8])])
    func accepted(_ text: String, _ bytes: [UInt8]) throws {
        #expect(try #require(IPAddress(literal: text)).bytes == bytes)
        #expect(try #require(IPAddress(text)).bytes == bytes)
    }

    @Test(
        "rejected forms: signs, short and leading-zero IPv4, doubled ::, junk",
        arguments: [
            "::+1", "1::+2", "+1.2.3.4", "1.2.3.+4", "::-1",
            "010.1.1.1", "127.000.000.001", "01.2.3.4",
            "1.2.3", "1.2", "1", "1.2.3.4.5", "256.1.1.1", "1.2.3.4.",
            "1::2::3", ":::1", "1:2:3:4:5:6:7:8:9", "12345::1", "::ffff:010.0.0.1",
            "", "[]", "[::1", "::1]", "localhost", "0x7f.0.0.1", " 127.0.0.1", "127.0.0.1 ", "127.0.0.1\u{0}x",
        ])
    func rejected(_ text: String) {
        #expect(IPAddress(literal: text) == nil)
        #expect(IPAddress(text) == nil)
    }

    @Test("a zone id is not an IP literal for ATS, but names an address to connect to")
    func zoneIDs() throws {
        #expect(IPAddress(literal: "fe80::1%eth0") == nil)
        #expect(IPAddress(literal: "[fe80::1%eth0]") == nil)
        let scoped = try #require(IPAddress("fe80::1%eth0"))
        #expect(scoped.bytes == [0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1])
        #expect(try #require(IPAddress("[fe80::1%25eth0]")).isLinkLocal)
        #expect(IPAddress("fe80::1%") == nil)  // an empty zone is not a zone
        #expect(IPAddress("127.0.0.1%eth0") == nil)  // zones are IPv6-only (RFC 6874)
    }

    @Test("ATS host matching: a zone-scoped host is a name, so it matches no iPAddress SAN")
    func zoneHostMatching() {
        #expect(HostnameMatching.matches(host: "fe80::1", dnsNames: [], ipAddresses: ["fe80::1"]))
        #expect(HostnameMatching.matches(host: "fe80::1%eth0", dnsNames: [], ipAddresses: ["fe80::1"]) == false)
        #expect(HostnameMatching.matches(host: "[fe80::1%eth0]", dnsNames: [], ipAddresses: ["fe80::1"]) == false)
    }

    @Test("IPv4-mapped IPv6 is an address of its own: it does not match a 127.0.0.1 SAN (compared as binary)")
    func ipv4Mapped() {
        #expect(HostnameMatching.matches(host: "::ffff:127.0.0.1", dnsNames: [], ipAddresses: ["127.0.0.1"]) == false)
        #expect(HostnameMatching.matches(host: "::ffff:127.0.0.1", dnsNames: [], ipAddresses: ["::ffff:7f00:1"]))
        #expect(HostnameMatching.matches(host: "[::ffff:127.0.0.1]", dnsNames: [], ipAddresses: ["::ffff:127.0.0.1"]))
    }

    @Test("forms inet_pton rejects are names: they never match an iPAddress SAN")
    func rejectedFormsAreNames() {
        #expect(HostnameMatching.matches(host: "::+1", dnsNames: [], ipAddresses: ["::1"]) == false)
        #expect(HostnameMatching.matches(host: "127.000.000.001", dnsNames: [], ipAddresses: ["127.0.0.1"]) == false)
        #expect(HostnameMatching.matches(host: "010.1.1.1", dnsNames: [], ipAddresses: ["10.1.1.1"]) == false)
    }

    @Test("text form is unchanged: RFC 5952 for IPv6, dotted quad for IPv4")
    func description() throws {
        #expect(try #require(IPAddress(literal: "::ffff:127.0.0.1")).description == "::ffff:7f00:1")
        #expect(try #require(IPAddress(literal: "2001:db8:0:0:1:0:0:1")).description == "2001:db8::1:0:0:1")
        #expect(try #require(IPAddress(literal: "10.0.0.1")).description == "10.0.0.1")
    }
}
