import Testing

@testable import ATSPolicy

@Suite("AppleOSVersion")
struct AppleOSVersionTests {
    @Test(
        "parses release numbers",
        arguments: [
            ("9", "9.0"), ("10", "10.0"), ("13", "13.0"), ("15.4", "15.4"), ("17", "17.0"), ("26.4", "26.4"),
            ("26.4.1", "26.4.1"), (" 12.2 ", "12.2"),
        ])
    func parses(text: String, expected: String) throws {
        #expect(try #require(AppleOSVersion(string: text)).description == expected)
    }

    /// A major after the newest era is not a release atscheck knows (27 while 26.4 is the newest).
    static let majorAfterNewest = String(AppleOSEra.newest.version.major + 1)

    @Test(
        "refuses what is not a release",
        arguments: ["", "8", "19", majorAfterNewest, "x", "15.", "1.2.3.4", "-9", "15.4a"])
    func refuses(text: String) {
        #expect(AppleOSVersion(string: text) == nil)
    }

    @Test("orders releases and has the newest as default")
    func ordering() {
        #expect(AppleOSVersion(15, 4) > AppleOSVersion(15, 3, 9))
        #expect(AppleOSVersion(26) > AppleOSVersion(18, 7))
        #expect(AppleOSVersion.newest == AppleOSEra.newest.version)
        #expect(AppleOSVersion.supportedValues.allSatisfy { AppleOSVersion(string: $0) != nil })
    }

    @Test(
        "era tables",
        arguments: [
            ("9", ATSSuiteGroups.Era.documented, false as Bool?, false, false),
            ("12.2", .documented, nil, false, false),
            ("13", .sourceUpTo2022, true, true, false),
            ("15.3", .sourceUpTo2022, true, true, false),
            ("15.4", .source2022, true, true, false),
            ("17", .source2022, true, true, true),
            ("26.4", .source2022, true, true, true),
        ])
    func eras(os: String, era: ATSSuiteGroups.Era, tls13: Bool?, ios13Rules: Bool, ipATS: Bool) throws {
        let v = try #require(AppleOSVersion(string: os))
        #expect(v.sourceSuiteEra == era)
        #expect(v.offersTLS13 == tls13)
        #expect(v.enforcesIOS13CertificateRules == ios13Rules)
        #expect(v.ipLiteralsRequireATS == ipATS)
    }

    @Test(
        "any x.y.z release parses for comparisons; only known ones select rules",
        arguments: [
            ("8.0", AppleOSVersion(8), false), ("12.1.2", AppleOSVersion(12, 1, 2), true),
            ("19", AppleOSVersion(19), false), (" 15.0 ", AppleOSVersion(15), true),
            ("1000", AppleOSVersion(1000), false),
        ])
    func anyRelease(_ text: String, _ expected: AppleOSVersion, _ known: Bool) throws {
        let version = try #require(AppleOSVersion(anyRelease: text))
        #expect(version == expected)
        #expect(version.isKnownRelease == known)
        #expect((AppleOSVersion(string: text) != nil) == (known && expected.major < 1000))
    }

    @Test(
        "text that is not a release does not parse, even leniently",
        arguments: ["", "15.x", "+15", "-1", "1.2.3.4", "15.", "١٥"])
    func notARelease(_ text: String) {
        #expect(AppleOSVersion(anyRelease: text) == nil)
    }
}

@Suite("ATS key paths")
struct ATSKeyPathTests {
    @Test("one builder for every key path under NSAppTransportSecurity")
    func paths() {
        #expect(ATSKeyPath.path([]) == "NSAppTransportSecurity")
        #expect(ATSKeyPath.global(.allowsArbitraryLoads) == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        #expect(
            ATSKeyPath.exceptionDomain("a.example.com") == "NSAppTransportSecurity.NSExceptionDomains.a.example.com")
        #expect(
            ATSKeyPath.exceptionDomain("a.example.com", ATSKey.includesSubdomains.name)
                == "NSAppTransportSecurity.NSExceptionDomains.a.example.com.NSIncludesSubdomains")
    }
}
