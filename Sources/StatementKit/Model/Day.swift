/// A calendar day without time zone, in the proleptic Gregorian calendar, years 1 to 9999.
package struct Day: Hashable, Comparable, Sendable {
    package let year: Int
    package let month: Int
    package let day: Int

    /// Creates a day after checking that it exists in the calendar.
    ///
    /// - Throws: `DayError.invalid` for 2025-02-29, month 13, year 0 and the like.
    package init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= Day.daysIn(month: month, year: year)
        else { throw .invalid }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Returns the number of days of a month, with February's leap days.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Tells whether a Gregorian year has 366 days.
    package static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The day of an `ordinal` (its inverse), for days of years 1 to 9999.
    init(ordinal: Int) {
        // Howard Hinnant's civil_from_days, over the same shifted epoch as `ordinal`.
        let shifted = ordinal + 306
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    }

    /// A count of days from a fixed day before year 1, so that two days' distance is a
    /// subtraction.
    package var ordinal: Int {
        // Days before March 1 of the year counted from March (Howard Hinnant's days_from_civil).
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 306
    }
}

/// Why a date text is not a calendar day.
package enum DayError: Error, Hashable, Sendable {
    /// The text is not in `YYYY-MM-DD` form.
    case malformed
    /// The text has the form but names no day (2026-02-30, month 13, year 0).
    case invalid
}

extension Day {
    /// Reads an ISO 8601 calendar date `YYYY-MM-DD` from ASCII bytes.
    ///
    /// - Complexity: O(1), no allocation.
    package init(parsing bytes: Span<UInt8>) throws(DayError) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
        else { throw .malformed }
        // The digits at fixed places of ten bytes, each checked as it is read.
        var notDigit = false
        func digit(_ index: Int) -> Int {
            let value = bytes[index] &- UInt8(ascii: "0")
            notDigit = notDigit || value >= 10
            return Int(value)
        }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6)
        let day = digit(8) * 10 + digit(9)
        guard !notDigit else { throw .malformed }
        try self.init(year: year, month: month, day: day)
    }

    /// Reads an ISO 8601 calendar date `YYYY-MM-DD` from text.
    package init(parsing text: String) throws(DayError) {
        self = try Day(parsing: text.utf8.span)
    }

    /// The day as `YYYY-MM-DD`.
    package var isoText: String {
        var bytes: [UInt8] = []
        appendISOText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `isoText`'s bytes, in one copy.
    func appendISOText(to out: inout [UInt8]) {
        out.appendWriting(atMost: 10) { text in
            text.putDigits(year, count: 4)
            text.put(UInt8(ascii: "-"))
            text.putDigits(month, count: 2)
            text.put(UInt8(ascii: "-"))
            text.putDigits(day, count: 2)
        }
    }
}

extension Day: CustomStringConvertible {
    package var description: String { isoText }
}
