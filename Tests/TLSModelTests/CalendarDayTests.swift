import Foundation
import Testing
import TLSModel

@Suite("CalendarDay")
struct CalendarDayTests {
    @Test("the one UTC calendar: Gregorian, UTC, and day arithmetic agrees with the YYYY-MM-DD form")
    func utcCalendar() throws {
        #expect(CalendarDay.utc.identifier == .gregorian)
        #expect(CalendarDay.utc.timeZone.secondsFromGMT() == 0)
        let day = try #require(CalendarDay.date(from: "2024-01-31"))
        let month = try #require(CalendarDay.utc.date(byAdding: .month, value: 1, to: day))
        #expect(CalendarDay.string(from: month) == "2024-02-29")
        #expect(CalendarDay.utc.date(from: DateComponents(year: 2020, month: 9, day: 1)) == CalendarDay.date(from: "2020-09-01"))
    }
}
