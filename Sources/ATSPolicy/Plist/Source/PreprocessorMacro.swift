/// A macro of the C preprocessor that Xcode runs on an Info.plist (`INFOPLIST_PREPROCESS = YES`): from a `#define`
/// line, `--define NAME[=VALUE]`, or `INFOPLIST_PREPROCESSOR_DEFINITIONS`.
public struct PreprocessorMacro: Sendable, Equatable, Hashable, Codable {
    /// The replacement text (`1` for `-DNAME`, as the C compiler driver defines it).
    public var value: String
    /// The parameter list of a function-like macro (`#define F(x) …`); nil for an object-like one. Function-like
    /// macros count as defined for `#ifdef` but are not expanded.
    public var parameters: [String]?

    /// - Parameters:
    ///   - value: The replacement text.
    ///   - parameters: The parameters of a function-like macro; nil for an object-like one.
    public init(value: String = "1", parameters: [String]? = nil) {
        self.value = value
        self.parameters = parameters
    }

    /// Parses `NAME`, `NAME=VALUE` (`-D` spelling, without the `-D`): the name and its macro.
    /// - Parameter definition: One definition as `--define` or `INFOPLIST_PREPROCESSOR_DEFINITIONS` writes it.
    /// - Returns: nil when the name is not a C identifier.
    public static func parse(definition: String) -> (name: String, macro: PreprocessorMacro)? {
        var text = Substring(definition)
        if text.hasPrefix("-D") { text = text.dropFirst(2) }
        let name: Substring
        let value: String
        if let equals = text.firstIndex(of: "=") {
            name = text[..<equals]
            value = String(text[text.index(after: equals)...])
        } else {
            name = text
            value = "1"
        }
        guard isIdentifier(name) else { return nil }
        return (String(name), PreprocessorMacro(value: value))
    }

    /// Definitions as `INFOPLIST_PREPROCESSOR_DEFINITIONS` lists them: separated by white space, each `NAME` or
    /// `NAME=VALUE`, a value in double quotes keeping its spaces.
    /// - Parameter list: The setting's value.
    /// - Returns: The macros by name; entries that are not definitions are skipped.
    public static func parse(list: String) -> [String: PreprocessorMacro] {
        var macros: [String: PreprocessorMacro] = [:]
        var current = ""
        var quoted = false
        func flush() {
            if let (name, macro) = parse(definition: current) { macros[name] = macro }
            current = ""
        }
        for character in list {
            if character == "\"" {
                quoted.toggle()
            } else if !quoted && (character == " " || character == "\t") {
                flush()
            } else {
                current.append(character)
            }
        }
        flush()
        return macros
    }

    /// Whether `text` is a C identifier: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier<S: StringProtocol>(_ text: S) -> Bool {
        func letter(_ c: Unicode.Scalar) -> Bool { c == "_" || ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        guard let first = text.unicodeScalars.first, letter(first) else { return false }
        return text.unicodeScalars.allSatisfy { letter($0) || ("0"..."9").contains($0) }
    }
}
