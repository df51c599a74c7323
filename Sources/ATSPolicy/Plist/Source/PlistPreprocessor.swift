import Foundation

/// An Info.plist after the C preprocessor, as Xcode produces it when `INFOPLIST_PREPROCESS = YES`, with the line of
/// the source file every line came from.
struct PreprocessedText: Equatable {
    /// The plist text Foundation parses: one line per line of the source file (a directive or a line of a branch not
    /// taken is an empty line), the lines of an `#include`d file in place of the `#include`.
    var text: String
    /// For each line of ``text`` (index 0 is line 1), the line of the source file: the line itself, or for the
    /// lines an `#include` brought in, the line of that `#include`.
    var sourceLines: [Int]
}

/// A directive the preprocessor refuses, as the build would (`#error`, an `#else` without `#if`, an `#include`d file
/// that does not exist, …): the plist cannot be built, so it is malformed input.
struct PreprocessorFailure: Error, Equatable {
    /// The line of the main file (an `#include`d file's problem is placed at the `#include`).
    var line: Int
    var reason: String
    /// The text would exceed ``InputLimits/plistBytes``.
    var tooLarge = false
}

/// The C preprocessor Xcode runs on an Info.plist when `INFOPLIST_PREPROCESS = YES` (Apple's Technical Note TN2175,
/// "Preprocessing Info.plist files in Xcode Using the C Preprocessor"; Xcode runs `cc -E -P -x c` with
/// `INFOPLIST_PREPROCESSOR_DEFINITIONS` as `-D` options), reduced to what plists use: conditionals (`#if`, `#ifdef`,
/// `#ifndef`, `#elif`, `#elifdef`, `#elifndef`, `#else`, `#endif`), `#define`/`#undef`, `#include`/`#import` of a
/// local file, `#error`, and object-like macros expanded in the text.
///
/// Two differences from `cc -E`, both on purpose: every line stays on its source line (directives and lines of
/// branches not taken become empty lines), so a finding points at the line a person edits; and comments in the
/// plist text are left as written. `cc -E` removes `//` and `/* */` comments, which cuts a URL such as
/// `http://example.com` short (TN2175); projects that preprocess their Info.plist pass `-traditional` or avoid such
/// text, and a MIME type such as `*/*` would otherwise swallow the rest of the file. Comments on directive lines
/// (`#endif // DEBUG`) are removed, as the build does.
struct PlistPreprocessor {
    /// The directives atscheck reads. A line starting with `#` and another word is plist text (a colour such as
    /// `#FF0000` on a line of its own), not a directive.
    static let directiveNames: Set<String> = [
        "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif", "define", "undef", "include",
        "import", "error", "warning", "pragma", "line",
    ]
    static let conditionalNames: Set<String> = ["if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"]

    /// Reads the file an `#include` names: the path as resolved, and its text.
    typealias IncludeReader = (_ name: String, _ includer: String) throws -> (path: String, text: String)

    /// The macros defined so far.
    private(set) var macros: [String: PreprocessorMacro]
    private let readInclude: IncludeReader
    private var lines: [String] = []
    private var sourceLines: [Int] = []
    private var bytes = 0
    private var onceFiles: Set<String> = []

    /// - Parameters:
    ///   - macros: The definitions given (`--define`, `INFOPLIST_PREPROCESSOR_DEFINITIONS`, a configuration's).
    ///   - readInclude: Reads an `#include`d file.
    init(macros: [String: PreprocessorMacro], readInclude: @escaping IncludeReader) {
        self.macros = macros
        self.readInclude = readInclude
    }

    /// The name and the rest of a directive line, when the line is one atscheck reads.
    static func directive<S: StringProtocol>(in line: S) -> (name: String, rest: Substring)? {
        var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
        guard rest.first == "#" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        let name = rest.prefix { $0.isLetter }
        guard directiveNames.contains(String(name)) else { return nil }
        let after = rest.dropFirst(name.count)
        // `#ifdefX` is not `#ifdef X`: the name must end at a space, a `(`, a `"`, a `<` or the end of the line.
        if let next = after.first,
            !(next == " " || next == "\t" || next == "(" || next == "\"" || next == "<"
                || next == "\r" || next == "!")
        {
            return nil
        }
        return (String(name), after)
    }

    /// Whether any line of `text` is a directive: only then is the file preprocessed without definitions.
    static func hasDirectives(_ text: String) -> Bool {
        lines(of: text).contains { directive(in: $0) != nil }
    }

    /// The names the file's conditions test and never `#define` (in any branch): the names whose definition picks a
    /// build configuration, in order of first use.
    static func conditionNames(_ text: String) -> [String] {
        var tested: [String] = []
        var defined: Set<String> = []
        for line in lines(of: text) {
            guard let (name, rest) = directive(in: line) else { continue }
            let body = stripComments(rest)
            if conditionalNames.contains(name) {
                for word in PreprocessorExpression.names(in: body) where !tested.contains(word) { tested.append(word) }
            } else if name == "define",
                let word = body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" })
                    .first
            {
                defined.insert(String(word))
            }
        }
        return tested.filter { !defined.contains($0) }
    }

