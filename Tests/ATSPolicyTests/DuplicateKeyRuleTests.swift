import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// `plist.key.duplicate` (issues 8, 32): a key written twice in one dictionary is one finding, at the occurrence
/// that is ignored, naming the one that takes effect; its weight follows whether ATS reads the key.
@Suite("plist.key.duplicate")
struct DuplicateKeyRuleTests {
    @Test("Foundation keeps the second of two values for the same key")
    func foundationKeepsTheSecond() throws {
        let document = try PlistDocument.parse(
            data: PlistFixtures.infoPlist(
                "<key>NSAllowsArbitraryLoads</key>\n<true/>\n<key>NSAllowsArbitraryLoads</key>\n<false/>"),
            file: "Info.plist")
        #expect(document.atsDictionary?["NSAllowsArbitraryLoads"] as? Bool == false)
    }

    @Test("a duplicated ATS key is one error, at the ignored line, naming the line that takes effect")
    func oneFinding() throws {
        // Header lines 1–3, <dict> 4, CFBundleIdentifier 5, NSAppTransportSecurity 6, <dict> 7, body from 8.
        let findings = try PlistFixtures.lint(
            "<key>NSAllowsArbitraryLoads</key>\n<true/>\n<key>NSAllowsArbitraryLoads</key>\n<false/>")
        let duplicates = findings.filter { $0.rule == PlistRuleID.keyDuplicate }
        #expect(duplicates.count == 1)
        let finding = try #require(duplicates.first)
        #expect(finding.line == 8)
        #expect(finding.severity == .error)
        #expect(finding.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads")
        #expect(finding.keyPathComponents == ["NSAppTransportSecurity", "NSAllowsArbitraryLoads"])
        #expect(finding.message.contains("the value at line 8 is ignored and the one at line 10 takes effect"))
    }

    @Test("three occurrences: one finding listing both ignored lines; the same key in two dictionaries is no duplicate")
    func threeAndSeparateDictionaries() throws {
        let body = """
            <key>NSExceptionDomains</key>
            <dict>
            <key>a.example</key><dict><key>NSIncludesSubdomains</key><true/></dict>
            <key>b.example</key><dict><key>NSIncludesSubdomains</key><true/></dict>
            <key>a.example</key><dict><key>NSIncludesSubdomains</key><true/></dict>
            <key>a.example</key><dict><key>NSIncludesSubdomains</key><false/></dict>
            </dict>
            """
        let duplicates = try PlistFixtures.lint(body).filter { $0.rule == PlistRuleID.keyDuplicate }
        #expect(duplicates.map(\.line) == [10])
        #expect(duplicates.first?.keyPathComponents == ["NSAppTransportSecurity", "NSExceptionDomains", "a.example"])
        #expect(duplicates.first?.message.contains("3 times") == true)
        #expect(duplicates.first?.message.contains("lines 10 and 12 are ignored and the one at line 13") == true)
        #expect(duplicates.first?.severity == .error)
    }

    @Test("a dictionary written twice names the keys the ignored one loses, and findings point at the winner")
    func lostKeys() throws {
        // The ownCloud shape: NSAppTransportSecurity twice; the first one's NSAllowsLocalNetworking is lost.
        let data = PlistFixtures.xml(
            """
            <dict>
            <key>NSAppTransportSecurity</key>
            <dict><key>NSAllowsLocalNetworking</key><true/><key>NSAllowsArbitraryLoads</key><true/></dict>
            <key>CFBundleIdentifier</key><string>x</string>
            <key>NSAppTransportSecurity</key>
            <dict>
            <key>NSAllowsArbitraryLoads</key><string>YES</string>
            </dict>
            </dict>
            """)
        let document = try PlistDocument.parse(data: data, file: "Info.plist")
        let findings = PlistLinter.lint(document)
        let duplicate = try #require(findings.first { $0.rule == PlistRuleID.keyDuplicate })
        #expect(duplicate.line == 5)
        #expect(duplicate.message.contains("line 8 takes effect"))
        #expect(duplicate.message.contains("lost with the ignored value: NSAllowsLocalNetworking"))
        // The wrong-type finding is about the value that takes effect, so it points into the second dictionary.
        let wrongType = try #require(findings.first { $0.rule == PlistRuleID.valueWrongType })
        #expect(wrongType.line == 10)
    }

    struct Case: Sendable, CustomStringConvertible {
        var label: String
        var plist: String
        var severity: Finding.Severity?
        var description: String { label }
    }

    static let weights: [Case] = [
        Case(
            label: "two different alternate icons under CFBundleIcons~ipad: a note (ATS never reads it)",
            plist: """
                <dict><key>CFBundleIcons~ipad</key><dict><key>CFBundleAlternateIcons</key><dict>
                <key>Dark</key><dict><key>CFBundleIconFiles</key><array><string>dark</string></array></dict>
                <key>Dark</key><dict><key>CFBundleIconFiles</key><array><string>dark2</string></array></dict>
                </dict></dict></dict>
                """,
            severity: .note),
        Case(
            label: "a UIDesign key written twice with the same value outside ATS: nothing",
            plist: """
                <dict><key>UIDesignRequiresCompatibility</key><true/>
                <key>UIDesignRequiresCompatibility</key><true/></dict>
                """,
            severity: nil),
        Case(
            label: "the same ATS value written twice: a note (nothing is lost)",
            plist: """
                <dict><key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/>
                <key>NSAllowsArbitraryLoads</key><true/></dict></dict>
                """,
            severity: .note),
        Case(
            label: "two different TSKConfiguration values: an error (atscheck reads TrustKit's pins)",
            plist: """
                <dict><key>TSKConfiguration</key><dict><key>TSKSwizzleNetworkDelegates</key><true/>
                <key>TSKSwizzleNetworkDelegates</key><false/></dict></dict>
                """,
            severity: .error),
    ]

    @Test("the severity follows whether ATS reads the key and whether the values differ", arguments: weights)
    func weight(_ c: Case) throws {
        let document = try PlistDocument.parse(data: PlistFixtures.xml(c.plist), file: "Info.plist")
        let duplicates = PlistLinter.lint(document).filter { $0.rule == PlistRuleID.keyDuplicate }
        #expect(duplicates.map(\.severity) == (c.severity.map { [$0] } ?? []))
    }

    @Test("the rule is in the catalogue as an error")
    func catalogue() {
        #expect(RuleRegistry.plist.entries.contains { $0.id == "plist.key.duplicate" && $0.severity == .error })
    }
}
