import Foundation
import TLSModel

/// CA/Browser Forum ballot SC-081v3 (proposed by Apple, adopted 2025-04-11): the longest validity a publicly trusted
/// TLS certificate may have, by the day it is issued. A rule for CAs when they issue: Apple's trust evaluation still
/// enforces only 398 days (Security-61901, `SecPolicyServer.c`), so exceeding it is a warning
/// (``RuleID/Trust/lifetimeSchedule``), never an ATS failure.
package enum LifetimeSchedule {
    /// From each date (00:00 UTC) on, the maximum validity in days, counted as the Baseline Requirements and Apple's
    /// support 102028 count it (notBefore through notAfter inclusive, any part of a day one more day).
    package static let steps: [(from: Date, days: Int)] = [
        (CalendarDay.date(from: "2026-03-15")!, 200),
        (CalendarDay.date(from: "2027-03-15")!, 100),
        (CalendarDay.date(from: "2029-03-15")!, 47),
    ]

    /// The ballot's limit for a certificate issued at `date`; nil before 2026-03-15 (398 days, Apple's own rule).
    package static func maximumDays(issuedAt date: Date) -> Int? { steps.last { date >= $0.from }?.days }

    /// A warning for each publicly trusted leaf (anchored at a system root) valid longer than the ballot allows for
    /// its issuance date.
    package static func findings(for endpoints: [EndpointResult]) -> [Finding] {
        endpoints.compactMap { endpoint in
            guard endpoint.profile.status == .completed, let certificate = endpoint.profile.certificate,
                certificate.anchor == .system, let leaf = certificate.leaf,
                let limit = maximumDays(issuedAt: leaf.notBefore), leaf.lifetimeDays > limit
            else { return nil }
            return Finding(
                rule: RuleID.Trust.lifetimeSchedule, severity: .warning,
                message:
                    "\(endpoint.profile.target): the certificate, issued \(CalendarDay.string(from: leaf.notBefore)), "
                    + "is valid for \(leaf.lifetimeDays) days; CA/Browser Forum ballot SC-081 allows at most \(limit) "
                    + "days for certificates issued from \(CalendarDay.string(from: from(limit))). Apple's devices "
                    + "still accept up to 398 days, but a CA should not have issued it: expect shorter renewals",
                file: endpoint.source?.file, line: endpoint.source?.line)
        }
    }

    /// What a renewal issued at `date` may have, for `atscheck cert --at`: nil when the ballot sets no limit then.
    package static func renewalNote(at date: Date, current leaf: CertificateFacts) -> String? {
        guard let limit = maximumDays(issuedAt: date) else { return nil }
        let fits = leaf.lifetimeDays <= limit
        return "a renewal issued on \(CalendarDay.string(from: date)) may be valid for at most \(limit) days "
            + "(CA/Browser Forum ballot SC-081); this certificate's \(leaf.lifetimeDays) days "
            + (fits ? "would fit" : "would not")
    }

    private static func from(_ limit: Int) -> Date { steps.first { $0.days == limit }!.from }
}
