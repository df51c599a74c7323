import ATSPolicy
import Foundation
import TLSModel
import Testing

/// §3.4 (corrected 2026-11-23): current Apple source reads a per-domain boolean written as a number by its
/// truth value, like `<true/>`/`<false/>`; releases before the CIDR-era source (iOS 18.4 / macOS 15.4) are
/// read both ways. Global keys keep their own rule (1 = YES, 0 = NO, another number present but not YES).
/// The linter and the engine must read plists the same way.
@Suite("Per-domain value types (§3.4)")
struct PerDomainValueTypeTests {
    static func ats(_ xml: String) throws -> ATSConfiguration {
        let root = try PropertyListSerialization.propertyList(
            from: Data("<plist version=\"1.0\"><dict>\(xml)</dict></plist>".utf8), options: [], format: nil)
        return ATSConfiguration(dictionary: try #require(root as? [String: Any]))
    }

    static func configuration(_ entryXML: String, domain: String = "api.example.com") throws -> ATSConfiguration {
        try ats("<key>NSExceptionDomains</key><dict><key>\(domain)</key><dict>\(entryXML)</dict></dict>")
    }

    @Test("§3.4 per-domain booleans given as numbers (corrected 2026-11-23): parsed by truth value")
    func numbersByTruthValue() throws {
        let number = try Self.configuration("<key>NSExceptionAllowsInsecureHTTPLoads</key><integer>1</integer>")
        let entry = try #require(number.exceptionDomains["api.example.com"])
        #expect(entry.allowsInsecureHTTPLoads == true)
        #expect(entry.numericBooleanKeys == ["NSExceptionAllowsInsecureHTTPLoads"])
        let rfs = try #require(
            try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><integer>0</integer>").exceptionDomains[
                "api.example.com"])
        #expect(rfs.requiresForwardSecrecy == false)
        let two = try #require(
            try Self.configuration("<key>NSIncludesSubdomains</key><integer>2</integer>").exceptionDomains[
                "api.example.com"])
        #expect(two.includesSubdomains == true)  // non-zero is YES per-domain (unlike a global 2)
        let real = try #require(
            try Self.configuration(
                "<key>NSExceptionRequiresForwardSecrecy</key><real>0.0</real><key>NSIncludesSubdomains</key><real>1</real>"
            ).exceptionDomains["api.example.com"])
        #expect(real.requiresForwardSecrecy == false && real.includesSubdomains == true)
        #expect(real.numericBooleanKeys == ["NSExceptionRequiresForwardSecrecy", "NSIncludesSubdomains"])
        // Plist booleans are not numbers; strings still take the default (a separate §3.4 row).
        let boolean = try #require(
            try Self.configuration("<key>NSExceptionAllowsInsecureHTTPLoads</key><true/>").exceptionDomains[
                "api.example.com"])
        #expect(boolean.allowsInsecureHTTPLoads == true && boolean.numericBooleanKeys.isEmpty)
        let string = try #require(
            try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><string>NO</string>").exceptionDomains[
                "api.example.com"])
        #expect(string.requiresForwardSecrecy == true && string.numericBooleanKeys.isEmpty)
    }

    /// RFS = `<integer>0</integer>` for an RSA key-exchange-only server: passes by truth value, fails if ignored.
    @Test(
        "§3.4 per-domain booleans given as numbers (corrected 2026-11-23): ambiguous only before iOS 18.4",
        arguments: [
            ("26.4", false), ("26", false), ("18.4", false), ("18", true), ("17", true), ("13", true), ("10", true),
        ])
    func verdictByOS(os: String, ambiguous: Bool) throws {
        let config = try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><integer>0</integer>")
        let e = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), config, os: os)
        if ambiguous {
            #expect(e.verdict == .ambiguous)
            #expect(e.readings.map(\.name) == ["source-number-truth-value", "old-number-ignored"])
            #expect(e.readings.map(\.verdict) == [.pass, .fail])
            #expect(e.readings[1].violations.map(\.rule) == ["ats.tls.forward-secrecy"])
            #expect(e.violations.map(\.rule) == ["ats.tls.forward-secrecy"])
            #expect(e.notes.contains { $0.hasPrefix("CONFLICT per-domain-numbers") })
        } else {
            #expect(e.verdict == .pass && e.readings.isEmpty && e.violations.isEmpty)
            #expect(!e.notes.contains { $0.contains("per-domain-numbers") })
        }
        // The same entry with <false/> is never ambiguous.
        let boolean = try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><false/>")
        #expect(Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), boolean, os: os).verdict == .pass)
    }

    @Test("§3.4 per-domain booleans given as numbers (corrected 2026-11-23): agreeing readings give a note")
    func agreeingReadings() throws {
        // A compliant server passes whether or not the number is read: pass, with a note.
        let config = try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><integer>0</integer>")
        let e = Fixture.evaluate(Fixture.profile(Fixture.modern), config, os: "13")
        #expect(e.verdict == .pass && e.readings.isEmpty)
        #expect(
            e.notes.contains { $0.hasPrefix("CONFLICT per-domain-numbers") && $0.hasSuffix("both readings give pass") })
        // A number equal to the default changes nothing, so there is no conflict at all.
        let same = try Self.configuration("<key>NSExceptionRequiresForwardSecrecy</key><integer>1</integer>")
        let s = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), same, os: "13")
        #expect(s.verdict == .fail && !s.notes.contains { $0.contains("per-domain-numbers") })
    }

    @Test("§3.4 per-domain booleans given as numbers (corrected 2026-11-23): NSIncludesSubdomains decides the entry")
    func includesSubdomainsAsNumber() throws {
        let config = try Self.configuration(
            "<key>NSIncludesSubdomains</key><integer>1</integer><key>NSExceptionRequiresForwardSecrecy</key><false/>",
            domain: "example.com")
        let host = "api.example.com"
        let old = Fixture.evaluate(Fixture.profile(host: host, Fixture.rsaKxOnly), config, os: "15")
        #expect(old.verdict == .ambiguous)
        #expect(old.readings.map(\.name) == ["source-number-truth-value", "old-number-ignored"])
        #expect(old.readings.map(\.verdict) == [.pass, .fail])
        let new = Fixture.evaluate(Fixture.profile(host: host, Fixture.rsaKxOnly), config, os: "26.4")
        #expect(new.verdict == .pass)
    }

    @Test("§3.4 global keys given as numbers: 1 is YES, 2 present but not YES, on every OS (no conflict)")
    func globalNumbers() throws {
        let one = try Self.ats("<key>NSAllowsArbitraryLoads</key><integer>1</integer>")
        #expect(one.allowsArbitraryLoads == .yes)
        let two = try Self.ats("<key>NSAllowsArbitraryLoads</key><integer>2</integer>")
        #expect(two.allowsArbitraryLoads == .presentNotYes)
        for os in ["9", "13", "26.4"] {
            let e = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), one, os: os)
            #expect(e.verdict == .pass && e.readings.isEmpty, "\(os)")
            #expect(Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), two, os: os).verdict == .fail, "\(os)")
        }
    }

    @Test("§3.4 per-domain booleans given as numbers (corrected 2026-11-23): the linter warns without saying 'ignored'")
    func linterMessage() throws {
        let findings = try PlistFixtures.lint(
            "<key>NSExceptionDomains</key><dict><key>a.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><integer>1</integer><key>NSExceptionRequiresForwardSecrecy</key><integer>0</integer></dict></dict>"
        )
        let numeric = findings.filter { $0.rule == RuleID.Plist.valueNumericBoolean }
        #expect(numeric.count == 2)
        #expect(numeric.allSatisfy { $0.severity == .warning })
        #expect(!findings.contains { $0.rule == RuleID.Plist.valueWrongType })
        let insecure = try #require(
            numeric.first { $0.keyPath?.hasSuffix("NSExceptionAllowsInsecureHTTPLoads") == true })
        #expect(insecure.message.contains("truth value (YES here)"))
        #expect(insecure.message.contains("before iOS 18.4"))
        #expect(insecure.message.contains("write <true/>"))
        let rfs = try #require(numeric.first { $0.keyPath?.hasSuffix("NSExceptionRequiresForwardSecrecy") == true })
        #expect(rfs.message.contains("(NO here)") && rfs.message.contains("default (YES)"))
        // The catalogue no longer claims that only 1 reads as YES or that the number is ignored.
        let descriptor = try #require(RuleRegistry.plist.descriptor(for: RuleID.Plist.valueNumericBoolean))
        #expect(!descriptor.title.contains("only 1"))
        #expect(descriptor.help.contains("truth value"))
    }
}
