import Foundation
import TLSModel
import Testing

@Suite("Rule catalogue")
struct RuleCatalogueTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let catalogueDirectory = packageRoot.appendingPathComponent("Sources/TLSModel/Rules")

    /// `static let name: RuleID = "id"` declarations in the catalogue files.
    static func declaredConstants() throws -> [String] {
        let files = try FileManager.default.contentsOfDirectory(atPath: catalogueDirectory.path)
            .filter { $0.hasPrefix("RuleCatalogue+") && $0.hasSuffix(".swift") }
        #expect(files.count >= 4, "catalogue files not found in \(catalogueDirectory.path)")
        let pattern = try NSRegularExpression(pattern: #"static let \w+: RuleID = "([^"]+)""#)
        var ids: [String] = []
        for file in files {
            let text = try String(contentsOf: catalogueDirectory.appendingPathComponent(file), encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                ids.append(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return ids
    }

    @Test("ids and anchors are unique; every entry has a title and a help paragraph")
    func entries() {
        let ids = RuleCatalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate ids")
        #expect(Set(RuleCatalogue.all.map(\.anchor)).count == ids.count, "duplicate anchors")
        for rule in RuleCatalogue.all {
            #expect(!rule.title.isEmpty && rule.title.hasSuffix("."), "\(rule.id): title")
            #expect(rule.help.count > rule.title.count && rule.help.hasSuffix("."), "\(rule.id): help")
            #expect(!rule.help.contains("  ") && !rule.help.contains("\n"), "\(rule.id): help is one paragraph")
            #expect(RuleCatalogue.descriptor(for: rule.id) == rule)
            #expect(rule.helpURI == "https://github.com/atscheck/atscheck/blob/main/docs/rules.md#" + rule.anchor)
        }
        #expect(RuleCatalogue.descriptor(for: "no.such.rule") == nil)
        #expect(RuleCatalogue.entries(in: .pins).count == 23, "the pins.* entries of RuleCatalogue+Pins.swift")
    }

    @Test("every RuleID constant declared in the catalogue files has an entry, and every entry a constant")
    func constantsAreCatalogued() throws {
        let declared = try Self.declaredConstants()
        #expect(Set(declared).count == declared.count, "an id declared twice")
        #expect(Set(declared) == Set(RuleCatalogue.all.map(\.id.rawValue)))
    }

    @Test("each id's family matches its prefix, so the families sort the documentation and the diagnostics")
    func families() {
        let prefixes: [RuleFamily: String] = [
            .http: "ats.http.", .tls: "ats.tls.", .trust: "trust.", .scan: "scan.", .plist: "plist.", .audit: "audit.",
            .endpoints: "endpoints.", .baseline: "baseline.", .pins: "pins.", .app: "app.",
        ]
        for rule in RuleCatalogue.all {
            if rule.family == .verdict {
                #expect(["ats.fail", "ats.ambiguous", "ats.unknown"].contains(rule.id.rawValue))
            } else {
                #expect(rule.id.rawValue.hasPrefix(prefixes[rule.family] ?? "?"), "\(rule.id) in \(rule.family)")
            }
        }
        #expect(RuleID.ATS.cleartext.family == .http && RuleID.ATS.forwardSecrecy.family == .tls)
        #expect(RuleID.Trust.eku.family == .trust && RuleID("ats.tls.invented").family == nil)
        #expect(RuleID.Plist.catalogue.count == 40 && RuleID.Audit.descriptions[RuleID.Audit.exceptionMissing] != nil)
        #expect(
            RuleCatalogue.all.map(\.family) == RuleCatalogue.all.map(\.family).sorted(),
            "catalogue order is family order")
    }

    @Test("a RuleID encodes as the bare string and orders by its text")
    func coding() throws {
        let data = try JSONEncoder().encode([RuleID.ATS.forwardSecrecy, "x.unknown"])
        #expect(String(decoding: data, as: UTF8.self) == #"["ats.tls.forward-secrecy","x.unknown"]"#)
        #expect(try JSONDecoder().decode([RuleID].self, from: data) == [RuleID.ATS.forwardSecrecy, "x.unknown"])
        #expect(RuleID.Plist.keyMisspelled < RuleID.Plist.keyUnknown)
        #expect(RuleID.Scan.id(for: .timeout) == RuleID.Scan.timeout && RuleID.Scan.id(for: .completed) == nil)
    }

    @Test("no rule id is spelled as a string literal in Sources/ outside the catalogue files")
    func noLiteralIDs() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let pattern = try NSRegularExpression(pattern: #""(ats|trust|plist|audit|endpoints|baseline|scan|pins)\."#)
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var scanned = 0
        var offenders: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            if url.deletingLastPathComponent().path == Self.catalogueDirectory.path
                && url.lastPathComponent.hasPrefix("RuleCatalogue+")
            {
                continue
            }
            scanned += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    offenders.append(
                        "\(url.path.dropFirst(sources.path.count + 1)):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))"
                    )
                }
            }
        }
        #expect(scanned > 50, "Sources/ not found")
        #expect(offenders.isEmpty, "use RuleID constants:\n\(offenders.joined(separator: "\n"))")
    }
}
