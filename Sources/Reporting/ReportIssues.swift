import TLSModel

/// One thing a report tells a CI system about: a finding, an ATS violation of an endpoint, or an endpoint that
/// could not be scanned or judged. The flat view behind the GitHub annotations and the Code Climate report
/// (SARIF builds the same list with its own location objects).
public struct ReportIssue: Sendable, Equatable {
    public var rule: RuleID
    public var severity: Finding.Severity
    /// One line; for endpoint issues it starts with the target.
    public var message: String
    public var file: String?
    public var line: Int?
    /// The key path (findings) or the target (endpoints): what the issue is about inside its file.
    public var subject: String?

    /// ``Fingerprint`` of the issue: the same for the same issue in every run.
    public var fingerprint: String {
        Fingerprint.of(rule: rule, file: file, subject: subject, message: message)
    }
}

/// Flattens reports into ``ReportIssue``s.
public enum ReportIssues {
    /// Every issue of a report: findings first (in report order), then each endpoint's.
    /// - Parameters:
    ///   - report: the report.
    ///   - plistFile: the file a finding without one is placed in.
    ///   - endpointsFile: the file an endpoint without a `source` is placed in.
    /// - Returns: the issues; a passing endpoint has none.
    public static func of(_ report: ScanReport, plistFile: String? = nil, endpointsFile: String? = nil) -> [ReportIssue]
    {
        var issues = report.findings.map { finding in
            ReportIssue(
                rule: finding.rule, severity: finding.severity, message: finding.message,
                file: finding.file ?? plistFile,
                line: finding.line.flatMap { $0 > 0 ? $0 : nil }, subject: finding.keyPath)
        }
        for endpoint in report.endpoints {
            let target = endpoint.profile.target
            let file = endpoint.source?.file ?? endpointsFile
            let line = endpoint.source?.line.flatMap { $0 > 0 ? $0 : nil }
            func issue(_ rule: RuleID, _ severity: Finding.Severity, _ message: String) {
                issues.append(
                    ReportIssue(
                        rule: rule, severity: severity, message: message, file: file, line: line, subject: target))
            }
            let profile = endpoint.profile
            if let scanRule = RuleID.Scan.id(for: profile.status) {
                issue(
                    scanRule, .warning,
                    "\(target) could not be scanned (\(profile.status.rawValue))"
                        + (profile.error.map { ": \($0)" } ?? ""))
                continue
            }
            let ats = endpoint.ats
            switch ats.verdict {
            case .pass:
                continue
            case .fail:
                if ats.violations.isEmpty { issue(RuleID.ATS.fail, .error, "\(target) fails App Transport Security") }
                for violation in ats.violations {
                    issue(violation.rule, .error, ResultBuilder.text(violation, target: target))
                }
            case .ambiguous:
                issue(RuleID.ATS.ambiguous, .warning, "\(target): the ATS verdict depends on a conflicting Apple rule")
                for violation in ats.violations {
                    issue(violation.rule, .warning, ResultBuilder.text(violation, target: target))
                }
            case .unknown:
                issue(
                    RuleID.ATS.unknown, .note,
                    "\(target): ATS verdict unknown"
                        + (ats.notes.isEmpty ? "" : ": " + ats.notes.joined(separator: "; ")))
            }
        }
        return issues
    }
}

/// A fingerprint that identifies one issue across runs (SARIF `partialFingerprints`, Code Climate `fingerprint`).
///
/// It hashes the rule id, the file, the key path or target, and the message with every run of digits replaced
/// by `#`: not the line (an unrelated edit above moves it), and not dates, day counts, handshake counts or
/// timings that change between two runs of the same check. 64-bit FNV-1a, as 16 hex digits: an identifier,
/// not a security measure.
public enum Fingerprint {
    /// The fingerprint of an issue.
    /// - Parameters:
    ///   - rule: its rule id.
    ///   - file: its file, if any.
    ///   - subject: its key path or target, if any.
    ///   - message: its message.
    /// - Returns: 16 lower-case hex digits.
    public static func of(rule: RuleID, file: String?, subject: String?, message: String) -> String {
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
