import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// Real Info.plists from public apps (Tests/Fixtures/plist-corpus/real; sources and licences in its NOTICE.md and
/// manifest.tsv), beside the derived cases of ``PlistCorpusTests``: each is read as Xcode builds it, raises each
/// problem once, fails only for what ATS reads, and every message that states a host's fate agrees with `--explain`.
@Suite("Real Info.plists from public apps")
struct RealPlistCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plist-corpus/real")

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".plist") }.sorted()
    }()

    @Test("the corpus is there: 37 files from 20+ repositories, each with its source and licence")
    func corpus() throws {
        #expect(Self.files.count >= 35)
        let manifest = try String(contentsOf: Self.folder.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        let rows = manifest.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(Set(rows.map { $0[0] }) == Set(Self.files), "every file has its source, and only those")
        #expect(Set(rows.map { $0[1] }).count >= 20)
        #expect(rows.allSatisfy { ["MIT", "Apache-2.0", "BSD-3-Clause", "MPL-2.0"].contains($0[4]) })
        #expect(rows.filter { $0.last == "yes" }.count >= 25)
    }

    @Test("each file: read, one alert per problem, errors only about ATS, messages as --explain says", arguments: files)
    func lint(file: String) throws {
        let url = Self.folder.appendingPathComponent(file)
        let source = try PlistSource.load(path: url.path)
        let findings = PlistLinter.lint(source)
        let places = findings.map { "\($0.rule) \($0.line ?? 0) \($0.keyPath ?? "") \($0.configuration ?? "")" }
        #expect(Set(places).count == places.count, "\(file): \(places)")
        let lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .count
        #expect(findings.allSatisfy { ($0.line ?? 1) <= lines }, "\(file)")
        // A key ATS does not read (an icon entry or a usage string written twice) is at most a note.
        for finding in findings where finding.severity == .error {
            let atsKey =
                (finding.keyPath ?? "").hasPrefix("NSAppTransportSecurity")
                || finding.message.contains("NSAppTransportSecurity")
            #expect(atsKey, "\(file): \(finding.rule) \(finding.message)")
        }
        for document in source.configurations {
            FindingConsequenceTests.check(document, options: PlistLinter.Options())
        }
    }
}
