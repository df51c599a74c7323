import Foundation
import Testing

@testable import ATSPolicy

/// `plist.key.duplicate` (issue 8): a key written twice in one dictionary, reported at both lines.
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

    @Test("a duplicated ATS key is an error at both lines, saying the second value takes effect")
    func bothLines() throws {
        // Header lines 1–3, <dict> 4, CFBundleIdentifier 5, NSAppTransportSecurity 6, <dict> 7, body from 8.
        let findings = try PlistFixtures.lint(
            "<key>NSAllowsArbitraryLoads</key>\n<true/>\n<key>NSAllowsArbitraryLoads</key>\n<false/>")
        let duplicates = findings.filter { $0.rule == PlistRuleID.keyDuplicate }
        #expect(duplicates.map(\.line) == [8, 10])
        #expect(duplicates.allSatisfy { $0.severity == .error })
        #expect(duplicates.allSatisfy { $0.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads" })
        #expect(
            duplicates.allSatisfy {
                $0.message.contains("lines 8 and 10") && $0.message.contains("only the second value takes effect")
            })
        #expect(duplicates[0].message.contains("this value is ignored"))
        #expect(duplicates[1].message.contains("this value takes effect"))
    }

    @Test("three occurrences: three findings; the same key in two different dictionaries is no duplicate")
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
        #expect(duplicates.map(\.line) == [10, 12, 13])
        #expect(duplicates.allSatisfy { $0.keyPath == "NSAppTransportSecurity.NSExceptionDomains.a.example" })
        #expect(duplicates.first?.message.contains("3 times") == true)
    }

    @Test("the rule is in the catalogue as an error")
    func catalogue() {
        #expect(PlistRuleID.catalogue.contains { $0.id == "plist.key.duplicate" && $0.severity == .error })
    }
}
