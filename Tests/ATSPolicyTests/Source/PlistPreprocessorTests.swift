import Foundation
import Testing

@testable import ATSPolicy

/// The C preprocessor as Xcode runs it on an Info.plist (`INFOPLIST_PREPROCESS`), keeping source lines.
@Suite("PlistPreprocessor")
struct PlistPreprocessorTests {
    static func run(
        _ text: String, macros: [String: PreprocessorMacro] = [:], includes: [String: String] = [:]
    ) throws -> PreprocessedText {
        var preprocessor = PlistPreprocessor(macros: macros) { name, _ in
            guard let text = includes[name] else { throw PreprocessorFailure(line: 0, reason: "no \(name)") }
            return (name, text)
        }
        return try preprocessor.run(text: text, file: "Info.plist")
    }

    @Test("#ifdef / #else / #endif keep one branch, every line in place")
    func branches() throws {
        let text = "a\n#ifdef DEBUG\nb\n#else\nc\n#endif // DEBUG\nd"
        let debug = try Self.run(text, macros: ["DEBUG": PreprocessorMacro()])
        #expect(debug.text == "a\n\nb\n\n\n\nd")
        #expect(debug.sourceLines == [1, 2, 3, 4, 5, 6, 7])
        #expect(try Self.run(text).text == "a\n\n\n\nc\n\nd")
    }

    @Test("#if, #elif, #ifndef, nesting, and a branch inside one not taken")
    func nesting() throws {
        let text = """
            #if LEVEL > 1
            high
            #elif LEVEL == 1
            one
            #ifndef BETA
            not-beta
            #endif
            #else
            none
            #endif
            """
        #expect(try Self.run(text, macros: ["LEVEL": PreprocessorMacro(value: "2")]).text.contains("high"))
        let one = try Self.run(text, macros: ["LEVEL": PreprocessorMacro(value: "1")]).text
        #expect(one.contains("one") && one.contains("not-beta") && !one.contains("none"))
        #expect(try Self.run(text).text.contains("none"))
    }

    @Test("#define and #undef apply from their line; object-like macros expand outside quotes")
    func defines() throws {
        let text = """
            #define HOST api.example.com
            <key>HOST</key> "HOST" HOSTNAME 2HOST
            #undef HOST
            HOST
            """
        #expect(try Self.run(text).text == "\n<key>api.example.com</key> \"HOST\" HOSTNAME 2HOST\n\nHOST")
    }

    @Test("an #include's lines stand at the #include's line; later lines keep their own")
    func include() throws {
        let out = try Self.run("a\n#include \"part.plist\"\nb", includes: ["part.plist": "x\ny"])
        #expect(out.text == "a\nx\ny\nb")
        #expect(out.sourceLines == [1, 2, 2, 3])
    }

    @Test("a colour on a line of its own is text, not a directive")
    func notADirective() throws {
        #expect(PlistPreprocessor.directive(in: "#FF0000") == nil)
        #expect(PlistPreprocessor.directive(in: "  #  ifdef X")?.name == "ifdef")
        #expect(try Self.run("#FF0000").text == "#FF0000")
    }

    @Test("CRLF files split into lines")
    func crlf() throws {
        let out = try Self.run("a\r\n#ifdef X\r\nb\r\n#endif\r\nc")
        #expect(out.sourceLines.count == 5)
        #expect(out.text.hasPrefix("a") && !out.text.contains("b"))
    }

    struct Refused: Sendable, CustomStringConvertible {
        var text: String
        var line: Int
        var reason: String
        var description: String { reason }
    }

    static let refused: [Refused] = [
        Refused(text: "a\n#if X\nb", line: 2, reason: "has no #endif"),
        Refused(text: "#endif", line: 1, reason: "#endif without #if"),
        Refused(text: "#ifdef X\n#else\n#else\n#endif", line: 3, reason: "#else after #else"),
        Refused(text: "x\n#error not for release", line: 2, reason: "#error not for release"),
        Refused(text: "#include <stdio.h>", line: 1, reason: "a local file named in double quotes"),
        Refused(text: "\n#include \"missing.h\"", line: 2, reason: "no missing.h"),
        Refused(text: "#if 1 +\n#endif", line: 1, reason: "ends too early"),
    ]

    @Test("what the build refuses fails at its line, with a reason", arguments: refused)
    func failures(_ c: Refused) {
        #expect {
            try Self.run(c.text)
        } throws: { error in
            guard let failure = error as? PreprocessorFailure else { return false }
            return failure.line == c.line && failure.reason.contains(c.reason)
        }
    }

    @Test("the names that choose a configuration: tested and never defined by the file")
    func conditionNames() {
        let text = "#ifdef DEBUG\n#define LOCAL 1\n#endif\n#if LOCAL && !defined(BETA)\n#endif"
        #expect(PlistPreprocessor.conditionNames(text) == ["DEBUG", "BETA"])
    }
}
