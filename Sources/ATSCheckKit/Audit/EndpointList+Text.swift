import Foundation
import Judging
import TLSModel

extension EndpointList {
    /// Parses the text form: one target per line, `#` comments, blank lines ignored.
    package static func parseText(_ text: String, file: String) -> EndpointList {
        var builder = TextListBuilder(file: file)
        // Split on every line ending (\n, \r\n, \r) while keeping line numbers right.
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() { builder.add(Substring(raw), line: index + 1) }
        return builder.list
    }

    /// Builds a text-format list one line at a time (for ``parseText(_:file:)`` and the streaming reader).
    struct TextListBuilder {
        let file: String
        var entries: [EndpointEntry] = []
        var findings: [Finding] = []

        init(file: String) { self.file = file }

        /// Adds one line (without its line ending).
        mutating func add(_ raw: Substring, line number: Int) {
            var line = raw
            // A `#` starts a comment at the start of a line or after whitespace; `https://h/#frag` keeps its `#`.
            if let hash = EndpointList.commentStart(in: line) { line = line[..<hash] }
            let item = line.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { return }
            let location = SourceLocation(file: file, line: number)
            if item.contains(where: \.isWhitespace) {
                findings.append(
                    EndpointList.invalid(
                        "'\(item)' has more than one word; write one URL or host[:port] per line", at: location))
                return
            }
            do {
                entries.append(EndpointEntry(target: try Target(parsing: item), source: location))
            } catch let error as TargetError {
                findings.append(EndpointList.invalid(error.description, at: location))
            } catch {
                findings.append(EndpointList.invalid("invalid target '\(item)'", at: location))
            }
        }

        /// The list so far, with a note for each duplicate.
        var list: EndpointList {
            EndpointList(file: file, entries: entries, findings: findings + EndpointList.duplicates(entries))
        }
    }

    static func commentStart(in line: Substring) -> Substring.Index? {
        var previous: Character = " "
        for index in line.indices {
            if line[index] == "#" && previous.isWhitespace { return index }
            previous = line[index]
        }
        return nil
    }

    static func invalid(_ reason: String, at location: SourceLocation) -> Finding {
        Finding(
            rule: RuleID.Endpoints.invalid, severity: .error, message: reason, file: location.file, line: location.line)
    }

    /// A note for each entry that repeats an earlier one (same scheme, host, port and connect address).
    static func duplicates(_ entries: [EndpointEntry]) -> [Finding] {
        var seen: [String: SourceLocation] = [:]
        var findings: [Finding] = []
        for entry in entries {
            let key = "\(entry.target.scheme)://\(entry.target.hostPort)@\(entry.resolve ?? "")"
            if let first = seen[key] {
                findings.append(
                    Finding(
                        rule: RuleID.Endpoints.duplicate, severity: .note,
                        message:
                            "\(entry.target.scheme)://\(entry.target.hostPort) is already listed on line "
                            + "\(first.line ?? 0)",
                        file: entry.source.file, line: entry.source.line))
            } else {
                seen[key] = entry.source
            }
        }
        return findings
    }
}
