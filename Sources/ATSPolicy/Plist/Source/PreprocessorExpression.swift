/// The condition of an `#if` or `#elif` line, evaluated as the C preprocessor Xcode runs on an Info.plist does
/// (`INFOPLIST_PREPROCESS = YES`; C11 §6.10.1): integer constants, character constants, `defined NAME` and
/// `defined(NAME)`, the unary, binary and conditional operators, and object-like macros expanded first. An
/// identifier that names no macro is 0, as in C.
///
/// Function-like macros are not expanded in conditions: a condition that calls one fails to evaluate, with a
/// reason, rather than taking a branch the build would not take.
struct PreprocessorExpression {
    /// Why a condition could not be evaluated.
    struct Failure: Error, Equatable {
        var reason: String
    }

    private enum Token: Equatable {
        case number(Int64)
        case identifier(String)
        case symbol(String)
    }

    private var tokens: [Token]
    private var position = 0

    /// Evaluates `text` with `macros` defined.
    /// - Parameters:
    ///   - text: The condition, without the directive name (comments already removed).
    ///   - macros: The macros defined at that point.
    /// - Returns: The value (non-zero: the branch is taken).
    /// - Throws: ``Failure`` when the condition is not one the preprocessor would accept or atscheck cannot evaluate.
    static func evaluate(_ text: String, macros: [String: PreprocessorMacro]) throws -> Int64 {
        let raw = try tokenize(text)
        let expanded = try expand(raw, macros: macros, blocked: [], depth: 0)
        guard !expanded.isEmpty else { throw Failure(reason: "#if with no expression") }
        var parser = PreprocessorExpression(tokens: expanded)
        let value = try parser.conditional()
        guard parser.position == parser.tokens.count else {
            throw Failure(reason: "unexpected \(parser.describe(parser.tokens[parser.position])) in #if expression")
        }
        return value
    }

    /// The identifiers a condition tests (`DEBUG` in `#if defined(DEBUG) && !BETA`), for choosing configurations.
    static func names(in text: String) -> [String] {
        guard let tokens = try? tokenize(text) else { return [] }
        return tokens.compactMap { token in
            if case .identifier(let name) = token, name != "defined" { return name }
            return nil
        }
    }

    private init(tokens: [Token]) { self.tokens = tokens }

    // MARK: Tokens

    private static let symbols = [
        "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "!", "~", "-", "+", "*", "/", "%", "<", ">", "&", "^", "|",
        "?", ":", "(", ")",
    ]

