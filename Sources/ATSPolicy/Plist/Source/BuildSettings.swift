/// Xcode build settings, for what Xcode does to an Info.plist as it builds it: `$(NAME)` and `${NAME}` in keys and
/// values are replaced by the setting's value (`INFOPLIST_EXPAND_BUILD_SETTINGS`, on by default), and
/// `INFOPLIST_PREPROCESS` / `INFOPLIST_PREPROCESSOR_DEFINITIONS` drive the preprocessor.
///
/// From `--build-setting NAME=VALUE` and `--xcconfig PATH` (``XCConfigFile``). A name that is not set is left as
/// written: the linter reports it where ATS reads it, and the engine judges the hosts it could name as ambiguous.
public struct BuildSettings: Sendable, Equatable, Codable {
    /// The settings by name.
    public var values: [String: String]

    /// - Parameter values: The settings by name.
    public init(_ values: [String: String] = [:]) { self.values = values }

    /// Whether a key or value refers to a build setting (`$(` or `${`): such text is not yet what Xcode builds.
    public static func refersToSetting(_ text: String) -> Bool { text.contains("$(") || text.contains("${") }

    /// Whether no setting is given.
    public var isEmpty: Bool { values.isEmpty }

    /// These settings with `other`'s on top (the later source wins, as in Xcode's setting levels).
    public func overlaid(with other: BuildSettings) -> BuildSettings {
        BuildSettings(values.merging(other.values) { _, new in new })
    }

    /// Parses `NAME=VALUE` as `--build-setting` takes it.
    /// - Returns: nil when there is no `=` or the name is not a setting name.
    public static func parse(assignment: String) -> (name: String, value: String)? {
        guard let equals = assignment.firstIndex(of: "=") else { return nil }
        let name = assignment[..<equals].trimmingCharacters(in: .whitespaces)
        guard PreprocessorMacro.isIdentifier(name) else { return nil }
        return (name, String(assignment[assignment.index(after: equals)...]))
    }

    /// `INFOPLIST_PREPROCESSOR_DEFINITIONS`, when set: the definitions that choose the preprocessor's branches.
    public var preprocessorDefinitions: [String: PreprocessorMacro]? {
        values["INFOPLIST_PREPROCESSOR_DEFINITIONS"].map { PreprocessorMacro.parse(list: expand($0).text) }
    }

    /// `INFOPLIST_PREPROCESS`, when set: `YES` runs the preprocessor, `NO` reads the file as it is.
    public var preprocess: Bool? {
        values["INFOPLIST_PREPROCESS"].map { ["YES", "yes", "1", "true"].contains(expand($0).text) }
    }

    /// `INFOPLIST_EXPAND_BUILD_SETTINGS`: Xcode replaces `$(NAME)` unless it is `NO`.
    public var expandsInfoPlist: Bool {
        values["INFOPLIST_EXPAND_BUILD_SETTINGS"].map { !["NO", "no", "0", "false"].contains(expand($0).text) } ?? true
    }

    /// The outcome of expanding one text.
    public struct Expansion: Sendable, Equatable {
        /// The text with every setting that is set replaced; a reference to one that is not set stays as written.
        public var text: String
        /// The names referred to that are not set, in order of first appearance.
        public var unresolved: [String]
    }

    /// Replaces `$(NAME)` and `${NAME}` (nested: `$(A_$(B))`; with Xcode's `:default=`, `:lower`, `:upper`,
    /// `:identifier`, `:c99extidentifier` and `:rfc1034identifier` operators) by the settings' values, again inside a
    /// value. `$()` is empty (the `https:/$()/` idiom of .xcconfig files).
    /// - Parameter text: A plist key or string value.
    /// - Returns: The expanded text and the names that are not set.
    public func expand(_ text: String) -> Expansion {
        guard text.contains("$(") || text.contains("${") else { return Expansion(text: text, unresolved: []) }
        var unresolved: [String] = []
        let out = expand(Array(text), depth: 0, unresolved: &unresolved)
        return Expansion(text: out, unresolved: unresolved)
    }

    private func expand(_ chars: [Character], depth: Int, unresolved: inout [String]) -> String {
        var out = ""
        var index = 0
        while index < chars.count {
            guard chars[index] == "$", index + 1 < chars.count, chars[index + 1] == "(" || chars[index + 1] == "{",
                let close = Self.closing(chars, from: index + 1)
            else {
                out.append(chars[index])
                index += 1
                continue
            }
            let reference = Array(chars[(index + 2)..<close])
            let written = String(chars[index...close])
            out += resolve(reference, written: written, depth: depth, unresolved: &unresolved)
            index = close + 1
        }
        return out
    }

    /// The index of the bracket that closes the one at `open`, counting nested ones.
    private static func closing(_ chars: [Character], from open: Int) -> Int? {
        let opening = chars[open]
        let closingBracket: Character = opening == "(" ? ")" : "}"
        var level = 0
        for index in open..<chars.count {
            if chars[index] == opening { level += 1 }
            if chars[index] == closingBracket {
                level -= 1
                if level == 0 { return index }
            }
        }
        return nil
    }

    private func resolve(_ reference: [Character], written: String, depth: Int, unresolved: inout [String]) -> String {
        // A name built from other settings (`$(API_HOST_$(CONFIGURATION))`) is expanded first.
        let inner = expand(reference, depth: depth + 1, unresolved: &unresolved)
        guard !inner.isEmpty else { return "" }
        var parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
        let name = parts.removeFirst()
        let operation = parts.first
        let value: String?
        if depth < 16, let raw = values[name] {
            value = expand(Array(raw), depth: depth + 1, unresolved: &unresolved)
        } else {
            value = nil
        }
        switch operation {
        case nil:
            if let value { return value }
        case let op? where op.hasPrefix("default="):
            return (value?.isEmpty ?? true) ? String(op.dropFirst("default=".count)) : value!
        case "lower"?: if let value { return value.lowercased() }
        case "upper"?: if let value { return value.uppercased() }
        case "identifier"?, "c99extidentifier"?:
            if let value { return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }) }
        case "rfc1034identifier"?:
            if let value { return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }) }
        default:
            // An operator atscheck does not apply: the value is not known, so the reference stays unresolved.
            break
        }
        if !unresolved.contains(name) { unresolved.append(name) }
        return written
    }
}
