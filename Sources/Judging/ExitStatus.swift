import TLSModel

/// The exit codes of docs/usage.md#exit-status.
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
    /// Interrupted by Ctrl-C (SIGINT, 128 + 2): the report of what completed was written, marked partial.
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15), as Ctrl-C: the report of what completed was written, marked partial.
    case terminated = 143

    /// Every code and its meaning, in the words the README, `atscheck --help` and docs/usage.md all use (a test holds
    /// them to it).
    public static let summary =
        "0 everything evaluated passes; 1 at least one policy failure (ATS, trust, pins, or an error-level finding); "
        + "2 no policy failure, but an endpoint could not be scanned or judged; 64 usage error; "
        + "65 an input file is unreadable or malformed; 73 a report or profile file cannot be written; "
        + "130 interrupted by Ctrl-C (143 by SIGTERM): the report of what completed is written, marked partial"

    /// The exit status of a report (``ExitTally``).
    public static func of(_ report: ScanReport) -> ExitStatus { ExitTally(report).status }

    /// A one-line reason for a non-zero status, for stderr (``ExitTally``).
    public static func reason(for report: ScanReport) -> String? { ExitTally(report).reason }

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
        ExitTally(report).incompleteReason
    }
}

/// The exit status of a scan and its one-line reason, folded one endpoint at a time: the one tally behind a whole
/// report (``ExitStatus/of(_:)``) and a streamed scan whose endpoints are gone once written (``StreamTally``), so
/// the two cannot disagree (issue 21). Constant memory per endpoint: counts, the first failing targets and the
/// first incomplete one, by their place in the report.
public struct ExitTally: Sendable {
    /// An endpoint's place in the report: its slot (targets, then list entries) and its plan index.
    public typealias Place = (slot: Int, plan: Int)

    /// How many failing targets the reason names.
    static let named = 5

    private var completedFailing = false
    private var failingCount = 0
    /// The first ``named`` failing targets in report order.
    private var failing: [(place: Place, target: String)] = []
    private var incompleteCount = 0
    private var firstIncomplete: (place: Place, line: String)?
    private var errors = 0

    public init() {}

    /// The tally of a whole report: its endpoints in order, and its findings.
    public init(_ report: ScanReport) {
        for (index, endpoint) in report.endpoints.enumerated() { add(endpoint, at: (index, 0)) }
        add(findings: report.findings)
    }

    /// Counts one endpoint at its place in the report (endpoints may come in any order).
    public mutating func add(_ endpoint: EndpointResult, at place: Place) {
        let profile = endpoint.profile
        // Ambiguous because Apple's rules conflict is a policy question (1); ambiguous only because this run's data
        // cannot settle it (a CT log list older than the certificate's logs) is a verdict not reached (2), whose
        // reason says how to settle it.
        let unsettled =
            endpoint.ats.verdict == .ambiguous && endpoint.ats.readings.isEmpty
            && !endpoint.ats.ambiguities.isEmpty
        if endpoint.ats.verdict == .fail || (endpoint.ats.verdict == .ambiguous && !unsettled) {
            failingCount += 1
            if profile.status == .completed { completedFailing = true }
            failing.append((place, profile.target))
            failing.sort { $0.place < $1.place }
            if failing.count > Self.named { failing.removeLast() }
        }
        if profile.status != .completed || endpoint.ats.verdict == .unknown || unsettled {
            incompleteCount += 1
            if firstIncomplete.map({ place < $0.place }) ?? true {
                // The probe's error often names the target already ("connect to HOST:PORT: …"): say it once.
                let error = unsettled ? endpoint.ats.ambiguities[0] : profile.error ?? "verdict unknown"
                firstIncomplete = (
                    place, Self.contains(error, profile.target) ? error : "\(profile.target): \(error)"
                )
            }
        }
    }

    /// Counts findings (an error-level one fails the run).
    public mutating func add(findings: [Finding]) {
        errors += findings.filter { $0.severity == .error }.count
    }

    /// 1 when an endpoint that completed fails (or is ambiguous) or a finding is an error; else 2 when an endpoint
    /// could not be scanned or judged; else 0.
    public var status: ExitStatus {
        if completedFailing || errors > 0 { return .policyFailure }
        return incompleteCount > 0 ? .incomplete : .success
    }

    /// The line for stderr when ``status`` is not 0.
    public var reason: String? {
        switch status {
        case .policyFailure:
            var parts: [String] = []
            if failingCount > 0 {
                let names = failing.map(\.target)
                let more = failingCount > names.count ? " and \(failingCount - names.count) more" : ""
                parts.append("\(failingCount) endpoint(s) fail ATS: \(names.joined(separator: ", "))\(more)")
            }
            if errors > 0 { parts.append("\(errors) error-level finding(s)") }
            return "atscheck: " + parts.joined(separator: "; ")
        case .incomplete: return incompleteReason
        default: return nil
        }
    }

    /// Whether `text` holds `part`, in time linear in both lengths (Knuth–Morris–Pratt over UTF-8 bytes).
    ///
    /// Foundation's `contains` compares at every offset: for a target of 64 KB inside its own error message it cost
    /// 36 s to several minutes per endpoint, twice per run (issue 25, row 8).
    static func contains(_ text: String, _ part: String) -> Bool {
        let pattern = Array(part.utf8)
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= text.utf8.count else { return false }
        // fallback[i]: the length of the longest proper prefix of pattern[0...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: pattern.count)
        var length = 0
        for index in 1..<max(1, pattern.count) {
            while length > 0 && pattern[index] != pattern[length] { length = fallback[length - 1] }
            if pattern[index] == pattern[length] { length += 1 }
            fallback[index] = length
        }
        var matched = 0
        for byte in text.utf8 {
            while matched > 0 && byte != pattern[matched] { matched = fallback[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            if matched == pattern.count { return true }
        }
        return false
    }

    /// The line for exit 2.
    var incompleteReason: String {
        "atscheck: \(incompleteCount) endpoint(s) could not be scanned or judged (first: "
            + "\(firstIncomplete?.line ?? ""))"
    }
}
