import Foundation
import TLSModel

extension ExitStatus {
    /// The exit status of a pin check: 1 when a policy rejects a target, else 2 when a target could not be
    /// read, else 0.
    package static func of(_ report: PinCheckReport) -> ExitStatus {
        if report.summary.rejected > 0 { return .policyFailure }
        return report.summary.unreachable > 0 ? .incomplete : .success
    }

    /// A one-line reason for a non-zero pin-check status, for stderr.
    package static func reason(for report: PinCheckReport) -> String? {
        switch of(report) {
        case .policyFailure:
            let rejected = report.results.filter { $0.evaluation?.verdict == .reject }.map(\.target)
            return
                "atscheck: the \(report.library.rawValue) policy rejects \(rejected.count) target(s): "
                + "\(rejected.prefix(5).joined(separator: ", "))"
        case .incomplete:
            let bad = report.results.filter { $0.evaluation == nil }
            return
                "atscheck: \(bad.count) target(s) could not be checked (first: "
                + "\(bad.first.map { "\($0.target): \($0.error ?? $0.status.rawValue)" } ?? ""))"
        default: return nil
        }
    }
}
