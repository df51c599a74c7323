import ATSPolicy
import Foundation
import TLSModel

/// What `atscheck audit` found: the report every renderer reads, plus the exception debt as data.
public struct AuditResult: Codable, Sendable, Equatable {
    /// Endpoints (with `ats` and `source`), and findings: plist lint + endpoint list + audit (+ baseline).
    public var report: ScanReport
    /// One item per exception problem, with the entry as it is and the entry that would do.
    public var exceptionDebt: [ExceptionDebt]
    /// The pin evaluations: each endpoint checked against the plist's `NSPinnedDomains` or its entry's pin
    /// check, in list order (their findings are in ``report``).
    public var pins: [AuditPinCheck]
    /// A shard's inputs, for `atscheck merge` (`auditShard` in the JSON); nil for a whole run.
    public var shardInputs: AuditShardInputs?

    public init(report: ScanReport, exceptionDebt: [ExceptionDebt], pins: [AuditPinCheck] = []) {
        self.report = report
        self.exceptionDebt = exceptionDebt
        self.pins = pins
    }

    private enum CodingKeys: String, CodingKey { case report, exceptionDebt, pins }

    /// Decodes an audit; `pins` may be absent (audits written before pin checks).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        report = try container.decode(ScanReport.self, forKey: .report)
        exceptionDebt = try container.decode([ExceptionDebt].self, forKey: .exceptionDebt)
        pins = try container.decodeIfPresent([AuditPinCheck].self, forKey: .pins) ?? []
    }

    /// The exit status of an audit (docs/usage.md#exit-status).
    ///
    /// Unlike ``ExitStatus/of(_:)``, an endpoint's ATS failure counts through its audit finding, so a failure
    /// the endpoint list expects (`expect: fail`) or a baseline waives does not fail the run: `1` when any
    /// error-level finding remains; else `2` when an endpoint could not be scanned or judged; else `0`.
    public var exitStatus: ExitStatus {
        if report.findings.contains(where: { $0.severity == .error }) { return .policyFailure }
        let incomplete = report.endpoints.contains { $0.profile.status != .completed || $0.ats.verdict == .unknown }
        return incomplete ? .incomplete : .success
    }

    /// One line for stderr when ``exitStatus`` is not zero.
    public var exitReason: String? {
        switch exitStatus {
        case .policyFailure:
            let errors = report.findings.filter { $0.severity == .error }
            return "atscheck: audit failed with \(errors.count) error(s); first: \(errors[0].reference)"
        case .incomplete:
            // Not ExitStatus.reason(for:): that reads verdicts, and an expected or waived failure
            // must not be named as the reason the audit is incomplete.
            return ExitStatus.incompleteReason(report)
        default:
            return nil
        }
    }
}
