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

    private static let formatter: DateFormatter = {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.calendar = utc
        f.timeZone = utc.timeZone
        f.dateFormat = "yyyy-MM-dd"
        return f
    }()
    private static let lock = NSLock()  // DateFormatter is not safe to share across threads unguarded

    /// `2026-11-22` for a date.
    public static func string(from date: Date) -> String { lock.withLock { formatter.string(from: date) } }

    /// The start (00:00 UTC) of the day written `YYYY-MM-DD`, or nil when the text is not exactly such a day.
    public static func date(from text: String) -> Date? {
        lock.withLock {
            guard let day = formatter.date(from: text), formatter.string(from: day) == text else { return nil }
            return day
        }
    }
}
