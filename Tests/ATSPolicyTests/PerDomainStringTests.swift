import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// §3.4, "Per-domain boolean given as a string": current Security source uses the default; older source
/// (Security-61439.1.1) read the value with `boolValue`, so `<string>NO</string>` meant NO. Checker: the default
/// on current OSes, ambiguous on older targets (before the CIDR-era source, iOS 18.4 / macOS 15.4).
@Suite("Per-domain booleans given as strings (§3.4)")
struct PerDomainStringTests {
    static func configuration(_ entryXML: String, domain: String = "api.example.com") throws -> ATSConfiguration {
        try PerDomainValueTypeTests.configuration(entryXML, domain: domain)
    }

    @Test("§3.4 per-domain boolean given as a string: the default now, boolValue recorded for older OSes")
    func parsing() throws {
        let entry = try #require(
            try Self.configuration(
                "<key>NSExceptionRequiresForwardSecrecy</key><string>NO</string><key>NSIncludesSubdomains</key><string>YES</string>"
            ).exceptionDomains["api.example.com"])
        #expect(entry.requiresForwardSecrecy == true && entry.includesSubdomains == false)
        #expect(
            entry.stringBooleanValues == ["NSExceptionRequiresForwardSecrecy": false, "NSIncludesSubdomains": true])
        let old = entry.honouringStringBooleans()
        #expect(old.requiresForwardSecrecy == false && old.includesSubdomains == true)
    }

    @Test(
        "§3.4 per-domain boolean given as a string: -[NSString boolValue]",
        arguments: [
            ("YES", true), ("yes", true), ("Y", true), ("true", true), ("T", true), ("1", true), ("  7", true),
            ("+0009", true),
            ("NO", false), ("no", false), ("false", false), ("0", false), ("", false), ("  ", false), ("-0", false),
            ("maybe", false),
        ])
    func boolValue(text: String, expected: Bool) {
        #expect(ExceptionDomain.stringBoolValue(text) == expected)
    }

    /// RFS = `<string>NO</string>` for an RSA key-exchange-only server: fails with the default, passes if read.
    @Test(
        "§3.4 per-domain boolean given as a string: ambiguous only before iOS 18.4",
        arguments: [("26.4", false), ("18.4", false), ("18", true), ("15", true), ("10", true)])
    func verdictByOS(os: String, ambiguous: Bool) throws {
        let config = try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><string>NO</string>")
        let e = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), config, os: os)
        if ambiguous {
            #expect(e.verdict == .ambiguous)
            #expect(e.readings.map(\.name) == ["source-string-default", "old-string-bool-value"])
            #expect(e.readings.map(\.verdict) == [.fail, .pass])
            #expect(e.readings[0].violations.map(\.rule) == ["ats.tls.forward-secrecy"])
        } else {
            #expect(e.verdict == .fail && e.readings.isEmpty)
            #expect(e.violations.map(\.rule) == ["ats.tls.forward-secrecy"])
        }
    }

    @Test("§3.4 per-domain boolean given as a string: a string equal to the default raises no conflict")
    func sameAsDefault() throws {
        let config = try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><string>YES</string>")
        let e = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), config, os: "13")
        #expect(e.verdict == .fail && e.readings.isEmpty && !e.notes.contains { $0.contains("per-domain-strings") })
    }

    @Test("§3.4 per-domain boolean given as a string: the linter names both readings")
    func linterMessage() throws {
        let findings = try PlistFixtures.lint(
            "<key>NSExceptionDomains</key><dict><key>a.com</key><dict><key>NSExceptionRequiresForwardSecrecy</key><string>NO</string></dict></dict>"
        )
        let wrong = try #require(findings.first { $0.rule == RuleID.Plist.valueWrongType })
        #expect(wrong.message.contains("uses the default (YES)"))
        #expect(wrong.message.contains("before iOS 18.4 / macOS 15.4 may read it as NO"))
    }
}
