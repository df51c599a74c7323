import Testing

@testable import ATSPolicy

/// Which combinations of definitions are judged, and what each configuration is called.
@Suite("PlistConfigurations")
struct PlistConfigurationsTests {
    @Test("all combinations within the bound; beyond it none, each alone, then pairs")
    func choose() {
        #expect(PlistConfigurations.choose(names: ["A", "B"], limit: 8).assignments.count == 4)
        let many = PlistConfigurations.choose(names: ["A", "B", "C", "D", "E"], limit: 8)
        #expect(many.total == 32)
        #expect(many.assignments.count == 8)
        #expect(many.assignments[0].defined.values.allSatisfy { !$0 })
        #expect(many.assignments[1...5].allSatisfy { $0.defined.values.filter { $0 }.count == 1 })
        #expect(PlistConfigurations.choose(names: [], limit: 8).assignments.count == 1)
    }

    @Test("a label names only the definitions that make the configuration, in the order the file tests them")
    func label() {
        let a = PlistConfigurations.Assignment(defined: ["OUTER": false, "INNER": false])
        let b = PlistConfigurations.Assignment(defined: ["OUTER": false, "INNER": true])
        #expect(PlistConfigurations.label([a, b], names: ["OUTER", "INNER"]) == "OUTER not defined")
        #expect(PlistConfigurations.label([b], names: ["OUTER", "INNER"]) == "OUTER not defined, INNER defined")
    }

    @Test("more names than the bound: a note says how many configurations were judged")
    func limitedNote() throws {
        let body = (1...4).map { "#ifdef N\($0)\n<key>K\($0)</key><true/>\n#endif" }.joined(separator: "\n")
        let source = try PlistSourceTests.source(PlistFixtureText.info(body))
        #expect(source.configurations.count == 8)
        #expect(source.findings.map(\.rule) == [PlistRuleID.sourceConfigurationsLimited])
        #expect(source.findings.first?.message.contains("16 configurations: atscheck judged 8") == true)
    }
}