    /// Runs the preprocessor over the main file.
    /// - Parameters:
    ///   - text: The file's text.
    ///   - file: Its path (an `#include` is resolved against its folder).
    /// - Returns: The text Foundation parses, and the source line of each of its lines.
    /// - Throws: ``PreprocessorFailure`` where the build would fail.
    mutating func run(text: String, file: String) throws -> PreprocessedText {
        lines = []
        sourceLines = []
        bytes = 0
        try process(text: text, file: file, mainLine: nil, depth: 0)
        return PreprocessedText(text: lines.joined(separator: "\n"), sourceLines: sourceLines)
    }

    private struct Frame {
        var parentActive: Bool
        var active: Bool
        /// A branch of this `#if` has been taken (later `#elif`/`#else` branches are not).
        var taken: Bool
        var sawElse: Bool
        var line: Int
    }

    private mutating func emit(_ line: String, source: Int) throws {
        bytes += line.utf8.count + 1
        if bytes > InputLimits.plistBytes {
            throw PreprocessorFailure(
                line: source, reason: InputLimits.tooLargeReason(limit: InputLimits.plistBytes) + " once preprocessed",
                tooLarge: true)
        }
        lines.append(line)
        sourceLines.append(source)
    }

    private mutating func process(text: String, file: String, mainLine: Int?, depth: Int) throws {
        let fileLines = Self.lines(of: text)
        var stack: [Frame] = []
        var index = 0
        while index < fileLines.count {
            let number = index + 1
            let place = mainLine ?? number
            let line = fileLines[index]
            let active = stack.last?.active ?? true
            guard let (name, firstRest) = Self.directive(in: line) else {
                try emit(active ? expand(String(line)) : "", source: place)
                index += 1
                continue
            }
            // A directive continues over lines ending in a backslash; each of its lines becomes an empty line.
            var rest = String(firstRest)
            var consumed = 1
            while rest.hasSuffix("\\"), index + consumed < fileLines.count {
                rest = String(rest.dropLast()) + fileLines[index + consumed]
                consumed += 1
            }
            let body = Self.stripComments(Substring(rest)).trimmingCharacters(in: .whitespacesAndNewlines)
            let where_ = mainLine == nil ? "" : " (in \(file), line \(number))"
            func fail(_ reason: String) -> PreprocessorFailure {
                PreprocessorFailure(line: place, reason: reason + where_)
            }
            switch name {
            case "ifdef", "ifndef":
                let macro = try Self.macroName(body, directive: name, fail: fail)
                let defined = macros[macro] != nil
                let condition = name == "ifdef" ? defined : !defined
                stack.append(
                    Frame(
                        parentActive: active, active: active && condition, taken: !active || condition, sawElse: false,
                        line: number))
            case "if":
                var condition = false
                if active {
                    do { condition = try PreprocessorExpression.evaluate(body, macros: macros) != 0 } catch let error
                        as PreprocessorExpression.Failure
                    {
                        throw fail(error.reason)
                    }
                }
                stack.append(
                    Frame(
                        parentActive: active, active: active && condition, taken: !active || condition, sawElse: false,
                        line: number))
            case "elif", "elifdef", "elifndef":
                guard var top = stack.popLast() else { throw fail("#\(name) without #if") }
                if top.sawElse { throw fail("#\(name) after #else") }
                if top.parentActive && !top.taken {
                    let condition: Bool
                    if name == "elif" {
                        do { condition = try PreprocessorExpression.evaluate(body, macros: macros) != 0 } catch let
                            error
                            as PreprocessorExpression.Failure
                        {
                            throw fail(error.reason)
                        }
                    } else {
                        let macro = try Self.macroName(body, directive: name, fail: fail)
                        condition = (macros[macro] != nil) == (name == "elifdef")
                    }
                    top.active = condition
                    top.taken = condition
                } else {
                    top.active = false
                }
                stack.append(top)
            case "else":
                guard var top = stack.popLast() else { throw fail("#else without #if") }
                if top.sawElse { throw fail("#else after #else") }
                top.active = top.parentActive && !top.taken
                top.taken = true
                top.sawElse = true
                stack.append(top)
            case "endif":
                guard stack.popLast() != nil else { throw fail("#endif without #if") }
            default:
                if active { try perform(name, body: body, file: file, place: place, depth: depth, fail: fail) }
            }
            // An #include's lines stand in for its own line; every other directive line becomes an empty line.
            let replaced = active && (name == "include" || name == "import")
            for offset in (replaced ? 1 : 0)..<consumed {
                try emit("", source: mainLine ?? (number + offset))
            }
            index += consumed
        }
        if let open = stack.last {
            throw PreprocessorFailure(
                line: mainLine ?? open.line,
                reason: "#if at line \(open.line)\(mainLine == nil ? "" : " of \(file)") has no #endif")
        }
    }

