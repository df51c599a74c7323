import Foundation
import TLSModel

extension EndpointList {
    /// Parses the text form: one target per line, `#` comments, blank lines ignored.
    static func parseText(_ text: String, file: String) -> EndpointList {
        var entries: [EndpointEntry] = []
        var findings: [Finding] = []
        // Split on every line ending (\n, \r\n, \r) while keeping line numbers right.
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            var line = Substring(raw)
            // A `#` starts a comment at the start of a line or after whitespace; `https://h/#frag` keeps its `#`.
            if let hash = commentStart(in: line) { line = line[..<hash] }
            let item = line.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            let location = SourceLocation(file: file, line: index + 1)
            if item.contains(where: \.isWhitespace) {
                findings.append(invalid("'\(item)' has more than one word; write one URL or host[:port] per line", at: location))
                continue
            }
            do {
                entries.append(EndpointEntry(target: try Target(parsing: item), source: location))
            } catch let error as TargetError {
                findings.append(invalid(error.description, at: location))
            } catch {
                findings.append(invalid("invalid target '\(item)'", at: location))
            }
        }
        return EndpointList(file: file, entries: entries, findings: findings + duplicates(entries))
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
        Finding(rule: RuleID.Endpoints.invalid, severity: .error, message: reason, file: location.file, line: location.line)
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
                        message: "\(entry.target.scheme)://\(entry.target.hostPort) is already listed on line \(first.line ?? 0)",
                        file: entry.source.file, line: entry.source.line))
            } else {
                seen[key] = entry.source
            }
        }
        return findings
    }
}
