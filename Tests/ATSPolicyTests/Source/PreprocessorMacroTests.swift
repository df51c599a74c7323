import Testing

@testable import ATSPolicy

/// `--define` and `INFOPLIST_PREPROCESSOR_DEFINITIONS` spellings.
@Suite("PreprocessorMacro")
struct PreprocessorMacroTests {
    @Test("NAME is 1, NAME=VALUE its value, -D is accepted, a bad name is refused")
    func definitions() {
        #expect(PreprocessorMacro.parse(definition: "DEBUG")?.macro == PreprocessorMacro(value: "1"))
        #expect(PreprocessorMacro.parse(definition: "LEVEL=2")?.macro.value == "2")
        #expect(PreprocessorMacro.parse(definition: "-DHOST=a.example")?.name == "HOST")
        #expect(PreprocessorMacro.parse(definition: "EMPTY=")?.macro.value == "")
        #expect(PreprocessorMacro.parse(definition: "1BAD") == nil)
        #expect(PreprocessorMacro.parse(definition: "A-B") == nil)
    }

    @Test("a definitions list splits at white space and keeps quoted values whole")
    func list() {
        let macros = PreprocessorMacro.parse(list: #"DEBUG  LEVEL=2 "TITLE=My App" 9bad"#)
        #expect(macros.keys.sorted() == ["DEBUG", "LEVEL", "TITLE"])
        #expect(macros["TITLE"]?.value == "My App")
    }
}
