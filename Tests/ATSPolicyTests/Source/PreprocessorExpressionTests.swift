import Testing

@testable import ATSPolicy

/// `#if` conditions evaluate as C's preprocessor does (C11 §6.10.1).
@Suite("PreprocessorExpression")
struct PreprocessorExpressionTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var value: Int64
        var description: String { text }
    }

    static let macros: [String: PreprocessorMacro] = [
        "DEBUG": PreprocessorMacro(), "LEVEL": PreprocessorMacro(value: "3"),
        "ALIAS": PreprocessorMacro(value: "LEVEL + 1"), "EMPTY": PreprocessorMacro(value: ""),
    ]

    /// `ALIAS * 2` is `LEVEL + 1 * 2`: a macro is its tokens, not a parenthesised value, as in C.
    static let cases: [Case] = [
        Case(text: "1", value: 1), Case(text: "0", value: 0), Case(text: "DEBUG", value: 1),
        Case(text: "UNKNOWN", value: 0), Case(text: "defined(DEBUG)", value: 1), Case(text: "defined DEBUG", value: 1),
        Case(text: "defined(UNKNOWN)", value: 0), Case(text: "!defined(DEBUG) || LEVEL > 2", value: 1),
        Case(text: "LEVEL == 3 && DEBUG", value: 1), Case(text: "ALIAS * 2", value: 5),
        Case(text: "0x10 + 010", value: 24), Case(text: "(1 ? 5 : 6) - 1", value: 4), Case(text: "-1 < 0", value: 1),
        Case(text: "1 << 4 | 1", value: 17), Case(text: "'A'", value: 65), Case(text: "defined(EMPTY)", value: 1),
        Case(text: "7 % 4 == 3", value: 1), Case(text: "!0 + ~0", value: 0), Case(text: "2UL >= 2", value: 1),
    ]

    @Test("conditions evaluate as in C", arguments: cases)
    func evaluates(_ c: Case) throws {
        #expect(try PreprocessorExpression.evaluate(c.text, macros: Self.macros) == c.value)
    }

    @Test("conditions the preprocessor refuses fail with a reason", arguments: ["", "1 +", "(1", "1 / 0", "F(1)", "@"])
    func failures(_ text: String) {
        let macros = ["F": PreprocessorMacro(value: "x", parameters: ["x"])]
        #expect(throws: PreprocessorExpression.Failure.self) {
            try PreprocessorExpression.evaluate(text, macros: macros)
        }
    }

    @Test("the names a condition tests, for choosing configurations")
    func names() {
        #expect(PreprocessorExpression.names(in: "defined(DEBUG) && !BETA || LEVEL > 2") == ["DEBUG", "BETA", "LEVEL"])
    }
}
