import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import TLSModel
import Testing

/// The one check over the rule registries: the catalogue is their concatenation, every id a registry declares is
/// catalogued once, and every id constant (code spells an id only where a rule or registry declares it:
/// `RuleCatalogueTests.noLiteralIDs`) is declared by a registry, so an id emitted in code always has its entry.
@Suite("Rule registries")
struct RuleRegistryTests {
    static let catalogue = RuleCatalogue.atscheck
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = packageRoot.appendingPathComponent("Sources")

    /// `static let name: RuleID = "id"` declarations anywhere in Sources/: the id constants, each in the file of
    /// the rule that emits it (or of a registry of plain entries).
    static func declaredConstants() throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let files = enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50, "Sources/ not found at \(sources.path)")
        let pattern = try NSRegularExpression(pattern: #"static let \w+: RuleID = "([^"]+)""#)
        var ids: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                ids.append(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return ids
    }

    @Test("the catalogue is the registries concatenated; each id is declared by one registry, once")
    func concatenation() {
        let catalogue = Self.catalogue
        #expect(catalogue.all == catalogue.registries.flatMap(\.entries))
        let ids = catalogue.registries.flatMap(\.ids)
        #expect(Set(ids).count == ids.count, "an id declared twice")
        #expect(Set(catalogue.registries.map(\.name)).count == catalogue.registries.count, "a registry given twice")
        for registry in catalogue.registries {
            #expect(!registry.entries.isEmpty, "\(registry.name) is empty")
            #expect(Set(registry.entries.map(\.family)).count == 1, "\(registry.name) mixes families")
        }
        #expect(
            catalogue.all.map(\.family) == catalogue.all.map(\.family).sorted(), "catalogue order is family order")
    }

    @Test("every RuleID constant is declared by a registry, and every registry id has a constant")
    func constantsAreDeclared() throws {
        let declared = try Self.declaredConstants()
        #expect(Set(declared).count == declared.count, "an id constant declared twice")
        #expect(Set(declared) == Set(Self.catalogue.all.map(\.id.rawValue)))
    }

    @Test("ids and anchors are unique; every entry has a title and a help paragraph")
    func entries() {
        let catalogue = Self.catalogue
        let ids = catalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate ids")
        #expect(Set(catalogue.all.map(\.anchor)).count == ids.count, "duplicate anchors")
        for rule in catalogue.all {
            #expect(!rule.title.isEmpty && rule.title.hasSuffix("."), "\(rule.id): title")
            #expect(rule.help.count > rule.title.count && rule.help.hasSuffix("."), "\(rule.id): help")
            #expect(!rule.help.contains("  ") && !rule.help.contains("\n"), "\(rule.id): help is one paragraph")
            #expect(catalogue.descriptor(for: rule.id) == rule)
            #expect(rule.helpURI == "https://github.com/atscheck/atscheck/blob/main/docs/rules.md#" + rule.anchor)
        }
        #expect(catalogue.descriptor(for: "no.such.rule") == nil)
        #expect(catalogue.entries(in: .pins).count == 23, "the pins.* entries of RuleCatalogue+Pins.swift")
    }

    @Test("each id's family matches its prefix, so the families sort the documentation and the diagnostics")
    func families() {
        let catalogue = Self.catalogue
        let prefixes: [RuleFamily: String] = [
            .http: "ats.http.", .tls: "ats.tls.", .trust: "trust.", .scan: "scan.", .info: "info.",
            .required: "required.", .plist: "plist.",
            .audit: "audit.",
            .endpoints: "endpoints.", .baseline: "baseline.", .pins: "pins.", .app: "app.",
        ]
        for rule in catalogue.all {
            if rule.family == .verdict {
                #expect(["ats.fail", "ats.ambiguous", "ats.unknown"].contains(rule.id.rawValue))
            } else {
                #expect(rule.id.rawValue.hasPrefix(prefixes[rule.family] ?? "?"), "\(rule.id) in \(rule.family)")
            }
        }
        #expect(
            catalogue.family(of: RuleID.ATS.cleartext) == .http
                && catalogue.family(of: RuleID.ATS.forwardSecrecy) == .tls)
        #expect(catalogue.family(of: RuleID.Trust.eku) == .trust && catalogue.family(of: "ats.tls.invented") == nil)
        #expect(
            RuleRegistry.plist.entries.count == 40
                && RuleRegistry.audit.descriptor(for: RuleID.Audit.exceptionMissing)
                    != nil
        )
    }
}
