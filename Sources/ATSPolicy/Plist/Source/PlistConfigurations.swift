import Foundation
import TLSModel

/// The build configurations of a preprocessed Info.plist: which combinations of definitions to run, which of them
/// give the same plist, and what to call each.
enum PlistConfigurations {
    /// One combination of definitions: each name the conditions test, defined (as `1`) or not.
    struct Assignment: Hashable {
        var defined: [String: Bool]
    }

    /// Preprocesses `text` once per configuration and parses each.
    /// - Throws: ``PlistError`` when no configuration is a plist.
    static func read(
        text: String, file: String, definitions: [String: PreprocessorMacro]?, options: PlistReadOptions
    ) throws -> PlistSource {
        var findings: [Finding] = []
        let names = definitions == nil ? PlistPreprocessor.conditionNames(text) : []
        let (assignments, total) = choose(names: names, limit: options.maximumConfigurations)
        if assignments.count < total {
            findings.append(
                Finding(
                    rule: RuleID.Plist.sourceConfigurationsLimited, severity: .note,
                    message:
                        "the preprocessor conditions test \(names.count) names (\(names.joined(separator: ", "))), "
                        + "\(total) configurations: atscheck judged \(assignments.count) (each name alone and none); "
                        + "give --define NAME (or INFOPLIST_PREPROCESSOR_DEFINITIONS) for the configuration you build",
                    file: file, line: nil, keyPath: nil))
        }
        // Each combination's text; combinations with the same text are one configuration.
        var groups: [(text: PreprocessedText, members: [Assignment])] = []
        var failures: [(Assignment, PreprocessorFailure)] = []
        for assignment in assignments {
            var macros = definitions ?? [:]
            for (name, isDefined) in assignment.defined where isDefined { macros[name] = PreprocessorMacro() }
            var preprocessor = PlistPreprocessor(macros: macros, readInclude: includeReader)
            do {
                let output = try preprocessor.run(text: text, file: file)
                if let index = groups.firstIndex(where: { $0.text == output }) {
                    groups[index].members.append(assignment)
                } else {
                    groups.append((output, [assignment]))
                }
            } catch let failure as PreprocessorFailure {
                if failure.tooLarge {
                    throw PlistError(code: .tooLarge, file: file, line: failure.line, reason: failure.reason)
                }
                failures.append((assignment, failure))
            }
        }
        var documents: [PlistDocument] = []
        var firstError: PlistError?
        for group in groups {
            let label = groups.count + failures.count > 1 ? Self.label(group.members, names: names) : nil
            do {
                documents.append(
                    try PlistDocument.parse(
                        data: Data(group.text.text.utf8), file: file, sourceLines: group.text.sourceLines,
                        settings: options.buildSettings, configuration: label))
            } catch let error as PlistError {
                var error = error
                if let label { error.reason += " (in the configuration with \(label))" }
                firstError = firstError ?? error
                findings.append(invalid(error, file: file))
            }
        }
        for (assignment, failure) in failures {
            let label = Self.label([assignment], names: names)
            let error = PlistError(
                code: .malformed, file: file, line: failure.line,
                reason: failure.reason + (assignments.count > 1 ? " (in the configuration with \(label))" : ""))
            firstError = firstError ?? error
            findings.append(invalid(error, file: file))
        }
        guard !documents.isEmpty else { throw firstError ?? PlistError(code: .malformed, file: file, reason: "empty") }
        // With one configuration left, its findings need no qualifier; the invalid ones still say which they are.
        if documents.count == 1 { documents[0].configuration = nil }
        return PlistSource(file: file, configurations: documents, findings: findings)
    }

    /// A configuration that is not a plist, when others are: the build of that configuration would fail.
    private static func invalid(_ error: PlistError, file: String) -> Finding {
        Finding(
            rule: RuleID.Plist.sourceConfigurationInvalid, severity: .warning,
            message: "\(error.reason): Xcode cannot build this configuration; the others are judged",
            file: file, line: error.line, keyPath: nil)
    }

    /// Reads an `#include`d file relative to the including file's folder.
    static func includeReader(_ name: String, _ includer: String) throws -> (path: String, text: String) {
        let folder = (includer as NSString).deletingLastPathComponent
        let path = name.hasPrefix("/") ? name : (folder as NSString).appendingPathComponent(name)
        do {
            let data = try BoundedFileReader.read(path: path, limit: InputLimits.plistBytes)
            return (path, String(decoding: data, as: UTF8.self))
        } catch {
            throw PreprocessorFailure(line: 0, reason: "#include \"\(name)\": \(path): \(error.reason)")
        }
    }

    /// The combinations to run and how many there are: all of them when within `limit`; else none defined, then
    /// each name alone, then pairs, … up to `limit`.
    static func choose(names: [String], limit: Int) -> (assignments: [Assignment], total: Int) {
        let total = names.count >= 62 ? Int.max : 1 << names.count
        var out: [Assignment] = []
        func assignment(_ set: Set<String>) -> Assignment {
            Assignment(defined: Dictionary(uniqueKeysWithValues: names.map { ($0, set.contains($0)) }))
        }
        func subsets(size: Int, from start: Int, chosen: Set<String>) {
            guard out.count < limit else { return }
            if chosen.count == size {
                out.append(assignment(chosen))
                return
            }
            guard start < names.count else { return }
            for index in start..<names.count {
                subsets(size: size, from: index + 1, chosen: chosen.union([names[index]]))
                if out.count >= limit { return }
            }
        }
        for size in 0...names.count where out.count < limit { subsets(size: size, from: 0, chosen: []) }
        return (out, total)
    }

    /// What to call a configuration: the names whose definition is the same across the combinations that give it
    /// (`DEBUG defined, BETA not defined`); names that make no difference to it are left out.
    static func label(_ members: [Assignment], names: [String]) -> String {
        guard let first = members.first else { return "" }
        let fixed = names.filter { name in members.allSatisfy { $0.defined[name] == first.defined[name] } }
        let shown = fixed.isEmpty ? names : fixed
        return shown.map { "\($0) \(first.defined[$0]! ? "defined" : "not defined")" }.joined(separator: ", ")
    }
}
