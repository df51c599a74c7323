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
            if !failing.isEmpty { parts.append("\(failing.count) endpoint(s) fail ATS: \(list(failing))") }
            if errors > 0 { parts.append("\(errors) error-level finding(s)") }
            return "atscheck: " + parts.joined(separator: "; ")
        case .incomplete: return incompleteReason(report)
        case .usage, .badInput, .cannotWrite: return nil
        }
    }

    /// `a, b, c, d, e and 3 more`: at most `limit` items, then how many were left out.
    /// - Parameters:
    ///   - items: the items, in order.
    ///   - limit: how many are named.
    public static func list(_ items: [String], limit: Int = 5) -> String {
        guard items.count > limit else { return items.joined(separator: ", ") }
        return items.prefix(limit).joined(separator: ", ") + " and \(items.count - limit) more"
    }

    /// The line for exit 2: how many endpoints could not be scanned or judged, and the first of them.
    public static func incompleteReason(_ report: ScanReport) -> String {
        let bad = report.endpoints.filter { $0.profile.status != .completed || $0.ats.verdict == .unknown }
        // The probe's error often names the target already ("connect to HOST:PORT: …"): say it once.
        let first = bad.first.map { endpoint -> String in
            let target = endpoint.profile.target
            let error = endpoint.profile.error ?? "verdict unknown"
            return error.contains(target) ? error : "\(target): \(error)"
        } ?? ""
        return "atscheck: \(bad.count) endpoint(s) could not be scanned or judged (first: \(first))"
    }
}
