import Foundation
import TLSModel

/// One option a pinning library reads, named as the library's property (`allowInvalidCertificates`), which is
/// also the endpoint-list key, with its command-line flag and the flag's help. The CLI takes the help from here and
/// maps each flag to its key in one place (`PinLibraryOptions.swift`); a CLI test fails when a declared flag is
/// missing from `--help`.
public struct PinOptionSpec: Sendable, Equatable {
    /// The values it takes.
    public enum Kind: Sendable, Equatable {
        /// One of these words (compared lower-cased).
        case choice([String])
        /// `true`/`false` (YAML's `yes`/`no` too); the library's default. Only a non-default value counts as given.
        case boolean(default: Bool)
        /// One of these numbers.
        case integer([Int])
    }

    /// The endpoint-list key and the library's property name.
    public var key: String
    /// The command-line flag: `--mode`, `--allow-invalid-certificates`, `--no-validate-domain-name`.
    public var flag: String
    /// The values it takes.
    public var kind: Kind
    /// The flag's one-line help in `--help`.
    public var help: String
    /// The flag's longer help (defaults), shown under it; nil for none.
    public var discussion: String?

    /// An option.
    /// - Parameters:
    ///   - key: The endpoint-list key (the library's property name).
    ///   - flag: The command-line flag.
    ///   - kind: The values it takes; a boolean's flag gives the value opposite to its default.
    ///   - help: The flag's one-line help.
    ///   - discussion: The flag's longer help.
    public init(_ key: String, flag: String, _ kind: Kind, help: String, discussion: String? = nil) {
        self.key = key
        self.flag = flag
        self.kind = kind
        self.help = help
        self.discussion = discussion
    }

    /// The option declared with command-line flag `flag` by any registered library; nil when none declares it.
    public static func declared(flag: String) -> PinOptionSpec? {
        PinPolicyOptions.allOptions.first { $0.flag == flag }
    }

    /// The option values the given command-line flags stand for: each flag's text under its endpoint-list key (a
    /// boolean flag, given, stands for the value opposite to its default).
    /// - Parameter flags: The flags given, with their values as text (nil or absent: not given; a boolean flag's
    ///   text is ignored).
    /// - Returns: The values, by endpoint-list key.
    public static func values(flags: [(flag: String, text: String?)]) -> PinOptionValues {
        var values = PinOptionValues()
        for (flag, text) in flags {
            guard let text, let spec = declared(flag: flag) else { continue }
            if case .boolean(let defaultValue) = spec.kind {
                values[spec.key] = String(!defaultValue)
            } else {
                values[spec.key] = text
            }
        }
        return values
    }

    /// Whether `text` is a value other than the default (a boolean at its default is not "given").
    func isGiven(_ text: String) -> Bool {
        if case .boolean(let defaultValue) = kind { return PinOptionValues.boolean(text) != defaultValue }
        return true
    }
}

/// How options are named in messages: command-line flags or endpoint-list keys.
public enum PinOptionSpelling: Sendable {
    /// `--mode`, `--library afnetworking`, …
    case commandLine
    /// `mode`, `'library: afnetworking'`, …
    case endpointList

    /// The option's name.
    public func name(_ spec: PinOptionSpec) -> String { self == .commandLine ? spec.flag : spec.key }

    /// The way to name a library.
    public func library(_ id: PinLibrary) -> String {
        self == .commandLine ? "--library \(id.rawValue)" : "'library: \(id.rawValue)'"
    }

    /// The way to give an option a value.
    public func value(_ spec: PinOptionSpec, _ value: String) -> String {
        self == .commandLine ? "\(spec.flag) \(value)" : "'\(spec.key): \(value)'"
    }
}

/// Why pin options are unusable: one line for a usage error (exit 64) or an `endpoints.invalid` finding.
public struct PinOptionProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The values given to a library's options, by endpoint-list key, as text (`"public-key"`, `"false"`, `"3"`).
public struct PinOptionValues: Sendable, Equatable {
    public var text: [String: String]

    public init(_ text: [String: String] = [:]) { self.text = text }

    public subscript(key: String) -> String? {
        get { text[key] }
        set { text[key] = newValue }
    }

    /// The boolean at `key`, else `defaultValue`.
    public func bool(_ key: String, default defaultValue: Bool) -> Bool {
        text[key].flatMap(Self.boolean) ?? defaultValue
    }

