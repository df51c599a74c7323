import Foundation
import TLSModel

/// How one SCT stands under Apple's CT policy (docs/apple-rules.md §2.2), with trustd's converter semantics for the log
/// list (`BuildTrustedCTLogsPlist.py`) and trustd's reading of it (`CertificateTransparency.m`): pending and rejected
/// logs are not trusted; usable and qualified logs are currently approved; a readonly (frozen) log stays current for
/// SCTs timestamped up to its freeze; a retired log counts as once approved, for embedded SCTs timestamped before it
/// retired. A log's temporal interval applies to the leaf's notAfter, `[start, end)`. An SCT whose
/// signature does not verify, from a log the list lacks, or timestamped after the verification time, does not count.
struct SCTStanding {
    enum Approval: Equatable {
        /// From a usable or qualified log.
        case current
        /// From a retired log: embedded, timestamped before the log retired.
        case once
    }

    var sct: SCTFacts
    /// nil: the SCT does not count.
    var approval: Approval?
    /// Why it does not count.
    var reason: String?
    /// From a log the list lacks, timestamped after the list was published: the log may be one Apple added since,
    /// which a device with a current list would count. It does not count here, and the rule asks whether it could.
    var newerThanList = false

    var counts: Bool { approval != nil }
    var isCurrent: Bool { approval == .current }
    /// The log's operator, or the log ID for a log the list lacks.
    var operatorName: String { sct.log?.operator ?? sct.logID }

    init(_ sct: SCTFacts, leaf: CertificateFacts, now: Date, listDate: Date? = nil) {
        self.sct = sct
        guard let log = sct.log else {
            if let listDate, sct.timestamp > listDate {
                newerThanList = true
                reason =
                    "its log is not in the log list, which is older than the SCT (list of \(Self.day(listDate)), SCT "
                    + "of \(Self.day(sct.timestamp)))"
            } else {
                reason = "its log is not in the log list"
            }
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
        case .readonly:
            // trustd (`CertificateTransparency.m`, `isSCTValidForLogData`): a frozen log stays current for SCTs
            // timestamped up to its freeze; later ones are invalid.
            guard let since = log.stateSince else {
                reason = "the log is frozen (readonly) and the list gives no date"
                return
            }
            if sct.timestamp <= since {
                approval = .current
            } else {
                reason =
                    "the log was frozen (readonly) on \(Self.day(since)), before this SCT (\(Self.day(sct.timestamp)))"
            }
        case .retired:
            // trustd counts only embedded SCTs from a retired log, as once approved when timestamped before it retired.
            guard sct.source == .embedded else {
                reason = "the log is retired, and Apple counts only embedded SCTs from a retired log"
                return
            }
            guard let since = log.stateSince else {
                reason = "the log is retired and the list gives no date"
                return
            }
            if sct.timestamp < since {
                approval = .once
            } else {
                reason = "the log was retired on \(Self.day(since)), before this SCT (\(Self.day(sct.timestamp)))"
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

    /// The standing this SCT would have if its log, unknown to an older list, were a log Apple approved since: current,
    /// signature good, an operator of its own (the most favourable reading; used only to tell "fails whatever the
    /// log is" from "depends on a log the list is too old to know").
    var asIfFromNewLog: SCTStanding {
        guard newerThanList else { return self }
        var standing = self
        standing.approval = .current
        standing.reason = nil
        return standing
    }

    /// `'Test Log A' (Operator One), embedded: the log was retired on 2025-01-01, before this SCT (2025-02-01)`.
    var why: String { "\(logDescription): \(reason ?? "counts")" }

    static func day(_ date: Date) -> String { CalendarDay.string(from: date) }
}

/// The SCT counts Apple asks for by certificate lifetime (docs/apple-rules.md §2.2), in both readings of the
/// `ct-sct-count` CONFLICT, and the per-operator cap of the documented table.
enum SCTCounts {
    /// trustd's tables (`verify_embedded_sct_policy_v1`/`_v2`): for leaves issued from 2021-04-21, on
    /// `notAfter − notBefore`: ≤ 180 days → 2, ≤ 825 days → 3, otherwise 4; before, on whole calendar months between
    /// notBefore and notAfter: under 15 → 2, to 27 → 3, to 39 → 4, beyond → 5.
    static func source(for leaf: CertificateFacts) -> Int {
        if leaf.notBefore < AppleDates.ctTable2021 {
            let months = CalendarDay.utc.dateComponents([.month], from: leaf.notBefore, to: leaf.notAfter).month ?? 60
            if months < 15 { return 2 }
            if months <= 27 { return 3 }
            return months <= 39 ? 4 : 5
        }
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
