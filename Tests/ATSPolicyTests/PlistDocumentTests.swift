import Foundation
import Testing

@testable import ATSPolicy

@Suite("PlistDocument")
struct PlistDocumentTests {
    @Test("an XML Info.plist: format, kind, ATS dictionary and key lines")
    func xmlInfoPlist() throws {
        let data = PlistFixtures.xml(
            """
            <dict>
              <key>CFBundleIdentifier</key>
              <string>com.example.app</string>
              <key>NSAppTransportSecurity</key>
              <dict>
                <key>NSExceptionDomains</key>
                <dict>
                  <key>example.com</key>
                  <dict>
                    <key>NSIncludesSubdomains</key>
                    <true/>
                  </dict>
                </dict>
                <key>NSPinnedDomains</key>
                <dict>
                  <key>pinned.example.com</key>
                  <dict>
                    <key>NSPinnedLeafIdentities</key>
                    <array>
                      <dict><key>SPKI-SHA256-BASE64</key><string>x</string></dict>
                      <dict>
                        <key>SPKI-SHA256-BASE64</key><string>y</string>
                      </dict>
                    </array>
                  </dict>
                </dict>
              </dict>
            </dict>
            """)
        let doc = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(doc.format == .xml)
        #expect(doc.kind == .infoPlist)
        #expect(doc.atsDictionary?["NSExceptionDomains"] != nil)
        #expect(doc.line(forKeyPath: ["CFBundleIdentifier"]) == 5)
        #expect(doc.line(forKeyPath: ["NSAppTransportSecurity"]) == 7)
        #expect(doc.line(forKeyPath: ["NSAppTransportSecurity", "NSExceptionDomains"]) == 9)
        #expect(doc.line(forKeyPath: ["NSAppTransportSecurity", "NSExceptionDomains", "example.com"]) == 11)
        #expect(doc.line(forATSKeyPath: ["NSExceptionDomains", "example.com", "NSIncludesSubdomains"]) == 13)
        #expect(
            doc.line(forATSKeyPath: ["NSPinnedDomains", "pinned.example.com", "NSPinnedLeafIdentities", "0"]) == 23)
        #expect(
            doc.line(forATSKeyPath: [
                "NSPinnedDomains", "pinned.example.com", "NSPinnedLeafIdentities", "1", "SPKI-SHA256-BASE64",
            ]) == 25)
        #expect(doc.line(forKeyPath: ["NoSuchKey"]) == nil)
    }

    @Test("a bare NSAppTransportSecurity dictionary is recognised")
    func bareATSDictionary() throws {
        let data = PlistFixtures.xml("<dict>\n<key>NSAllowsArbitraryLoads</key>\n<true/>\n</dict>")
        let doc = try PlistDocument.parse(data: data, file: "ats.plist")
        #expect(doc.kind == .atsDictionary)
        #expect(doc.atsPathInFile == [])
        #expect(doc.atsDictionary?["NSAllowsArbitraryLoads"] as? Bool == true)
        #expect(doc.line(forATSKeyPath: ["NSAllowsArbitraryLoads"]) == 5)
    }

    @Test("a bare dictionary whose only key is misspelled is still an ATS dictionary")
    func bareMisspelled() throws {
        let data = PlistFixtures.xml("<dict><key>NSAllowArbitraryLoads</key><true/></dict>")
        #expect(try PlistDocument.parse(data: data, file: "a.plist").kind == .atsDictionary)
    }

    @Test("an Info.plist without ATS is an Info.plist")
    func infoPlistWithoutATS() throws {
        let data = PlistFixtures.xml("<dict><key>CFBundleName</key><string>App</string></dict>")
        let doc = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(doc.kind == .infoPlist)
        #expect(doc.atsDictionary == nil)
    }

    @Test("a binary plist parses, with no line numbers")
    func binaryPlist() throws {
        let data = try PlistFixtures.binary([
            "NSAppTransportSecurity": ["NSAllowsArbitraryLoads": true, "NSExceptionDomains": ["a.com": [:]]]
        ])
        let doc = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(doc.format == .binary)
        #expect(doc.kind == .infoPlist)
        #expect(doc.atsDictionary?["NSAllowsArbitraryLoads"] as? Bool == true)
        #expect(doc.line(forKeyPath: ["NSAppTransportSecurity", "NSAllowsArbitraryLoads"]) == nil)
    }

    @Test("an OpenStep plist parses, with no line numbers, and lints")
    func openStepPlist() throws {
        let text = #"{ NSAppTransportSecurity = { NSExceptionDomains = { "Example.com" = { }; }; }; }"#
        let doc = try PlistDocument.parse(data: Data(text.utf8), file: "old.plist")
        #expect(doc.format == .openStep)
        #expect(doc.kind == .infoPlist)
        let findings = PlistLinter.lint(doc)
        #expect(findings.map(\.rule) == [PlistRuleID.domainUppercase])
        #expect(findings.first?.line == nil)
    }

    @Test("load reads a file from disk")
    func loadFromDisk() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atscheck-\(UUID().uuidString).plist")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PlistFixtures.infoPlist("<key>NSAllowsArbitraryLoads</key><false/>").write(to: URL(fileURLWithPath: path))
        let doc = try PlistDocument.load(path: path)
        #expect(doc.file == path)
        #expect(doc.atsDictionary?["NSAllowsArbitraryLoads"] as? Bool == false)
    }

    @Test("a missing file throws unreadable, naming the file")
    func missingFile() throws {
        let error = try #require(throws: PlistError.self) { try PlistDocument.load(path: "/nonexistent/Info.plist") }
        #expect(error.code == .unreadable)
        #expect(error.description.hasPrefix("/nonexistent/Info.plist: "))
        #expect(error.description.contains("no such file"))
    }

    @Test(
        "malformed plists throw malformed",
        arguments: [
            "<dict><key>a</key></dict>",  // a key with no value
            "<dict><key>a</key><true/>",  // unclosed dict
            "<dict><key>a</key><string>x</dict>",  // mismatched tag
        ])
    func malformed(body: String) throws {
        let error = try #require(throws: PlistError.self) {
            try PlistDocument.parse(data: PlistFixtures.xml(body), file: "bad.plist")
        }
        #expect(error.code == .malformed)
        #expect(error.file == "bad.plist")
        #expect(error.description.hasPrefix("bad.plist"))
        #expect(error.reason.hasPrefix("malformed plist"))
        #expect(!error.description.contains("\n"))
    }

    @Test("garbage and empty input throw malformed")
    func garbage() throws {
        for data in [Data("this is not a plist {{{".utf8), Data()] {
            let error = try #require(throws: PlistError.self) { try PlistDocument.parse(data: data, file: "x") }
            #expect(error.code == .malformed)
        }
    }

    @Test("a root that is not a dictionary throws notADictionary")
    func rootNotDictionary() throws {
        let error = try #require(throws: PlistError.self) {
            try PlistDocument.parse(data: PlistFixtures.xml("<array><string>a</string></array>"), file: "x.plist")
        }
        #expect(error.code == .notADictionary)
        #expect(error.reason.contains("<array>"))
    }
}
