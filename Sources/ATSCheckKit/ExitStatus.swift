import TLSModel

/// The exit codes of design.md §2.
public enum ExitStatus: Int32, Sendable {
    /// Everything evaluated passes.
    case success = 0
    /// At least one policy failure (ATS, trust, pin, or an error-level plist finding).
    case policyFailure = 1
    /// No policy failure, but at least one endpoint could not be scanned or judged.
    case incomplete = 2
    /// Usage error.
    case usage = 64
    /// An input file is unreadable or malformed.
    case badInput = 65
    /// An output file cannot be written (`EX_CANTCREAT`).
    case cannotWrite = 73

    /// The exit status of a report.
    public static func of(_ report: ScanReport) -> ExitStatus {
        let failed = report.endpoints.contains { $0.profile.status == .completed && ($0.ats.verdict == .fail || $0.ats.verdict == .ambiguous) }
        if failed || report.findings.contains(where: { $0.severity == .error }) { return .policyFailure }
        let incomplete = report.endpoints.contains { $0.profile.status != .completed || $0.ats.verdict == .unknown }
        return incomplete ? .incomplete : .success
    }

    /// A one-line reason for a non-zero status, for stderr.
    public static func reason(for report: ScanReport) -> String? {
        switch of(report) {
        case .success: return nil
        case .policyFailure:
            let failing = report.endpoints.filter { $0.ats.verdict == .fail || $0.ats.verdict == .ambiguous }.map(\.profile.target)
            let errors = report.findings.filter { $0.severity == .error }.count
            var parts: [String] = []
            if !failing.isEmpty { parts.append("\(failing.count) endpoint(s) fail ATS: \(failing.prefix(5).joined(separator: ", "))") }
            if errors > 0 { parts.append("\(errors) error-level finding(s)") }
            return "atscheck: " + parts.joined(separator: "; ")
        case .incomplete: return incompleteReason(report)
        case .usage, .badInput, .cannotWrite: return nil
        }
    }

    /// The line for exit 2: how many endpoints could not be scanned or judged, and the first of them.
    public static func incompleteReason(_ report: ScanReport) -> String {
        let bad = report.endpoints.filter { $0.profile.status != .completed || $0.ats.verdict == .unknown }
        let first = bad.first.map { "\($0.profile.target): \($0.profile.error ?? "verdict unknown")" } ?? ""
        return "atscheck: \(bad.count) endpoint(s) could not be scanned or judged (first: \(first))"
    }
}
