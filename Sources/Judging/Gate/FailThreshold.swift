import TLSModel

/// `--fail-on error|warning|never`: which findings make a gating command exit non-zero.
package enum FailThreshold: String, CaseIterable, Sendable {
    /// The default: exit 1 on a policy failure or an error-level finding, 2 when something could not be scanned.
    case error
    /// As `error`, and exit 1 on any warning-level finding too (e.g. a certificate about to expire).
    case warning
    /// Exit 0 whatever was found or could not be scanned; only usage (64), input (65) and output (73) errors fail.
    case never

    /// The exit status of a run under this threshold.
    /// - Parameters:
    ///   - status: the status under the default threshold (``ExitStatus/of(_:)``, ``AuditResult/exitStatus``).
    ///   - findings: the run's findings (after any baseline).
    /// - Returns: the status to exit with.
    package func gate(_ status: ExitStatus, findings: [Finding]) -> ExitStatus {
        switch self {
        case .error:
            return status
        case .warning:
            guard status == .success || status == .incomplete else { return status }
            return findings.contains { $0.severity >= .warning } ? .policyFailure : status
        case .never:
            return status == .policyFailure || status == .incomplete ? .success : status
        }
    }

    /// The stderr line when ``gate(_:findings:)`` turned a run that passed the default threshold into a failure.
    /// - Parameter findings: the run's findings.
    /// - Returns: `atscheck: N warning(s) fail the run (--fail-on warning); first: FILE:LINE [rule]`, or nil.
    package func warningReason(findings: [Finding]) -> String? {
        guard self == .warning, let first = findings.first(where: { $0.severity == .warning }) else { return nil }
        let count = findings.filter { $0.severity == .warning }.count
        return "atscheck: \(count) warning(s) fail the run (--fail-on warning); first: \(first.reference)"
    }
}
