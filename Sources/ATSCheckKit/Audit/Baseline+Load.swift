import ATSPolicy
import Foundation
import Judging
import TLSModel
import Yams

extension Baseline {
    /// Reads a baseline (YAML, or JSON for `.json` files).
    /// - Throws: ``InputFileError`` when the file is unreadable, larger than ``InputLimits/baselineBytes``, or
    /// malformed.
    package static func load(path: String) throws -> Baseline {
        try parse(text: StructuredFile.readText(path: path, limit: InputLimits.baselineBytes), file: path)
    }

    /// Parses a baseline: `waivers:` followed by a list of mappings (an empty file is an empty baseline).
    /// - Throws: ``InputFileError`` when the text is malformed or not shaped like a baseline.
    package static func parse(text: String, file: String) throws -> Baseline {
        let format =
            StructuredFile.format(ofPath: file)
            ?? (text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") ? .json : .yaml)
        guard let root = try StructuredFile.parse(text, format: format, file: file) else {
            return Baseline(file: file, waivers: [])
        }
        guard let mapping = root.mapping else {
            throw InputFileError(
                file: file, line: root.line,
                reason: "the top level is \(root.kindName); expected 'waivers:' followed by a list")
        }
        guard let list = mapping["waivers"] else {
            throw InputFileError(
                file: file, line: root.line, reason: "no 'waivers' key; expected 'waivers:' followed by a list")
        }
        if list.scalar?.string.isEmpty == true || list.scalar?.string == "null" || list.scalar?.string == "~" {
            return Baseline(file: file, waivers: [])
        }
        guard let items = list.sequence else {
            throw InputFileError(file: file, line: list.line, reason: "'waivers' is \(list.kindName), not a list")
        }
        var waivers: [Waiver] = []
        for item in items {
            guard let fields = item.mapping else {
                throw InputFileError(
                    file: file, line: item.line,
                    reason:
                        "a waiver is \(item.kindName); expected a mapping with rule, target or keyPath, reason, expires"
                )
            }
            func value(_ key: String) -> String? { fields[key]?.scalarText }
            waivers.append(
                Waiver(
                    rule: value("rule"), target: value("target"), keyPath: value("keyPath"), reason: value("reason"),
                    expires: value("expires"), source: SourceLocation(file: file, line: item.line)))
        }
        return Baseline(file: file, waivers: waivers)
    }
}
