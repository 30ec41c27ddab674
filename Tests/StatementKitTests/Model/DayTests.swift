import Testing

@testable import StatementKit

struct DayTests {
    @Test(arguments: [
        "2024-02-29", "2000-02-29", "2026-10-03", "0001-01-01", "9999-12-31", "2026-12-31",
    ])
    func `accepts calendar days`(text: String) throws {
        #expect(try Day(parsing: text).isoText == text)
    }

    @Test(arguments: [
        "2025-02-29", "1900-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "0000-01-01",
        "2026-04-31", "2026-10-00",
    ])
    func `rejects days the calendar does not have`(text: String) {
        #expect(throws: DayError.invalid) { try Day(parsing: text) }
    }

    @Test(arguments: [
        "2026-1-01", "26-10-01", "2026/10/01", "03.10.2026", "2026-10-1", "", "99999-01-01",
        "２０２６-10-01", "2026-10-01T00:00",
    ])
    func `rejects other forms`(text: String) {
        #expect(throws: DayError.malformed) { try Day(parsing: text) }
    }

    @Test func `orders days by date`() throws {
        #expect(try Day(parsing: "2026-09-30") < Day(parsing: "2026-10-01"))
        #expect(try !(Day(parsing: "2027-01-01") < Day(parsing: "2026-12-31")))
    }
}

struct DayOrdinalTests {
    @Test func `counts days across months, leap days and centuries, and back`() throws {
        let first = try Day(year: 1, month: 1, day: 1)
        var day = first
        var ordinal = first.ordinal
        // Every day of the years 1900 to 2100 and a few around year 1 and 9999.
        for (year, years) in [(1, 2), (1896, 208), (9998, 2)] {
            day = try Day(year: year, month: 1, day: 1)
            ordinal = day.ordinal
            for _ in 0..<(years * 366) {
                #expect(Day(ordinal: ordinal) == day)
                guard day.year < 10000 else { break }
                let next: Day? =
                    (try? Day(year: day.year, month: day.month, day: day.day + 1))
                    ?? (try? Day(year: day.year, month: day.month + 1, day: 1))
                    ?? (try? Day(year: day.year + 1, month: 1, day: 1))
                guard let next else { break }
                #expect(next.ordinal == ordinal + 1, "\(next)")
                (day, ordinal) = (next, ordinal + 1)
            }
        }
        #expect(
            try Day(parsing: "2026-11-02").ordinal - Day(parsing: "2026-10-31").ordinal == 2)
    }
}
