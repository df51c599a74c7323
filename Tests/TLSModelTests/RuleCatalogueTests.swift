import Foundation
import TLSModel
import Testing

@Suite("Rule catalogue")
struct RuleCatalogueTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let catalogueDirectory = packageRoot.appendingPathComponent("Sources/TLSModel/Rules")

    static let entryA = RuleDescriptor(RuleID.Scan.timeout, .scan, .warning, title: "A.", help: "A, longer.")
    static let entryB = RuleDescriptor(RuleID.Pins.rejected, .pins, .error, title: "B.", help: "B, longer.")

    /// The single check over the whole catalogue (every registry's ids catalogued once, every constant declared by
    /// a registry) is `RuleRegistryTests` in ATSCheckKitFakeProberTests, where every registry is visible.
    @Test("a catalogue is the concatenation of its registries, looked up by id")
    func concatenation() {
        let catalogue = RuleCatalogue([
            RuleRegistry("one", entries: [Self.entryA]), RuleRegistry("two", entries: [Self.entryB]),
        ])
        #expect(catalogue.all == [Self.entryA, Self.entryB])
        #expect(catalogue.descriptor(for: RuleID.Pins.rejected) == Self.entryB)
        #expect(catalogue.family(of: RuleID.Scan.timeout) == .scan && catalogue.family(of: "no.such.rule") == nil)
        #expect(catalogue.entries(in: .pins) == [Self.entryB] && catalogue.entries(in: .trust).isEmpty)
        #expect(catalogue.titles[RuleID.Scan.timeout] == "A.")
        #expect(RuleRegistry.pins.descriptor(for: RuleID.Pins.rejected)?.family == .pins)
        #expect(RuleRegistry.pins.descriptor(for: RuleID.Scan.timeout) == nil)
    }

    @Test("a RuleID encodes as the bare string and orders by its text")
    func coding() throws {
        let data = try JSONEncoder().encode([RuleID.ATS.forwardSecrecy, "x.unknown"])
        #expect(String(decoding: data, as: UTF8.self) == #"["ats.tls.forward-secrecy","x.unknown"]"#)
        #expect(try JSONDecoder().decode([RuleID].self, from: data) == [RuleID.ATS.forwardSecrecy, "x.unknown"])
        #expect(RuleID("plist.key.misspelled") < RuleID("plist.key.unknown"))
        #expect(RuleID.Scan.id(for: .timeout) == RuleID.Scan.timeout && RuleID.Scan.id(for: .completed) == nil)
    }

    @Test("a rule id is spelled only where a rule or registry declares it as a constant")
    func noLiteralIDs() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let pattern = try NSRegularExpression(pattern: #""(ats|trust|plist|audit|endpoints|baseline|scan|info|pins)\."#)
        // A rule's file (or a registry of plain entries) declares each id it emits once, beside its entry:
        // `static let name: RuleID = "id"`. `RuleRegistryTests` checks each such constant is catalogued.
        let declaration = try NSRegularExpression(pattern: #"^\s*(public |package )?static let \w+: RuleID = "[^"]+"$"#)
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var scanned = 0
        var offenders: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            // The standards table maps id prefixes to the standards a finding cites.
            if url.lastPathComponent == "RuleCatalogue+Standards.swift" { continue }
            scanned += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                let range = NSRange(line.startIndex..., in: line)
                if pattern.firstMatch(in: line, range: range) != nil
                    && declaration.firstMatch(in: line, range: range) == nil
                {
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
