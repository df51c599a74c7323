import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The corpus of derived minimal cases (Tests/Fixtures/plist-corpus, issue 32): each reproduces a pattern of real,
/// public Info.plists. Every case is read without exit 65, has no duplicate alert, and every message that states a
/// host's fate agrees with `--explain`; each case's own expectations (corpus.json) hold.
@Suite("plist corpus")
struct PlistCorpusTests {
    struct Case: Decodable, Sendable, CustomStringConvertible {
        var file: String
        var pattern: String
        var configurations: Int
        var expect: [String]
        var absent: [String]
        var xcconfig: String?
        var deploymentTarget: String?
        var maxSeverity: String?
        var description: String { "\(file)\(xcconfig.map { " with \($0)" } ?? ""): \(pattern)" }
    }

    struct Corpus: Decodable {
        var cases: [Case]
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plist-corpus")

    static let cases: [Case] = {
        let data = (try? Data(contentsOf: folder.appendingPathComponent("corpus.json"))) ?? Data()
        return (try? JSONDecoder().decode(Corpus.self, from: data))?.cases ?? []
    }()

    @Test("the corpus is there: every derived case of the issue, each file present")
    func present() {
        #expect(Self.cases.count >= 10)
        for c in Self.cases {
            let path = Self.folder.appendingPathComponent(c.file).path
            #expect(FileManager.default.fileExists(atPath: path), "\(c.file)")
        }
    }

    @Test("each case: read, one alert per problem, messages as --explain says, its expectations", arguments: cases)
    func lint(_ c: Case) throws {
        var settings = BuildSettings()
        if let xcconfig = c.xcconfig {
            settings = try XCConfigFile.load(path: Self.folder.appendingPathComponent(xcconfig).path)
        }
        let source = try PlistSource.load(
            path: Self.folder.appendingPathComponent(c.file).path, options: PlistReadOptions(buildSettings: settings))
        #expect(source.configurations.count == c.configurations)
        let options = PlistLinter.Options(deploymentTarget: c.deploymentTarget, settings: settings)
        let findings = PlistLinter.lint(source, options: options)
        // One alert per problem: no finding twice, at most one duplicate-key finding per key path.
        let places = findings.map { "\($0.rule) \($0.line ?? 0) \($0.keyPath ?? "") \($0.configuration ?? "")" }
        #expect(Set(places).count == places.count, "\(places)")
        let duplicates = findings.filter { $0.rule == PlistRuleID.keyDuplicate }.compactMap(\.keyPath)
        #expect(Set(duplicates).count == duplicates.count)
        // Lines are the source file's: every finding with a line is on a line of the file.
        let lines = try String(contentsOf: Self.folder.appendingPathComponent(c.file), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(findings.allSatisfy { ($0.line ?? 1) <= lines })
        for document in source.configurations {
            FindingConsequenceTests.check(document, options: options)
        }
        let rules = Set(findings.map(\.rule.rawValue))
        for rule in c.expect { #expect(rules.contains(rule), "\(rule) missing: \(findings.map(\.message))") }
        for rule in c.absent { #expect(!rules.contains(rule), "\(rule) present: \(findings.map(\.message))") }
        if let max = c.maxSeverity.flatMap(Finding.Severity.init(rawValue:)) {
            #expect(findings.allSatisfy { $0.severity <= max }, "\(findings.map(\.message))")
        }
    }

    @Test("the ownCloud case: the ATS findings say which configuration they hold in")
    func ownCloudScoped() throws {
        let source = try PlistSource.load(path: Self.folder.appendingPathComponent("ifdef-around-ats.plist").path)
        let findings = PlistLinter.lint(source)
        let dead = try #require(findings.first { $0.rule == PlistRuleID.deadArbitraryLoadsIgnored })
        #expect(dead.configuration == "OC_ALLOW_INSECURE_CONNECTIONS defined")
        #expect(dead.line == 16)
    }

    @Test("the Catalyst case: judged from the iOS deployment target; the skipped entry's fate is ATS off")
    func catalyst() throws {
        let source = try PlistSource.load(path: Self.folder.appendingPathComponent("catalyst-minimum.plist").path)
        let findings = PlistLinter.lint(source, options: .init(deploymentTarget: "15.6"))
        let skipped = try #require(findings.first { $0.rule == PlistRuleID.valueWrongType })
        #expect(skipped.message.contains("on iOS 17+: NSAllowsArbitraryLoads = YES turns ATS off"))
        #expect(skipped.message.contains("on iOS 15.6–16: IP literals are exempt from ATS"))
    }
}
