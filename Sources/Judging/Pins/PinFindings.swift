import Foundation
import TLSModel

/// How one pin evaluation becomes findings of `audit`, `scan --plist` and `app`, at its source: the rejection an
/// error, everything else at most a warning, an `expect: fail` entry's rejection a note.
package enum PinFindings {
    /// The findings of an endpoint-list entry's pin check (`pins:`, `library:`): its subject the library's policy
    /// with the entry's pins; `expect: fail` does not apply (it concerns ATS).
    /// - Parameter check: The entry's evaluation.
    /// - Returns: The findings, the rejection first.
    package static func ofEntry(_ check: AuditPinCheck) -> [Finding] {
        of(check, subject: "the \(check.library.rawValue) policy with pins \(check.pins ?? "")", expectFail: false)
    }

    /// The findings of one evaluation, at its source: the rejection as an error, the rest at most warnings.
    /// - Parameters:
    ///   - check: The evaluation and where its configuration is written.
    ///   - subject: What decided, for messages.
    ///   - expectFail: The entry says `expect: fail`: an ATS (NSPinnedDomains) rejection is expected, a note.
    /// - Returns: The findings, the rejection first.
    package static func of(_ check: AuditPinCheck, subject: String, expectFail: Bool) -> [Finding] {
        let label = check.endpoint
        func at(_ rule: RuleID, _ severity: Finding.Severity, _ message: String) -> Finding {
            Finding(
                rule: rule, severity: severity, message: message, file: check.source.file, line: check.source.line,
                keyPath: check.keyPath)
        }
        guard let evaluation = check.result.evaluation else {
            return [
                at(
                    RuleID.Audit.endpointUnscanned, .warning,
                    "\(label): \(subject) could not be evaluated "
                        + "(\(check.result.error ?? check.result.status.rawValue))"
                )
            ]
        }
        var out: [Finding] = []
        if evaluation.verdict == .reject {
            let why =
                evaluation.findings.first { $0.rule == RuleID.Pins.rejected }?.message ?? evaluation.noMatchReason
                ?? evaluation.result
            let finding = at(RuleID.Pins.rejected, .error, "\(label): \(subject) rejects it: \(why)")
            out.append(expectFail ? expected(finding) : finding)
        }
        for finding in evaluation.findings + check.result.risks where finding.rule != RuleID.Pins.rejected {
            out.append(at(finding.rule, min(finding.severity, .warning), "\(label): \(subject): \(finding.message)"))
        }
        return out
    }

    /// An error the entry's `expect: fail` anticipates, as a note.
    package static func expected(_ finding: Finding) -> Finding {
        var copy = finding
        copy.severity = .note
        copy.message = "expected to fail (expect: fail): " + finding.message
        return copy
    }
}