    /// The number at `key`, nil when absent.
    public func int(_ key: String) -> Int? { text[key].flatMap { Int($0) } }

    /// A YAML/JSON boolean (`true`/`false`, and YAML 1.1's `yes`/`no`).
    public static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: return nil
        }
    }
}

/// A library and the values of its options: what `atscheck pins check` takes on the command line, an audit
/// endpoint list per entry (`library:`, `mode:`, …) and `app` with `--library`: one model, one validation, one
/// policy, for every registered library.
public struct PinPolicyOptions: Sendable, Equatable {
    /// The library to emulate (default: ``PinningLibraries/default``).
    public var library: PinLibrary
    /// The options given.
    public var values: PinOptionValues

    public init(library: PinLibrary? = nil, values: PinOptionValues = PinOptionValues()) {
        self.library = library ?? PinningLibraries.default.id
        self.values = values
    }

    /// Every option of every registered library.
    public static var allOptions: [PinOptionSpec] { PinningLibraries.all.flatMap(\.options) }

    /// The keys an endpoint-list entry may use for a pin check: `pins`, `library` and every library's options.
    public static var endpointListKeys: Set<String> { Set(["pins", "library"] + allOptions.map(\.key)) }

    /// Reads an endpoint-list entry's pin keys (text as written): the library and each option's value, checked.
    /// - Returns: the options, or the first problem (`mode 'x' is not one of none|certificate|public-key`).
    public static func parse(_ given: [String: String]) -> Result<PinPolicyOptions, PinOptionProblem> {
        var options = PinPolicyOptions()
        if let text = given["library"] {
            guard let library = PinningLibraries.named(PinLibrary(rawValue: text.lowercased())) else {
                return .failure(PinOptionProblem("library '\(text)' is not one of \(PinningLibraries.idList)"))
            }
            options.library = library.id
        }
        for spec in allOptions {
            guard let text = given[spec.key] else { continue }
            switch spec.kind {
            case .choice(let words):
                guard words.contains(text.lowercased()) else {
                    return .failure(
                        PinOptionProblem("\(spec.key) '\(text)' is not one of \(words.joined(separator: "|"))"))
                }
                options.values[spec.key] = text.lowercased()
            case .boolean:
                guard let value = PinOptionValues.boolean(text) else {
                    return .failure(PinOptionProblem("\(spec.key) '\(text)' is not true or false"))
                }
                options.values[spec.key] = String(value)
            case .integer(let allowed):
                guard Int(text) != nil else {
                    let list = Self.either(allowed.map(String.init))
                    return .failure(PinOptionProblem("\(spec.key) '\(text)' is not a number (\(list))"))
                }
                options.values[spec.key] = text
            }
        }
        if let problem = options.problem(.endpointList) { return .failure(PinOptionProblem(problem)) }
        return .success(options)
    }

    /// What is wrong with the combination, in `spelling`; nil when it is usable. Options of another library than
    /// the one named are refused (`--mode … are AFNetworking options: add --library afnetworking`); a number outside
    /// its values is refused; then the library checks its own combination.
    public func problem(_ spelling: PinOptionSpelling = .commandLine) -> String? {
        for other in PinningLibraries.all where other.id != library {
            let given = other.options.contains { spec in values[spec.key].map(spec.isGiven) ?? false }
            if given {
                let names = Self.and(other.options.map(spelling.name))
                let what = other.options.count == 1 ? "is an option of \(other.name)" : "are \(other.name) options"
                return "\(names) \(what): add \(spelling.library(other.id))"
            }
        }
        guard let chosen = PinningLibraries.named(library) else { return "unknown library \(library.rawValue)" }
        for spec in chosen.options {
            if case .integer(let allowed) = spec.kind, let number = values.int(spec.key), !allowed.contains(number) {
                return "\(spelling.name(spec)) must be \(Self.either(allowed.map(String.init)))"
            }
        }
        if case .failure(let problem) = chosen.policy(values, spelling: spelling) { return problem.message }
        return nil
    }

    /// The policy the options describe (``problem(_:)`` is nil).
    package var policy: PinPolicy {
        guard let chosen = PinningLibraries.named(library) else { preconditionFailure("unknown library \(library)") }
        switch chosen.policy(values, spelling: .commandLine) {
        case .success(let policy): return policy
        case .failure(let problem): preconditionFailure("unusable pin options: \(problem)")
        }
    }

    /// `a, b and c`.
    public static func and(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// `2, 3 or 4`.
    public static func either(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