    private static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        let chars = Array(text.unicodeScalars)
        var i = 0
        func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
            c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c)
        }
        func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || ("0"..."9").contains(c) }
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\r" || c == "\n" {
                i += 1
            } else if isIdentifierStart(c) {
                var j = i
                while j < chars.count, isIdentifierPart(chars[j]) { j += 1 }
                tokens.append(.identifier(String(String.UnicodeScalarView(chars[i..<j]))))
                i = j
            } else if ("0"..."9").contains(c) {
                var j = i
                while j < chars.count, isIdentifierPart(chars[j]) { j += 1 }
                let literal = String(String.UnicodeScalarView(chars[i..<j]))
                guard let value = number(literal) else {
                    throw Failure(reason: "\(literal) is not an integer constant")
                }
                tokens.append(.number(value))
                i = j
            } else if c == "'" {
                // A character constant: 'a' or a simple escape; its value is the character's code.
                guard i + 2 < chars.count else { throw Failure(reason: "unterminated character constant") }
                if chars[i + 1] == "\\", i + 3 < chars.count, chars[i + 3] == "'" {
                    let escapes: [Unicode.Scalar: Int64] = ["n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39]
                    guard let value = escapes[chars[i + 2]] else {
                        throw Failure(reason: "unsupported escape in a character constant")
                    }
                    tokens.append(.number(value))
                    i += 4
                } else if chars[i + 2] == "'" {
                    tokens.append(.number(Int64(chars[i + 1].value)))
                    i += 3
                } else {
                    throw Failure(reason: "unsupported character constant")
                }
            } else if let symbol = symbols.first(where: { symbolMatches($0, chars, at: i) }) {
                tokens.append(.symbol(symbol))
                i += symbol.unicodeScalars.count
            } else {
                throw Failure(reason: "unexpected character '\(c)' in #if expression")
            }
        }
        return tokens
    }

    private static func symbolMatches(_ symbol: String, _ chars: [Unicode.Scalar], at i: Int) -> Bool {
        let s = Array(symbol.unicodeScalars)
        guard i + s.count <= chars.count else { return false }
        return Array(chars[i..<(i + s.count)]) == s
    }

    /// `42`, `0x2A`, `052`, with `u`/`l` suffixes.
    private static func number(_ literal: String) -> Int64? {
        var digits = Substring(literal.lowercased())
        while let last = digits.last, last == "u" || last == "l" { digits = digits.dropLast() }
        if digits.hasPrefix("0x") { return Int64(digits.dropFirst(2), radix: 16) }
        if digits.count > 1, digits.hasPrefix("0") { return Int64(digits.dropFirst(), radix: 8) }
        return Int64(digits)
    }

    /// Replaces object-like macros by their tokens (again inside them, but never a macro inside its own expansion,
    /// as C does), after `defined` has taken its operand.
    private static func expand(
        _ tokens: [Token], macros: [String: PreprocessorMacro], blocked: Set<String>, depth: Int
    ) throws -> [Token] {
        guard depth < 64 else { throw Failure(reason: "macros nested more than 64 deep in #if") }
        var out: [Token] = []
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if token == .identifier("defined") {
                // `defined NAME` or `defined ( NAME )`: a 1 or 0, never expanded.
                var j = i + 1
                let parenthesised = j < tokens.count && tokens[j] == .symbol("(")
                if parenthesised { j += 1 }
                guard j < tokens.count, case .identifier(let name) = tokens[j] else {
                    throw Failure(reason: "defined without a macro name")
                }
                j += 1
                if parenthesised {
                    guard j < tokens.count, tokens[j] == .symbol(")") else {
                        throw Failure(reason: "missing ) after defined(\(name)")
                    }
                    j += 1
                }
                out.append(.number(macros[name] == nil ? 0 : 1))
                i = j
                continue
            }
            if case .identifier(let name) = token, !blocked.contains(name), let macro = macros[name] {
                if macro.parameters != nil {
                    throw Failure(reason: "the function-like macro \(name) in #if is not supported")
                }
                let body = try tokenize(macro.value)
                out += try expand(body, macros: macros, blocked: blocked.union([name]), depth: depth + 1)
            } else {
                out.append(token)
            }
            i += 1
        }
        return out
    }

    // MARK: Grammar (C's precedence, lowest first)

    private func describe(_ token: Token) -> String {
        switch token {
        case .number(let n): return String(n)
        case .identifier(let s), .symbol(let s): return "'\(s)'"
        }
    }

    private mutating func take(_ symbol: String) -> Bool {
        guard position < tokens.count, tokens[position] == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func conditional() throws -> Int64 {
        let condition = try binary(level: 0)
        guard take("?") else { return condition }
        let yes = try conditional()
        guard take(":") else { throw Failure(reason: "missing : in a ?: expression") }
        let no = try conditional()
        return condition != 0 ? yes : no
    }

    /// Binary operators by precedence level, lowest first.
    private static let levels: [[String]] = [
        ["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", ">", "<=", ">="], ["<<", ">>"], ["+", "-"],
        ["*", "/", "%"],
    ]

    private mutating func binary(level: Int) throws -> Int64 {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while position < tokens.count, case .symbol(let op) = tokens[position], Self.levels[level].contains(op) {
            position += 1
            let right = try binary(level: level + 1)
            left = try Self.apply(op, left, right)
        }
        return left
    }

    private static func apply(_ op: String, _ a: Int64, _ b: Int64) throws -> Int64 {
        switch op {
        case "||": return (a != 0 || b != 0) ? 1 : 0
        case "&&": return (a != 0 && b != 0) ? 1 : 0
        case "|": return a | b
        case "^": return a ^ b
        case "&": return a & b
        case "==": return a == b ? 1 : 0
        case "!=": return a != b ? 1 : 0
        case "<": return a < b ? 1 : 0
        case ">": return a > b ? 1 : 0
        case "<=": return a <= b ? 1 : 0
        case ">=": return a >= b ? 1 : 0
        case "<<": return b >= 0 && b < 64 ? a << b : 0
        case ">>": return b >= 0 && b < 64 ? a >> b : (a < 0 ? -1 : 0)
        case "+": return a &+ b
        case "-": return a &- b
        case "*": return a &* b
        case "/", "%":
            guard b != 0 else { throw Failure(reason: "division by zero in #if") }
            if a == .min && b == -1 { return op == "/" ? .min : 0 }
            return op == "/" ? a / b : a % b
        default: throw Failure(reason: "unknown operator \(op)")
        }
    }

    private mutating func unary() throws -> Int64 {
        if take("!") { return try unary() == 0 ? 1 : 0 }
        if take("~") { return ~(try unary()) }
        if take("-") { return 0 &- (try unary()) }
        if take("+") { return try unary() }
        return try primary()
    }

    private mutating func primary() throws -> Int64 {
        guard position < tokens.count else { throw Failure(reason: "#if expression ends too early") }
        let token = tokens[position]
        position += 1
        switch token {
        case .number(let n): return n
        case .identifier: return 0  // not a macro: 0, as C says
        case .symbol("("):
            let value = try conditional()
            guard take(")") else { throw Failure(reason: "missing ) in #if expression") }
            return value
        case .symbol(let s): throw Failure(reason: "unexpected '\(s)' in #if expression")
        }
    }
}
