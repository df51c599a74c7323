import TLSModel

/// Renders a ``DiagnosticsReport`` the way `nscurl --ats-diagnostics --verbose` prints (docs/apple-rules.md §5.1),
/// followed by the minimal exception and the report's notes, fitted to a width (``TextLayout``).
package enum DiagnosticsTextRenderer {
    /// The line between sections: nscurl's 80 `=`, or as many as the width has.
    static func rule(_ width: Int) -> String { String(repeating: "=", count: min(80, width)) }

    /// The whole report as text.
    /// - Parameters:
    ///   - report: the diagnostics report.
    ///   - width: the display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: text ending in a newline.
    package static func render(_ report: DiagnosticsReport, width: Int = TextLayout.defaultWidth) -> String {
        let rule = rule(width)
        var lines = [
            "Starting ATS Diagnostics",
            "",
            "Configuring ATS Info.plist keys and displaying the result of HTTPS loads to "
                + "\(ControlEscaping.escape(report.url)).",
            "A test will \"PASS\" if URLSession:task:didCompleteWithError: returns a nil error.",
            "(Predicted from one scan with iOS \(report.osVersion) rules by atscheck; no connection was made per "
                + "test.)",
        ]
        var currentSection: String?
        for test in report.tests {
            if test.section != currentSection {
                if currentSection != nil { lines.append("") }
                lines += [rule, "", test.section]
                if currentSection != nil { lines.append("") }
                currentSection = test.section
            } else {
                lines.append("")
            }
            lines += ["---", test.title, "ATS Dictionary:"]
            lines += oldStylePlist(test.dictionary).split(separator: "\n", omittingEmptySubsequences: false).map(
                String.init)
            lines.append("Result : \(test.result.rawValue)")
            if let reason = test.reason {
                lines.append("\(test.result == .fail ? "Error" : "Reason") : \(ControlEscaping.escape(reason))")
            }
            lines.append("---")
        }
        lines += ["", rule, ""]
        lines += renderMinimalException(report.minimalException, osVersion: report.osVersion)
        if !report.notes.isEmpty {
            lines += ["", "Notes:"]
            lines += report.notes.map { "- \(ControlEscaping.escape($0))" }
        }
        // The minimal exception's plist is for pasting into Info.plist: printed as it is.
        let verbatim = report.minimalException.plist
        return lines.map { $0 == verbatim ? $0 : TextLayout.fit($0, width: width) }.joined(separator: "\n") + "\n"
    }

    /// The text of `atscheck diagnose`: the matrix (``render(_:)-(DiagnosticsReport)``), after a line when the URL
    /// could not be scanned, and before the findings.
    /// - Parameters:
    ///   - section: the diagnosis.
    ///   - width: the display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: text ending in a newline.
    package static func render(_ section: DiagnosisSection, width: Int = TextLayout.defaultWidth) -> String {
        var text = render(section.report, width: width)
        let scanned = section.profile
        if scanned.status != .completed {
            let target = ControlEscaping.escape(scanned.target)
            let reason = ControlEscaping.escape(scanned.error ?? scanned.status.rawValue)
            text = TextLayout.fit("atscheck could not scan \(target): \(reason)", width: width) + "\n\n" + text
        }
        if !section.findings.isEmpty { text += "\n" }
        for finding in section.findings {
            let line = "\(finding.severity.rawValue): \(ControlEscaping.escape(finding.message)) [\(finding.rule)]"
            text += TextLayout.fit(line, width: width) + "\n"
        }
        return text
    }

    static func renderMinimalException(_ minimal: MinimalException, osVersion: String) -> [String] {
        var lines = [
            "Minimal ATS exception for \(ControlEscaping.escape(minimal.domain)) (iOS \(osVersion) rules)", "",
        ]
        switch minimal.status {
        case .noneNeeded:
            lines.append("Result : none needed")
        case .exception:
            lines.append("Result : add this entry to NSAppTransportSecurity > NSExceptionDomains")
            if let plist = minimal.plist { lines += ["", plist, ""] }
        case .impossible:
            lines.append("Result : no exception can make this pass")
        case .unknown:
            lines.append("Result : could not be predicted")
        }
        lines.append("Reason : \(ControlEscaping.escape(minimal.reason))")
        return lines
    }

    /// A plist value in the old-style text `NSDictionary`'s description uses (keys sorted, `true`/`false`).
    package static func oldStylePlist(_ value: PlistValue, level: Int = 0) -> String {
        let indent = String(repeating: " ", count: 4 * level)
        let inner = String(repeating: " ", count: 4 * (level + 1))
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .string(let s): return quoted(s)
        case .array(let items):
            if items.isEmpty { return "(\n\(indent))" }
            let body = items.map { inner + oldStylePlist($0, level: level + 1) }.joined(separator: ",\n")
            return "(\n\(body)\n\(indent))"
        case .dict(let entries):
            var out = "{\n"
            for key in entries.keys.sorted() {
                let child = entries[key]!
                let separator: String
                switch child {
                case .dict, .array: separator = " = " + inner  // NSDictionary's description indents nested containers
                default: separator = " = "
                }
                out += inner + quoted(key) + separator + oldStylePlist(child, level: level + 1) + ";\n"
            }
            return out + indent + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        let plain =
            !s.isEmpty
            && s.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_"
            }
        if plain { return s }
        return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
