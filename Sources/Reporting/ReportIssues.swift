import TLSModel

/// One problem a report tells a CI system about: a finding, an ATS violation of an endpoint, or an endpoint that
/// could not be scanned or judged. The one list behind every CI format (SARIF, JUnit, Code Climate, GitHub, Markdown)
/// and the text summary's problem counts, so all of them count the same problems.
package struct ReportIssue: Sendable, Equatable {
    /// What the issue is about inside its file.
    package enum Subject: Sendable, Equatable {
        /// A plist key path (a finding).
        case keyPath(String)
        /// An endpoint's target (an endpoint issue, or a finding about the endpoint at its list line).
        case target(String)
        /// Nothing more precise than the file and line.
        case none

        var text: String? {
            switch self {
            case .keyPath(let text), .target(let text): return text
            case .none: return nil
            }
        }
    }

    /// A problem shown as part of another: the scan rule behind an audit finding about the same endpoint.
    package struct Related: Sendable, Equatable {
        package var rule: RuleID
        package var message: String
    }

    package var rule: RuleID
    package var severity: Finding.Severity
    /// One line; for endpoint issues it starts with the target.
    package var message: String
    package var file: String?
    package var line: Int?
    /// The key path (findings) or the target (endpoints): what the issue is about inside its file.
    package var subject: String? { about.text }
    package var about: Subject
    /// The endpoint the issue is about (its index in the report), for a finding at the endpoint's list line too.
    package var endpoint: Int?
    /// The endpoint's own problems an audit finding stands for: one alert, the scan rules as related information.
    package var related: [Related] = []
    /// A finding's key path as keys (``Finding/keyPathComponents``): SARIF carries it beside the dotted form, which
    /// cannot be split back when a domain key has dots.
    package var keyPathComponents: [String]?
    /// The simulated Apple clients an `info.tls.apple-clients` note lists (``EndpointNotes``): SARIF carries them in
    /// the result's properties, as the JSON report's `simulations`.
    package var simulations: [ClientSimulation]?
    /// True for a finding of the report, false for an endpoint's own problem (its verdict or scan status).
    package var isFinding: Bool { !ownedByEndpoint }
    var ownedByEndpoint = false

    /// ``Fingerprint`` of the issue: the same for the same issue in every run.
    package var fingerprint: String {
        Fingerprint.of(rule: rule, file: file, subject: subject, message: message)
    }
}

