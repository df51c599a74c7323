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

    @Test("refuses what is not a release", arguments: ["", "8", "19", "27", "x", "15.", "1.2.3.4", "-9", "15.4a"])
    func refuses(text: String) {
        #expect(AppleOSVersion(string: text) == nil)
    }

    @Test("orders releases and has the newest as default")
    func ordering() {
        #expect(AppleOSVersion(15, 4) > AppleOSVersion(15, 3, 9))
        #expect(AppleOSVersion(26) > AppleOSVersion(18, 7))
        #expect(AppleOSVersion.newest == AppleOSVersion(26, 4))
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
}
