import Foundation
import TLSModel
import Testing

@Suite("CalendarDay")
struct CalendarDayTests {
    @Test("the one UTC calendar: Gregorian, UTC, and day arithmetic agrees with the YYYY-MM-DD form")
    func utcCalendar() throws {
        #expect(CalendarDay.utc.identifier == .gregorian)
        #expect(CalendarDay.utc.timeZone.secondsFromGMT() == 0)
        let day = try #require(CalendarDay.date(from: "2024-01-31"))
        let month = try #require(CalendarDay.utc.date(byAdding: .month, value: 1, to: day))
        #expect(CalendarDay.string(from: month) == "2024-02-29")
        #expect(
            CalendarDay.utc.date(from: DateComponents(year: 2020, month: 9, day: 1))
                == CalendarDay.date(from: "2020-09-01"))
    }
}

@Suite("CalendarDay parsing")
struct CalendarDayParsingTests {
    @Test(
        "only an exact YYYY-MM-DD day parses",
        arguments: [
            ("2026-11-23", true), ("2024-02-29", true), ("2026-02-29", false), ("2026-02-30", false),
            ("2026-13-01", false),
            ("2026-1-01", false), ("26-11-23", false), ("2026-11-23T00:00:00Z", false), ("2026/11/23", false),
            ("", false), ("２０２６-11-23", false), ("+026-11-23", false),
        ])
    func exactDays(text: String, valid: Bool) {
        let day = CalendarDay.date(from: text)
        #expect((day != nil) == valid)
        if let day { #expect(CalendarDay.string(from: day) == text) }
    }

    @Test("days are UTC: the last second of a day is still that day")
    func utcBoundary() throws {
        let day = try #require(CalendarDay.date(from: "2026-11-23"))
        #expect(CalendarDay.string(from: day.addingTimeInterval(86_399)) == "2026-11-23")
        #expect(CalendarDay.string(from: day.addingTimeInterval(86_400)) == "2026-11-24")
    }

    @Test("safe to use from many threads at once")
    func concurrent() async {
        await withTaskGroup(of: Bool.self) { group in
            for offset in 0..<200 {
                group.addTask {
                    let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(offset) * 86_400)
                    return CalendarDay.date(from: CalendarDay.string(from: date)).map { CalendarDay.string(from: $0) }
                        == CalendarDay.string(from: date)
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
