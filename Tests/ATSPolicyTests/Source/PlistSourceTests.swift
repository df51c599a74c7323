import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// Info.plists read as Xcode builds them (issue 32): preprocessed, build settings expanded, one document per
/// configuration, line numbers of the source file.
@Suite("PlistSource")
struct PlistSourceTests {
    /// The ownCloud pattern: the whole ATS dictionary inside `#ifdef`.
    static let ownCloudStyle = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>LSRequiresIPhoneOS</key>
        \t<true/>
        #ifdef ALLOW_INSECURE
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowsArbitraryLoads</key>
        \t\t<string>YES</string>
        \t</dict>
        #endif
        </dict>
        </plist>
        """

    static func source(_ text: String, options: PlistReadOptions = PlistReadOptions()) throws -> PlistSource {
        try PlistSource.parse(data: Data(text.utf8), file: "Info.plist", options: options)
    }

    @Test("a file with #ifdef is not malformed: each configuration is a document, named")
    func configurations() throws {
        let source = try Self.source(Self.ownCloudStyle)
        #expect(source.configurations.count == 2)
        #expect(source.configurations.map(\.configuration) == ["ALLOW_INSECURE not defined", "ALLOW_INSECURE defined"])
        #expect(source.configurations[0].atsDictionary == nil)
        #expect(source.configurations[1].atsDictionary?["NSAllowsArbitraryLoads"] as? String == "YES")
    }

    @Test("line numbers are the source file's, and a finding says which configuration it holds in")
    func lines() throws {
        let findings = PlistLinter.lint(try Self.source(Self.ownCloudStyle))
        let wrongType = try #require(findings.first { $0.rule == PlistRuleID.valueWrongType })
        #expect(wrongType.line == 10)
        #expect(wrongType.configuration == "ALLOW_INSECURE defined")
        #expect(wrongType.message.hasSuffix("(only with ALLOW_INSECURE defined)"))
        let absent = try #require(findings.first { $0.rule == PlistRuleID.atsAbsent })
        #expect(absent.configuration == "ALLOW_INSECURE not defined")
    }

    @Test("--define chooses one configuration; a name not given is not defined")
    func defined() throws {
        let chosen = try Self.source(
            Self.ownCloudStyle, options: PlistReadOptions(definitions: ["ALLOW_INSECURE": PreprocessorMacro()]))
        #expect(chosen.configurations.count == 1)
        #expect(chosen.document.configuration == nil)
        #expect(chosen.document.atsDictionary != nil)
        let none = try Self.source(Self.ownCloudStyle, options: PlistReadOptions(definitions: [:]))
        #expect(none.configurations.count == 1 && none.document.atsDictionary == nil)
    }

    @Test("INFOPLIST_PREPROCESSOR_DEFINITIONS chooses like --define; INFOPLIST_PREPROCESS = NO reads the file as is")
    func settingsChoose() throws {
        let defined = try Self.source(
            Self.ownCloudStyle,
            options: PlistReadOptions(
                buildSettings: BuildSettings(["INFOPLIST_PREPROCESSOR_DEFINITIONS": "ALLOW_INSECURE"])))
        #expect(defined.configurations.count == 1 && defined.document.atsDictionary != nil)
        #expect {
            try Self.source(
                Self.ownCloudStyle,
                options: PlistReadOptions(buildSettings: BuildSettings(["INFOPLIST_PREPROCESS": "NO"])))
        } throws: { ($0 as? PlistError)?.code == .malformed }
    }

    @Test("build settings expand in exception-domain keys, and the line of the key is kept")
    func settingsInKeys() throws {
        let text = PlistFixtureText.info(
            "<key>NSExceptionDomains</key>\n<dict>\n<key>$(API_HOST)</key>\n<dict/>\n</dict>")
        let resolved = try Self.source(
            text, options: PlistReadOptions(buildSettings: BuildSettings(["API_HOST": "api.example.com"])))
        #expect(
            ATSConfiguration(dictionary: resolved.document.atsDictionary ?? [:]).exceptionDomains.keys.sorted()
                == ["api.example.com"])
        #expect(resolved.document.line(forATSKeyPath: ["NSExceptionDomains", "api.example.com"]) == 10)
        #expect(resolved.document.unresolvedSettings.isEmpty)
        let unresolved = try Self.source(text)
        #expect(unresolved.document.unresolvedSettings.map(\.names) == [["API_HOST"]])
        #expect(unresolved.document.unresolvedSettings.first?.inKey == true)
    }

    @Test("a configuration that does not parse is a warning when others do; none parsing is malformed input")
    func invalidConfiguration() throws {
        let text = PlistFixtureText.info("#ifdef BROKEN\n<key>A</key>\n#endif\n<key>B</key><true/>")
        let source = try Self.source(text)
        #expect(source.configurations.count == 1)
        #expect(source.findings.map(\.rule) == [PlistRuleID.sourceConfigurationInvalid])
        #expect(source.findings.first?.message.contains("BROKEN defined") == true)
        #expect {
            try Self.source(PlistFixtureText.info("#if 1\n<key>A</key>\n#endif"))
        } throws: { error in
            guard let error = error as? PlistError else { return false }
            return error.code == .malformed && error.line != nil
        }
    }

    @Test("#error in the configuration built is malformed input at its line")
    func errorDirective() throws {
        #expect {
            try Self.source(PlistFixtureText.info("#error not ready"), options: PlistReadOptions(definitions: [:]))
        } throws: { error in
            guard let error = error as? PlistError else { return false }
            return error.code == .malformed && error.line == 8 && error.reason.contains("#error not ready")
        }
    }

    @Test("a binary plist and a plist without directives are read as they are")
    func plain() throws {
        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["NSAppTransportSecurity": ["NSAllowsArbitraryLoads": true]], format: .binary, options: 0)
        let source = try PlistSource.parse(data: binary, file: "Info.plist")
        #expect(source.configurations.count == 1 && source.document.format == .binary)
        #expect(try Self.source(PlistFixtureText.info("")).configurations.count == 1)
    }

    @Test("#include of a local file, relative to the plist")
    func include() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("atscheck-include-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("<key>NSAllowsArbitraryLoads</key>\n<true/>".utf8).write(to: dir.appendingPathComponent("ats.inc"))
        try Data(PlistFixtureText.info("#include \"ats.inc\"").utf8).write(to: dir.appendingPathComponent("Info.plist"))
        let source = try PlistSource.load(path: dir.appendingPathComponent("Info.plist").path)
        #expect(source.document.atsDictionary?["NSAllowsArbitraryLoads"] as? Bool == true)
        #expect(source.document.line(forATSKeyPath: ["NSAllowsArbitraryLoads"]) == 8)
    }
}

/// Plist text for source tests: an Info.plist whose ATS dictionary starts on line 8.
enum PlistFixtureText {
    /// Lines 1–3 header, 4 `<dict>`, 5 a key, 6 `NSAppTransportSecurity`, 7 `<dict>`, the body from line 8.
    static func info(_ atsBody: String) -> String {
        PlistFixtures.header + "\n<dict>\n<key>CFBundleIdentifier</key><string>x</string>\n"
            + "<key>NSAppTransportSecurity</key>\n<dict>\n\(atsBody)\n</dict>\n</dict>\n</plist>\n"
    }
}
