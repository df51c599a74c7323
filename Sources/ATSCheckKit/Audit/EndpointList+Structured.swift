import ATSPolicy
import Foundation
import Judging
import TLSModel
import Yams

extension EndpointList {
    /// The keys an endpoint mapping may have.
    static let knownKeys: Set<String> = Set(["url", "resolve", "sni", "caFile", "expect", "name"]).union(pinKeys)

    /// Parses the YAML/JSON form: `endpoints:` with strings or `{url, resolve, sni, caFile, expect, name}` plus a
    /// pin check (`pins`, `library` and the library's options, ``EndpointPinCheck``).
    static func parseStructured(_ text: String, file: String, format: StructuredFile.Format) throws -> EndpointList {
        let what = format == .json ? "JSON" : "YAML"
        guard let root = try StructuredFile.parse(text, format: format, file: file) else {
            throw InputFileError(file: file, reason: "the \(what) file is empty; expected an 'endpoints:' list")
        }
        let items: Node.Sequence
        if let sequence = root.sequence {
            items = sequence
        } else if let mapping = root.mapping {
            guard let value = mapping["endpoints"] else {
                throw InputFileError(
                    file: file, line: root.line, reason: "no 'endpoints' key; expected 'endpoints:' followed by a list")
            }
            guard let sequence = value.sequence else {
                throw InputFileError(
                    file: file, line: value.line, reason: "'endpoints' is \(value.kindName), not a list")
            }
            items = sequence
        } else {
            throw InputFileError(
                file: file, line: root.line,
                reason: "the top level is \(root.kindName); expected 'endpoints:' followed by a list")
        }
        var entries: [EndpointEntry] = []
        var findings: [Finding] = []
        for item in items {
            let location = SourceLocation(file: file, line: item.line)
            let target = item.scalarText ?? item.mapping?["url"]?.scalarText
            if let target, target.utf8.count > InputLimits.endpointLineBytes {
                throw lineTooLong(file: file, line: item.mapping?["url"]?.line ?? item.line ?? 1)
            }
            switch item {
            case .scalar(let scalar):
                do { entries.append(EndpointEntry(target: try Target(parsing: scalar.string), source: location)) } catch
                {
                    findings.append(invalid("\(error)", at: location))
                }
            case .mapping(let mapping):
                let (entry, problems) = entryFrom(mapping, at: location)
                findings += problems
                if let entry { entries.append(entry) }
            default:
                findings.append(
                    invalid("an endpoint is \(item.kindName); write a URL string or a mapping with 'url'", at: location)
                )
            }
        }
        return EndpointList(file: file, entries: entries, findings: findings + duplicates(entries))
    }

    /// One mapping item: the entry (nil when unusable) and its findings.
    static func entryFrom(_ mapping: Node.Mapping, at location: SourceLocation) -> (EndpointEntry?, [Finding]) {
        var findings: [Finding] = []
        var values: [String: String] = [:]
        for (keyNode, valueNode) in mapping {
            let key = keyNode.scalarText ?? "?"
            let at = SourceLocation(file: location.file, line: keyNode.line ?? location.line)
            guard knownKeys.contains(key) else {
                let hint = KeyHint.closest(to: key, in: knownKeys).map { " (did you mean '\($0)'?)" } ?? ""
                findings.append(
                    Finding(
                        rule: RuleID.Endpoints.unknownKey, severity: .warning,
                        message: "unknown key '\(key)' in an endpoint\(hint); it is ignored", file: at.file,
                        line: at.line))
                continue
            }
            guard let text = valueNode.scalarText else {
                findings.append(invalid("'\(key)' is \(valueNode.kindName), not a string", at: at))
                return (nil, findings)
            }
            values[key] = text
        }
        guard let url = values["url"] else {
            findings.append(invalid("an endpoint mapping has no 'url'", at: location))
            return (nil, findings)
        }
        let target: Target
        do { target = try Target(parsing: url) } catch {
            findings.append(invalid("\(error)", at: location))
            return (nil, findings)
        }
        var entry = EndpointEntry(
            target: target, sni: values["sni"], caFile: values["caFile"], name: values["name"], source: location)
        if let resolve = values["resolve"] {
            var address = resolve
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            guard IPAddress(address) != nil else {
                findings.append(invalid("resolve '\(resolve)' is not an IP address", at: location))
                return (nil, findings)
            }
            entry.resolve = address
        }
        if let expect = values["expect"] {
            guard let value = EndpointEntry.Expectation(rawValue: expect.lowercased()) else {
                findings.append(invalid("expect '\(expect)' is neither 'pass' nor 'fail'", at: location))
                return (nil, findings)
            }
            entry.expect = value
        }
        switch pinCheck(from: values) {
        case .success(let check): entry.pinCheck = check
        case .failure(let error):
            findings.append(invalid(error.message, at: location))
            return (nil, findings)
        }
        if entry.isHTTP && entry.pinCheck != nil {
            findings.append(
                Finding(
                    rule: RuleID.Endpoints.unknownKey, severity: .warning,
                    message:
                        "pins has no effect on an http:// endpoint (nothing is scanned, there is no certificate to "
                        + "pin)",
                    file: location.file, line: location.line))
        }
        if entry.isHTTP && (entry.sni != nil || entry.caFile != nil) {
            findings.append(
                Finding(
                    rule: RuleID.Endpoints.unknownKey, severity: .warning,
                    message: "sni and caFile have no effect on an http:// endpoint (nothing is scanned)",
                    file: location.file, line: location.line))
        }
        return (entry, findings)
    }
}

/// "Did you mean" for short key sets (edit distance ≤ 2, case-insensitive).
enum KeyHint {
    static func closest(to key: String, in candidates: Set<String>) -> String? {
        let lower = key.lowercased()
        let scored = candidates.map { ($0, KeySuggestion.editDistance(lower, $0.lowercased())) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }
}
