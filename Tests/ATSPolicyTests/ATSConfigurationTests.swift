import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

@Suite("ATSConfiguration parsing (§3.4)")
struct ATSConfigurationTests {
    @Test(
        "global booleans: wrong types are absent, 2 is present but not YES",
        arguments: [
            (PlistValue.bool(true), ATSConfiguration.Flag.yes), (.bool(false), .no), (.int(1), .yes), (.int(0), .no),
            (.int(2), .presentNotYes), (.string("YES"), .absent), (.array([.string("a")]), .absent),
        ])
    func globalFlag(value: PlistValue, expected: ATSConfiguration.Flag) {
        let c = ATSConfiguration(dictionary: ["NSAllowsArbitraryLoads": value.foundationValue])
        #expect(c.allowsArbitraryLoads == expected)
        #expect(
            ATSConfiguration(dictionary: ["NSAllowsArbitraryLoadsForMedia": value.foundationValue])
                .allowsArbitraryLoadsForMedia == expected)
    }

    @Test("NSNumber values")
    func numbers() {
        #expect(ATSConfiguration.flag(NSNumber(value: 2)) == .presentNotYes)
        #expect(ATSConfiguration.flag(NSNumber(value: true)) == .yes)
        #expect(ATSConfiguration.flag(NSNumber(value: 0)) == .no)
        #expect(ATSConfiguration.flag(nil) == .absent)
    }

    @Test("a plist <true/> and <integer>2</integer> from PropertyListSerialization")
    func fromPropertyList() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>NSAllowsArbitraryLoads</key><integer>2</integer>
            <key>NSAllowsLocalNetworking</key><true/>
            <key>NSExceptionDomains</key><dict>
              <key>example.com</key><dict><key>NSIncludesSubdomains</key><true/>
                <key>NSExceptionRequiresForwardSecrecy</key><false/></dict>
            </dict></dict></plist>
            """
        let d = try #require(
            try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil) as? [String: Any])
        let c = ATSConfiguration(dictionary: d)
        #expect(c.allowsArbitraryLoads == .presentNotYes)
        #expect(c.allowsLocalNetworking == .yes)
        let e = try #require(c.exceptionDomains["example.com"])
        #expect(e.includesSubdomains && !e.requiresForwardSecrecy)
    }

    @Test(
        "NSExceptionMinimumTLSVersion: exact values only, else TLS 1.2",
        arguments: [
            ("TLSv1.0", TLSVersion.tls1_0), ("TLSv1.1", .tls1_1), ("TLSv1.2", .tls1_2), ("TLSv1.3", .tls1_3),
            ("1.0", .tls1_2), ("TLSV1.3", .tls1_2), ("TLSv1.00", .tls1_2), ("TLSv1.4", .tls1_2),
        ])
    func minimumVersion(text: String, expected: TLSVersion) throws {
        let c = ATSConfiguration(dictionary: ["NSExceptionDomains": ["a.com": ["NSExceptionMinimumTLSVersion": text]]])
        #expect(try #require(c.exceptionDomains["a.com"]).effectiveMinimumTLSVersion == expected)
    }

    @Test(
        "per-domain wrong types take defaults; non-dictionary entries are skipped; non-dict NSExceptionDomains ignored")
    func domainDefaults() throws {
        let c = ATSConfiguration(dictionary: [
            "NSAllowsArbitraryLoads": true,
            "NSExceptionDomains": [
                "a.com": [
                    "NSIncludesSubdomains": "YES", "NSExceptionAllowsInsecureHTTPLoads": "YES",
                    "NSExceptionRequiresForwardSecrecy": "NO",
                ],
                "b.com": "not a dict",
            ],
        ])
        let a = try #require(c.exceptionDomains["a.com"])
        #expect(!a.includesSubdomains && !a.allowsInsecureHTTPLoads && a.requiresForwardSecrecy)
        #expect(c.exceptionDomains["b.com"] == nil)
        let ignored = ATSConfiguration(dictionary: ["NSAllowsArbitraryLoads": true, "NSExceptionDomains": ["x"]])
        #expect(ignored.exceptionDomains.isEmpty && ignored.allowsArbitraryLoads == .yes)
    }

    @Test("the default configuration is absent and full ATS")
    func defaultConfiguration() {
        #expect(!ATSConfiguration.default.isPresent)
        #expect(ATSConfiguration(dictionary: [:]).isPresent)
    }

    @Test(
        "CIDR keys",
        arguments: [
            ("10/8", "10.1.2.3", true), ("192.168/16", "192.168.9.9", true), ("192.168.0.0/16", "192.169.0.1", false),
            ("2001:db8::/32", "2001:db8::1", true), ("2001:db8::/32", "2001:db9::1", false),
            ("10.0.0.0/8", "::ffff:10.0.0.1", false), ("10.0.0.0/33", "10.0.0.1", false),
            ("fe80::%en0/64", "fe80::1", false), ("0.0.0.0/0", "8.8.8.8", true),
        ])
    func cidr(key: String, address: String, matches: Bool) throws {
        let ip = try #require(IPAddress(address))
        #expect((CIDRRange(key)?.contains(ip) ?? false) == matches)
    }
}

@Suite("Exception-domain lookup (§4.3, §4.4)")
struct ExceptionLookupTests {
    static var domains: [String: Any] {
        [
            "example.com": ["NSIncludesSubdomains": true, "NSExceptionMinimumTLSVersion": "TLSv1.0"],
            "strict.example.com": ["NSExceptionMinimumTLSVersion": "TLSv1.3"],
            "plain.org": [String: Any](),
            "trailing.net.": [String: Any](),
            "10.0.0.0/8": [String: Any](), "10.1.0.0/16": ["NSExceptionMinimumTLSVersion": "TLSv1.1"],
            "10.1.2.3": ["NSExceptionMinimumTLSVersion": "TLSv1.3"],
            "apple.com": ["NSExceptionMinimumTLSVersion": "TLSv1.3"],
        ]
    }

    @Test(
        "which key governs a host",
        arguments: [
            // host, os, depth, expected key (nil = none), builtIn
            ("example.com", "26.4", SubdomainDepth.anyDepth, "example.com" as String?, false),
            ("a.example.com", "26.4", .anyDepth, "example.com", false),
            ("a.example.com", "26.4", .oneLevel, "example.com", false),
            ("b.a.example.com", "26.4", .anyDepth, "example.com", false),
            ("b.a.example.com", "26.4", .oneLevel, nil, false),
            ("strict.example.com", "26.4", .anyDepth, "strict.example.com", false),  // exact beats ancestor
            ("x.strict.example.com", "26.4", .anyDepth, "example.com", false),  // ancestor without subdomains skipped
            ("x.strict.example.com", "26.4", .oneLevel, nil, false),
            ("EXAMPLE.COM", "26.4", .anyDepth, nil, false),  // case-sensitive keys
            ("www.plain.org", "26.4", .anyDepth, nil, false),  // no NSIncludesSubdomains
            ("trailing.net", "26.4", .anyDepth, nil, false),  // trailing dot is significant
            ("trailing.net.", "26.4", .anyDepth, "trailing.net.", false),
            ("10.1.2.3", "17", .anyDepth, "10.1.2.3", false),  // exact IP beats CIDR
            ("10.1.9.9", "17", .anyDepth, "10.1.0.0/16", false),  // longest prefix
            ("10.9.9.9", "17", .anyDepth, "10.0.0.0/8", false),
            ("10.1.2.3", "16", .anyDepth, nil, false),  // IP keys only from iOS 17
            ("apple.com", "26.4", .anyDepth, "apple.com", false),  // app entry replaces the built-in
            ("www.apple.com", "26.4", .anyDepth, nil, false),  // …which has no NSIncludesSubdomains
            ("a.b.ls.apple.com", "26.4", .oneLevel, "ls.apple.com", true),
            ("setup.icloud.com", "26.4", .anyDepth, "setup.icloud.com", true),
            ("www.apple-mapkit.com", "26.4", .anyDepth, "apple-mapkit.com", true),
        ])
    func lookup(host: String, os: String, depth: SubdomainDepth, key: String?, builtIn: Bool) {
        let c = ATSConfiguration(dictionary: ["NSExceptionDomains": Self.domains])
        let match = c.exception(for: host, os: AppleOSVersion(string: os)!, depth: depth)
        #expect(match?.key == key)
        if key != nil { #expect(match?.builtIn == builtIn) }
    }

    @Test("built-in Apple entries apply without any app configuration")
    func builtIns() throws {
        let m = try #require(ATSConfiguration.default.exception(for: "maps.apple.com", os: .newest, depth: .anyDepth))
        #expect(m.builtIn && m.key == "apple.com" && m.entry.allowsInsecureHTTPLoads && !m.entry.requiresForwardSecrecy)
        let ls = try #require(
            ATSConfiguration.default.exception(for: "gsp.ls.apple.com", os: .newest, depth: .anyDepth))
        #expect(ls.key == "ls.apple.com" && ls.entry.effectiveMinimumTLSVersion == .tls1_0)
    }
}
