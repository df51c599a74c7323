import Foundation
import TLSModel

/// Dates at which Apple's certificate rules change (docs/apple-rules.md §2.1, §2.2), UTC.
enum AppleDates {
    static func utc(_ y: Int, _ m: Int, _ d: Int) -> Date {
        var c = DateComponents()
        (c.year, c.month, c.day, c.hour) = (y, m, d, 0)
        return CalendarDay.utc.date(from: c)!
    }

    /// EKU and 825-day rules apply to leaves issued after this (support 103769).
    static let ios13Rules = utc(2019, 7, 1)
    /// The 825-day cap for system-anchored leaves starts (SRC).
    static let systemLifetimeCap = utc(2018, 3, 1)
    /// The 398-day cap for system-anchored leaves (support 102028).
    static let cap398 = utc(2020, 9, 1)
    /// CT is required for leaves issued on or after this (SRC).
    static let ctRequired = utc(2018, 10, 16)
    /// The lifetime-based SCT table changes (support 103214).
    static let ctTable2021 = utc(2021, 4, 21)
}
