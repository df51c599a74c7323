import Foundation
import TLSModel

/// Renders a ``ScanReport`` as JUnit XML for CI test-report viewers.
///
/// One `<testsuite>` for the endpoints, with one `<testcase>` per endpoint and check
/// (classname = the target; names ``JUnitRenderer/scanCheck``, ``JUnitRenderer/atsCheck``,
/// ``JUnitRenderer/trustCheck``), and one `<testsuite>` per plist with one `<testcase>` per finding.
/// Policy failures are `<failure>`; endpoints that could not be scanned are `<error>` for the scan
/// and `<skipped>` for the checks that need a scan. Plist errors fail; warnings and notes pass,
/// with the message in `<system-out>`.
public enum JUnitRenderer {
    public static let scanCheck = "TLS scan"
    public static let atsCheck = "ATS default policy"
    public static let trustCheck = "certificate trust"
    /// The test case of a plist with no findings.
    public static let plistCleanCheck = "NSAppTransportSecurity lint"

    /// Renders the report.
    /// - Parameter report: The report to render.
    /// - Returns: A UTF-8 JUnit XML document.
    public static func render(_ report: ScanReport) -> String {
        var suites: [Suite] = []
        if !report.endpoints.isEmpty {
            suites.append(Suite(name: "endpoints", cases: report.endpoints.flatMap(cases(for:))))
        }
        var files: [String] = []
        var byFile: [String: [Finding]] = [:]
        for finding in report.findings {
            let file = finding.file ?? "Info.plist"
            if byFile[file] == nil { files.append(file) }
            byFile[file, default: []].append(finding)
        }
        for file in files {
            suites.append(Suite(name: file, cases: byFile[file]!.map { testCase(for: $0, file: file) }))
        }

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let all = suites.flatMap(\.cases)
        xml += "<testsuites name=\"\(escape(report.tool.name))\" \(counts(all))>\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(escape(suite.name))\" \(counts(suite.cases))>\n"
            for c in suite.cases { xml += c.xml(indent: "    ") }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    struct Suite {
        var name: String
        var cases: [Case]
    }

    struct Case {
        enum Outcome {
            case passed
            case failure(message: String, type: String, detail: String)
            case error(message: String, type: String)
            case skipped(message: String)
        }
        var classname: String
        var name: String
        var outcome: Outcome
        var systemOut: String?

        func xml(indent: String) -> String {
            let open = "\(indent)<testcase classname=\"\(escape(classname))\" name=\"\(escape(name))\""
            var body = ""
            switch outcome {
            case .passed:
                break
            case .failure(let message, let type, let detail):
                body +=
                    "\(indent)  <failure message=\"\(escape(message))\" "
                    + "type=\"\(escape(type))\">\(escape(detail))</failure>\n"
            case .error(let message, let type):
                body += "\(indent)  <error message=\"\(escape(message))\" type=\"\(escape(type))\"/>\n"
            case .skipped(let message):
                body += "\(indent)  <skipped message=\"\(escape(message))\"/>\n"
            }
            if let systemOut { body += "\(indent)  <system-out>\(escape(systemOut))</system-out>\n" }
            return body.isEmpty ? open + "/>\n" : open + ">\n" + body + "\(indent)</testcase>\n"
        }
    }

    static func counts(_ cases: [Case]) -> String {
        var failures = 0
        var errors = 0
        var skipped = 0
        for c in cases {
            switch c.outcome {
            case .passed: break
            case .failure: failures += 1
            case .error: errors += 1
            case .skipped: skipped += 1
            }
        }
        return "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
    }

    static func cases(for endpoint: EndpointResult) -> [Case] {
        let profile = endpoint.profile
        let target = profile.target
        if let scanRule = RuleID.Scan.id(for: profile.status) {
            let reason = "\(profile.status.rawValue)" + (profile.error.map { ": \($0)" } ?? "")
            let skip = "not evaluated: the endpoint could not be scanned (\(profile.status.rawValue))"
            return [
                Case(classname: target, name: scanCheck, outcome: .error(message: reason, type: scanRule.rawValue)),
                Case(classname: target, name: atsCheck, outcome: .skipped(message: skip)),
                Case(classname: target, name: trustCheck, outcome: .skipped(message: skip)),
            ]
        }
        var result = [Case(classname: target, name: scanCheck, outcome: .passed)]
        let ats = endpoint.ats
        let atsOutcome: Case.Outcome
        switch ats.verdict {
        case .pass:
            atsOutcome = .passed
        case .fail, .ambiguous:
            let lines = ats.violations.map { v in
                "\(v.rule): \(v.message)" + (v.keyPath.map { " (relaxed by \($0))" } ?? "")
            }
            var message = ats.verdict == .fail ? "fails ATS" : "ATS verdict is ambiguous"
            if let first = ats.violations.first { message += ": \(first.message)" }
            if ats.violations.count > 1 { message += " (and \(ats.violations.count - 1) more)" }
            var detail = lines
            for reading in ats.readings { detail.append("reading \(reading.name): \(reading.verdict.rawValue)") }
            atsOutcome = .failure(
                message: message,
                type: (ats.violations.first?.rule ?? (ats.verdict == .fail ? RuleID.ATS.fail : RuleID.ATS.ambiguous))
                    .rawValue,
                detail: detail.joined(separator: "\n"))
        case .unknown:
            atsOutcome = .skipped(
                message: "ATS verdict unknown" + (ats.notes.isEmpty ? "" : ": " + ats.notes.joined(separator: "; ")))
        }
        result.append(
            Case(
                classname: target, name: atsCheck, outcome: atsOutcome,
                systemOut: ats.osVersion.map { "rules of OS \($0)" }))

        let trustOutcome: Case.Outcome
        if let certificate = profile.certificate {
            var problems: [String] = []
            if certificate.trusted == false {
                problems.append("chain not trusted" + (certificate.verifyError.map { ": \($0)" } ?? ""))
            }
            if certificate.hostnameMatches == false { problems.append("\(profile.host) matches no subjectAltName") }
            if !problems.isEmpty {
                trustOutcome = .failure(
                    message: problems.joined(separator: "; "), type: "trust", detail: problems.joined(separator: "\n"))
            } else if certificate.trusted == nil || certificate.hostnameMatches == nil {
                trustOutcome = .skipped(message: "certificate trust was not evaluated")
            } else {
                trustOutcome = .passed
            }
        } else {
            trustOutcome = .skipped(message: "no certificate was received")
        }
        result.append(Case(classname: target, name: trustCheck, outcome: trustOutcome))
        return result
    }

    static func testCase(for finding: Finding, file: String) -> Case {
        let place = finding.line.map { "\(file):\($0)" } ?? file
        let name = "\(finding.rule) \(finding.keyPath ?? "")".trimmingCharacters(in: .whitespaces)
        let text = "\(place): \(finding.severity.rawValue): \(finding.message)"
        switch finding.severity {
        case .error:
            return Case(
                classname: file, name: name,
                outcome: .failure(message: finding.message, type: finding.rule.rawValue, detail: text))
        case .warning, .note:
            return Case(classname: file, name: name, outcome: .passed, systemOut: text)
        }
    }

    /// Escapes text for XML attributes and character data: characters XML 1.0 forbids become U+FFFD, DEL and C1
    /// controls are escaped as ``ControlEscaping`` does.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                let v = scalar.value
                let allowed = v >= 0x20 && !(0xD800...0xDFFF).contains(v) && v != 0xFFFE && v != 0xFFFF
                if !allowed {
                    out.unicodeScalars.append("\u{FFFD}")  // XML 1.0 cannot carry it at all
                } else if ControlEscaping.needsEscape(scalar) {
                    out += ControlEscaping.escaped(scalar)  // DEL and C1: legal XML, but a terminal acts on them
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