/// How many problems of each severity a report has: what the text summary, the GitHub summary line and the Markdown
/// header say, and what SARIF, JUnit, Code Climate and GitHub each show one alert for.
package struct IssueCounts: Sendable, Equatable {
    package var errors = 0
    package var warnings = 0
    package var notes = 0
    package var total: Int { errors + warnings + notes }

    /// The counts of a list of issues.
    package init(_ issues: [ReportIssue]) {
        for issue in issues {
            switch issue.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
    }
}

/// Flattens reports into ``ReportIssue``s: one per problem.
///
/// An audit says each endpoint problem twice: the endpoint's own verdict (`ats.tls.forward-secrecy`, `trust.untrusted`,
/// `scan.unreachable`, …) and the audit's finding about it at the endpoint's list line (`audit.exception.missing`,
/// `audit.endpoint.fails`, `audit.endpoint.unscanned`, …), which names the fix. The list keeps the audit finding and
/// folds the endpoint's issues into it as ``ReportIssue/related``: one alert per problem, with the scan rules beside
/// it. An endpoint without an audit finding at its line (a plain scan, or an ambiguous verdict the audit does not
/// judge) keeps its own issues.
package enum ReportIssues {
    /// Every issue of a report: findings first (in report order), then each endpoint's not folded into a finding.
    /// - Parameters:
    ///   - report: the report.
    ///   - plistFile: the file a finding without one is placed in.
    ///   - endpointsFile: the file an endpoint without a `source` is placed in.
    /// - Returns: the issues; a passing endpoint has none.
    package static func of(
        _ report: ScanReport, catalogue: RuleCatalogue, plistFile: String? = nil, endpointsFile: String? = nil
    ) -> [ReportIssue] {
        var issues: [ReportIssue] = []
        let findingKeys = Set(report.findings.map { key($0.rule, $0.message) })
        // An audit finding at an endpoint's list line speaks for that endpoint.
        var auditFindingAt: [SourceLocation: Int] = [:]
        for finding in report.findings {
            let line = finding.line.flatMap { $0 > 0 ? $0 : nil }
            let file = finding.file ?? plistFile
            if catalogue.family(of: finding.rule) == .audit, let file = finding.file, let line {
                let place = SourceLocation(file: file, line: line)
                if auditFindingAt[place] == nil { auditFindingAt[place] = issues.count }
            }
            var issue = ReportIssue(
                rule: finding.rule, severity: finding.severity, message: finding.message, file: file, line: line,
                about: finding.keyPath.map { .keyPath($0) } ?? .none)
            issue.keyPathComponents = finding.keyPathComponents
            issues.append(issue)
        }
        for (index, endpoint) in report.endpoints.enumerated() {
            let own = endpointIssues(endpoint, index: index, endpointsFile: endpointsFile, findingKeys: findingKeys)
            if let source = endpoint.source, let line = source.line, line > 0,
                let at = auditFindingAt[SourceLocation(file: source.file, line: line)]
            {
                issues[at].endpoint = index
                issues[at].related += own.map { ReportIssue.Related(rule: $0.rule, message: $0.message) }
                continue
            }
            issues += own
        }
        return issues
    }

    /// A finding's or violation's identity for ``of(_:plistFile:endpointsFile:)``'s one-alert rule.
    static func key(_ rule: RuleID, _ message: String) -> String { "\(rule)\u{0}\(message)" }

    /// The problems of one endpoint on its own: a scan failure, each ATS violation, or the verdict when it has none.
    static func endpointIssues(
        _ endpoint: EndpointResult, index: Int, endpointsFile: String?, findingKeys: Set<String> = []
    ) -> [ReportIssue] {
        let target = endpoint.profile.target
        let file = endpoint.source?.file ?? endpointsFile
        let line = endpoint.source?.line.flatMap { $0 > 0 ? $0 : nil }
        var issues: [ReportIssue] = []
        func issue(_ rule: RuleID, _ severity: Finding.Severity, _ message: String) {
            issues.append(
                ReportIssue(
                    rule: rule, severity: severity, message: message, file: file, line: line, about: .target(target),
                    endpoint: index, ownedByEndpoint: true))
        }
        let profile = endpoint.profile
        if let scanRule = RuleID.Scan.id(for: profile.status) {
            issue(
                scanRule, .warning,
                "\(target) could not be scanned (\(profile.status.rawValue))" + (profile.error.map { ": \($0)" } ?? ""))
            return issues
        }
        let ats = endpoint.ats
        switch ats.verdict {
        case .pass:
            break
        case .fail:
            if ats.violations.isEmpty { issue(RuleID.ATS.fail, .error, "\(target) fails App Transport Security") }
            // A violation that repeats a finding of the report (an NSPinnedDomains rejection, which is both) is
            // that finding's problem: one alert.
            for violation in ats.violations where !findingKeys.contains(Self.key(violation.rule, violation.message)) {
                issue(violation.rule, .error, text(violation, target: target))
            }
        case .ambiguous:
            // One problem: the verdict, with both readings; the violations of the failing reading are its detail.
            let readings = ats.readings.map { "\($0.name): \($0.verdict.rawValue)" }.joined(separator: "; ")
            var message =
                ats.readings.isEmpty && !ats.ambiguities.isEmpty
                ? "\(target): the ATS verdict cannot be settled with this run's data: "
                    + ats.ambiguities.joined(separator: "; ")
                : "\(target): the ATS verdict depends on a conflicting Apple rule"
            if !readings.isEmpty { message += " (\(readings))" }
            let details = ats.violations.map { text($0, target: target) }
            if !details.isEmpty { message += ": " + details.joined(separator: "; ") }
            issue(RuleID.ATS.ambiguous, .warning, message)
        case .unknown:
            issue(
                RuleID.ATS.unknown, .note,
                "\(target): ATS verdict unknown" + (ats.notes.isEmpty ? "" : ": " + ats.notes.joined(separator: "; ")))
        }
        return issues
    }

    /// A violation as one line: the target, the message, and the key that would relax it.
    static func text(_ violation: ATSViolation, target: String) -> String {
        var text = "\(target): \(violation.message)"
        if let keyPath = violation.keyPath { text += " (relaxed by \(keyPath))" }
        return text
    }
}

/// A fingerprint that identifies one issue across runs (SARIF `partialFingerprints`, Code Climate `fingerprint`).
///
/// It hashes the rule id, the file, the key path or target, and the message with every run of digits replaced
/// by `#`: not the line (an unrelated edit above moves it), and not dates, day counts, handshake counts or
/// timings that change between two runs of the same check. 64-bit FNV-1a, as 16 hex digits: an identifier,
/// not a security measure.
package enum Fingerprint {
    /// The fingerprint of an issue.
    /// - Parameters:
    ///   - rule: its rule id.
    ///   - file: its file, if any.
    ///   - subject: its key path or target, if any.
    ///   - message: its message.
    /// - Returns: 16 lower-case hex digits.
    package static func of(rule: RuleID, file: String?, subject: String?, message: String) -> String {
        let text = [rule.rawValue, file ?? "", subject ?? "", normalised(message)].joined(separator: "\u{1F}")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The message with each run of ASCII digits replaced by one `#`.
    static func normalised(_ message: String) -> String {
        var out = ""
        var inDigits = false
        for character in message {
            if character.isASCII, character.isNumber {
                if !inDigits { out.append("#") }
                inDigits = true
            } else {
                out.append(character)
                inDigits = false
            }
        }
        return out
    }
}
