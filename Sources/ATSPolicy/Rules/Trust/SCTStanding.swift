import Foundation
import TLSModel

/// How one SCT stands under Apple's CT policy (reference §2.2), with trustd's converter semantics for the log list
/// (`BuildTrustedCTLogsPlist.py`): pending and rejected logs are not trusted; usable and qualified logs are currently
/// approved; readonly (frozen) and retired logs were approved once, and count only for SCTs timestamped before their
/// state's timestamp. A log's temporal interval applies to the leaf's notAfter, `[start, end)`. An SCT whose
/// signature does not verify, from a log the list lacks, or timestamped after the verification time, does not count.
struct SCTStanding {
    enum Approval: Equatable {
        /// From a usable or qualified log.
        case current
        /// From a readonly or retired log, timestamped before the log left the program.
        case once
    }

    var sct: SCTFacts
    /// nil: the SCT does not count.
    var approval: Approval?
    /// Why it does not count.
    var reason: String?

    var counts: Bool { approval != nil }
    var isCurrent: Bool { approval == .current }
    /// The log's operator, or the log ID for a log the list lacks.
    var operatorName: String { sct.log?.operator ?? sct.logID }

    init(_ sct: SCTFacts, leaf: CertificateFacts, now: Date) {
        self.sct = sct
        guard let log = sct.log else {
            reason = "its log is not in the log list"
            return
        }
        switch sct.signature {
        case .invalid:
            reason = "its signature does not verify with the log's key"
            return
        case .unverified:
            reason = "its signature could not be verified"
            return
        case .valid: break
        }
        if sct.timestamp > now {
            reason = "it is timestamped \(Self.day(sct.timestamp)), after the verification time"
            return
        }
        if let interval = log.interval, !interval.contains(leaf.notAfter) {
            reason =
                "the log takes certificates expiring in [\(Self.day(interval.start)), \(Self.day(interval.end))), and "
                + "this one expires \(Self.day(leaf.notAfter))"
            return
        }
        switch log.state {
        case .usable, .qualified: approval = .current
        case .pending: reason = "the log is pending, not yet trusted"
        case .rejected: reason = "the log was rejected"
        case .readonly, .retired:
            let state = log.state == .retired ? "retired" : "frozen (readonly)"
            if let since = log.stateSince {
                if sct.timestamp < since {
                    approval = .once
                } else {
                    reason = "the log was \(state) on \(Self.day(since)), before this SCT (\(Self.day(sct.timestamp)))"
                }
            } else {
                reason = "the log is \(state) and the list gives no date"
            }
        }
    }

    /// `'Test Log A' (Operator One), embedded`, or the log ID when the list lacks the log.
    var logDescription: String {
        let source =
            switch sct.source {
            case .embedded: "embedded"
            case .tlsExtension: "TLS extension"
            case .ocsp: "stapled OCSP"
            }
        guard let log = sct.log else { return "log \(sct.logID) (unknown), \(source)" }
        return "'\(log.description)' (\(log.operator)\(log.tiled ? ", tiled" : "")), \(source)"
    }

    /// `'Test Log A' (Operator One), embedded: the log was retired on 2025-01-01, before this SCT (2025-02-01)`.
    var why: String { "\(logDescription): \(reason ?? "counts")" }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}

/// The SCT counts Apple asks for by certificate lifetime (reference §2.2), in both readings of the `ct-sct-count`
/// CONFLICT, and the per-operator cap of the documented table.
enum SCTCounts {
    /// trustd's v2 thresholds on `notAfter − notBefore`: ≤ 180 days → 2, ≤ 825 days → 3, otherwise 4.
    static func source(for leaf: CertificateFacts) -> Int {
        let seconds = leaf.lifetimeSeconds
        if seconds <= 180 * 86_400 { return 2 }
        return seconds <= 825 * 86_400 ? 3 : 4
    }

    /// Support 103214's table. From 2021-04-21, counted inclusively (support 102028's day count): up to 180 days 2,
    /// else 3 (the table stops at 398 days; longer leaves fail the lifetime rule and are given the last row). Before:
    /// 2 under 15 months, 3 to 27, 4 to 39, 5 beyond.
    static func documented(for leaf: CertificateFacts) -> Int {
        if leaf.notBefore >= AppleDates.ctTable2021 {
            return leaf.lifetimeDays <= 180 ? 2 : 3
        }
        func months(_ n: Int) -> Date { CalendarDay.utc.date(byAdding: .month, value: n, to: leaf.notBefore)! }
        if leaf.notAfter < months(15) { return 2 }
        if leaf.notAfter <= months(27) { return 3 }
        if leaf.notAfter <= months(39) { return 4 }
        return 5
    }

    /// Support 103214's cap on embedded SCTs counted per log operator: from 2021-04-21, 1 up to 180 days, else 2;
    /// nil (no cap) before.
    static func operatorCap(for leaf: CertificateFacts) -> Int? {
        guard leaf.notBefore >= AppleDates.ctTable2021 else { return nil }
        return leaf.lifetimeDays <= 180 ? 1 : 2
    }
}
