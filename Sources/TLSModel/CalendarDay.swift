import Foundation

/// Calendar days in UTC, written `YYYY-MM-DD`: certificate dates in messages and reports, and
/// waiver expiry dates. One formatter for the whole tool.
public enum CalendarDay {
    /// The Gregorian calendar in UTC: the one calendar for day arithmetic (Apple's rule dates,
    /// certificate lifetimes in months) and for the `YYYY-MM-DD` form.
    public static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `2026-11-22` for a date. Built from calendar components (`Calendar` is safe to share across
    /// threads; a shared `DateFormatter` would need a lock).
    public static func string(from date: Date) -> String {
        let day = utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// The start (00:00 UTC) of the day written `YYYY-MM-DD`, or nil when the text is not exactly such a day.
    public static func date(from text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            let day = utc.date(from: DateComponents(year: year, month: month, day: dayOfMonth)),
            string(from: day) == text  // rejects 2026-02-30, which the calendar would roll over
        else { return nil }
        return day
    }
}
