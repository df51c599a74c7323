import Foundation
import TLSModel

/// Renders a ``ScanReport`` as JUnit XML for CI test-report viewers: one test case per problem of ``ReportIssues`` (the
/// list every CI format shares), and one passing case per endpoint without a problem, so the failures are the
/// text summary's errors.
///
/// One `<testsuite>` for the endpoints (classname = the target): a passing endpoint is one case
/// ``JUnitRenderer/atsCheck``; an endpoint with problems has a case per problem, named by its rule (for an audit, the
/// audit finding, with the endpoint's scan rules in its detail). One `<testsuite>` per input file for the findings
/// about no endpoint. Errors are `<failure>`; an
/// endpoint that could not be scanned is `<error>`; an ambiguous or unknown verdict is `<skipped>` (not decided);
/// warnings and notes pass, with the message in `<system-out>`. An interrupted scan (``ScanReport/partial``) ends with
/// a `run` suite whose one case, `complete run`, is an `<error>`.
///
/// The simulated Apple clients of an endpoint (issue 36) are in the `<system-out>` of its first case, one line per
/// client and the quantum-secure readiness, in the text report's words (``SimulationWording``); the endpoints suite
/// has the readiness counts as `<properties>`. They are not test cases of their own: a client of the release the
/// verdict is for that fails is already a `<failure>`, its rule `ats.tls.simulated-handshake-failed`, and a failure
/// per client besides would count one problem twice and fail a CI job on clients of releases the run does not judge
/// (the failures are the text summary's errors, as in every CI format).
package enum JUnitRenderer {
    /// The case of an endpoint that passes.
    package static let atsCheck = "App Transport Security"

    /// Renders the report.
    /// - Parameters:
    ///   - report: The report to render.
    ///   - catalogue: The rule catalogue issues are grouped by.
    /// - Returns: A UTF-8 JUnit XML document.
    package static func render(_ report: ScanReport, catalogue: RuleCatalogue) -> String {
        var suites: [Suite] = []
        let issues = ReportIssues.of(report, catalogue: catalogue)
        var byEndpoint: [Int: [ReportIssue]] = [:]
        var files: [String] = []
        var byFile: [String: [ReportIssue]] = [:]
        for issue in issues {
            if let endpoint = issue.endpoint {
                byEndpoint[endpoint, default: []].append(issue)
            } else {
                let file = issue.file ?? "Info.plist"
                if byFile[file] == nil { files.append(file) }
                byFile[file, default: []].append(issue)
            }
        }
        if !report.endpoints.isEmpty {
            var cases: [Case] = []
            for (index, endpoint) in report.endpoints.enumerated() {
                let target = endpoint.profile.target
                var own: [Case]
                if let problems = byEndpoint[index] {
                    own = problems.map { testCase(for: $0, classname: target, catalogue: catalogue) }
                } else {
                    own = [
                        Case(
                            classname: target, name: atsCheck, outcome: .passed,
                            systemOut: endpoint.ats.osVersion.map { "rules of OS \($0)" })
                    ]
                }
                if let clients = simulations(endpoint.profile), !own.isEmpty {
                    own[0].systemOut = [own[0].systemOut, clients].compactMap { $0 }.joined(separator: "\n")
                }
                cases += own
            }
            suites.append(Suite(name: "endpoints", properties: quantumProperties(report.summary), cases: cases))
        }
        for file in files {
            suites.append(
                Suite(name: file, cases: byFile[file]!.map { testCase(for: $0, classname: file, catalogue: catalogue) })
            )
        }
        if let partial = report.partial {
            // An interrupted run: a viewer that shows only failing cases must not read the missing ones as passes.
            let message = "partial report: \(partial.summary)"
            suites.append(
                Suite(
                    name: "run",
                    cases: [
                        Case(
                            classname: report.tool.name, name: "complete run",
                            outcome: .error(message: message, type: "interrupted"))
                    ]))
        }

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let all = suites.flatMap(\.cases)
        xml += "<testsuites name=\"\(escape(report.tool.name))\" \(counts(all))>\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(escape(suite.name))\" \(counts(suite.cases))>\n"
            if !suite.properties.isEmpty {
                xml += "    <properties>\n"
                for property in suite.properties {
                    xml += "      <property name=\"\(escape(property.name))\" value=\"\(escape(property.value))\"/>\n"
                }
                xml += "    </properties>\n"
            }
            for c in suite.cases { xml += c.xml(indent: "    ") }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// The simulated clients of an endpoint as `<system-out>` lines: the title, a line per client, the readiness;
    /// nil when none was simulated.
    static func simulations(_ profile: ServerProfile) -> String? {
        guard profile.status == .completed, let simulations = profile.simulations, !simulations.isEmpty else {
            return nil
        }
        let lines = simulations.map { "  " + SimulationWording.line($0) }
        return ([SimulationWording.title + ":"] + lines + [SimulationWording.readiness(profile)])
            .joined(separator: "\n")
    }

    /// The summary's readiness counts (``ReportSummary/quantumSecure`` and the two beside it); empty when no
    /// endpoint's clients were simulated.
    static func quantumProperties(_ summary: ReportSummary) -> [(name: String, value: String)] {
        guard let secure = summary.quantumSecure else { return [] }
        return [
            ("quantum-secure", "\(secure)"), ("not-quantum-secure", "\(summary.notQuantumSecure ?? 0)"),
            ("quantum-unknown", "\(summary.quantumUnknown ?? 0)"),
        ]
    }

    struct Suite {
        var name: String
        /// `<properties>` of the suite, before its cases (the JUnit schema's order).
        var properties: [(name: String, value: String)] = []
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

    /// The case of one problem: named by its rule (and key path), its outcome by its severity and rule.
    static func testCase(for issue: ReportIssue, classname: String, catalogue: RuleCatalogue) -> Case {
        let place = [issue.file, issue.line.map(String.init)].compactMap { $0 }.joined(separator: ":")
        var name = issue.rule.rawValue
        if case .keyPath(let keyPath) = issue.about { name += " \(keyPath)" }
        var lines = ["\(place.isEmpty ? "" : place + ": ")\(issue.severity.rawValue): \(issue.message)"]
        lines += issue.related.map { "\($0.rule): \($0.message)" }
        let detail = lines.joined(separator: "\n")
        if catalogue.family(of: issue.rule) == .scan || issue.rule == RuleID.Audit.endpointUnscanned {
            return Case(
                classname: classname, name: name, outcome: .error(message: issue.message, type: issue.rule.rawValue),
                systemOut: detail)
        }
        switch issue.severity {
        case .error:
            return Case(
                classname: classname, name: name,
                outcome: .failure(message: issue.message, type: issue.rule.rawValue, detail: detail))
        case .warning, .note:
            if issue.rule == RuleID.ATS.ambiguous || issue.rule == RuleID.ATS.unknown {
                return Case(classname: classname, name: name, outcome: .skipped(message: issue.message))
            }
            return Case(classname: classname, name: name, outcome: .passed, systemOut: detail)
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