    /// `#define`, `#undef`, `#include`/`#import`, `#error`, `#pragma once`; `#warning`, `#line` and other pragmas
    /// change nothing the plist holds.
    private mutating func perform(
        _ name: String, body: String, file: String, place: Int, depth: Int, fail: (String) -> PreprocessorFailure
    ) throws {
        switch name {
        case "define":
            guard let (macroName, macro) = Self.definition(body) else { throw fail("#define without a macro name") }
            macros[macroName] = macro
        case "undef":
            let macro = try Self.macroName(body, directive: name, fail: fail)
            macros[macro] = nil
        case "include", "import":
            guard body.hasPrefix("\""), let close = body.dropFirst().firstIndex(of: "\"") else {
                throw fail(
                    "#\(name) \(body): atscheck reads only a local file named in double quotes (#\(name) \"file\")")
            }
            let target = String(body[body.index(after: body.startIndex)..<close])
            guard depth < 16 else { throw fail("#\(name) nested more than 16 deep") }
            let included: (path: String, text: String)
            do { included = try readInclude(target, file) } catch let error as PreprocessorFailure {
                throw fail(error.reason)
            }
            if onceFiles.contains(included.path) { return }
            if name == "import" { onceFiles.insert(included.path) }
            try process(text: included.text, file: included.path, mainLine: place, depth: depth + 1)
        case "error":
            throw fail("#error \(body)")
        case "pragma":
            if body == "once" { onceFiles.insert(file) }
        default:
            return
        }
    }

    /// The macro name after `#ifdef`, `#ifndef`, `#undef`, `#elifdef` or `#elifndef`.
    private static func macroName(
        _ body: String, directive: String, fail: (String) -> PreprocessorFailure
    ) throws -> String {
        guard let word = body.split(whereSeparator: { $0 == " " || $0 == "\t" }).first else {
            throw fail("#\(directive) without a macro name")
        }
        guard PreprocessorMacro.isIdentifier(word) else { throw fail("#\(directive) \(word): not a macro name") }
        return String(word)
    }

    /// The lines of a text, split at LF and CRLF (a `\r\n` is one `Character`, so splitting at `"\n"` alone would
    /// keep a CRLF file in one piece).
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// `NAME value`, `NAME(a, b) value`: the name and its macro.
    static func definition(_ body: String) -> (String, PreprocessorMacro)? {
        let name = body.prefix { $0 == "_" || $0.isLetter || $0.isNumber }
        guard PreprocessorMacro.isIdentifier(name) else { return nil }
        var rest = body.dropFirst(name.count)
        var parameters: [String]?
        if rest.first == "(", let close = rest.firstIndex(of: ")") {
            parameters = rest[rest.index(after: rest.startIndex)..<close].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            rest = rest[rest.index(after: close)...]
        }
        return (
            String(name), PreprocessorMacro(value: rest.trimmingCharacters(in: .whitespaces), parameters: parameters)
        )
    }

    /// A directive's text without its comments (`// …` to the end, `/* … */`), leaving text in double quotes.
    static func stripComments(_ text: Substring) -> String {
        var out = ""
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            let next = text.index(after: index)
            if quoted {
                out.append(c)
                if c == "\\", next < text.endIndex {
                    out.append(text[next])
                    index = text.index(after: next)
                    continue
                }
                if c == "\"" { quoted = false }
            } else if c == "\"" {
                quoted = true
                out.append(c)
            } else if c == "/", next < text.endIndex, text[next] == "/" {
                break
            } else if c == "/", next < text.endIndex, text[next] == "*" {
                let after = text.index(after: next)
                guard let end = text[after...].range(of: "*/") else { break }
                out.append(" ")
                index = end.upperBound
                continue
            } else {
                out.append(c)
            }
            index = next
        }
        return out
    }

    /// A line of plist text with its object-like macros replaced, outside double quotes (C expands no macro inside a
    /// string literal) and outside numbers (`2x` is one token), again inside a replacement but never a macro inside
    /// its own.
    func expand(_ line: String, blocked: Set<String> = [], depth: Int = 0) -> String {
        guard !macros.isEmpty, depth < 32 else { return line }
        let chars = Array(line)
        var out = ""
        var quoted = false
        var index = 0
        func isWordPart(_ c: Character) -> Bool { c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) }
        while index < chars.count {
            let c = chars[index]
            if !quoted && isWordPart(c) {
                var end = index
                while end < chars.count, isWordPart(chars[end]) { end += 1 }
                let word = String(chars[index..<end])
                if !c.isNumber, let macro = macros[word], macro.parameters == nil, !blocked.contains(word) {
                    out += expand(macro.value, blocked: blocked.union([word]), depth: depth + 1)
                } else {
                    out += word
                }
                index = end
                continue
            }
            if c == "\"" { quoted.toggle() }
            out.append(c)
            index += 1
        }
        return out
    }
}
