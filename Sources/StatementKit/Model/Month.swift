/// A calendar month, such as 2026-10: the unit of statements and of ledger storage.
package struct Month: Hashable, Comparable, Sendable {
    /// Kept in 3 bytes (the ledger's month records and a run's account-months are keyed by
    /// months, millions of them at a bank's scale).
    private let storedYear: UInt16
    private let storedMonth: UInt8

    package var year: Int { Int(storedYear) }
    package var month: Int { Int(storedMonth) }

    /// Creates a month after checking its range.
    package init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        storedYear = UInt16(year)
        storedMonth = UInt8(month)
    }

    /// The month a day falls in.
    package init(_ day: Day) {
        storedYear = UInt16(day.year)
        storedMonth = UInt8(day.month)
    }

    /// Reads `YYYY-MM`.
    package init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1])
        else { return nil }
        self.init(year: year, month: month)
    }

    /// The month before.
    package var previous: Month? {
        month == 1 ? Month(year: year - 1, month: 12) : Month(year: year, month: month - 1)
    }

    /// The month after.
    package var next: Month? {
        month == 12 ? Month(year: year + 1, month: 1) : Month(year: year, month: month + 1)
    }

    /// The last day of the month before: the day at whose end a balance carried into this
    /// month holds.
    package var dayBefore: Day {
        Day(ordinal: (try! Day(year: year, month: month, day: 1)).ordinal - 1)
    }

    /// The month's last day.
    package var lastDay: Day {
        try! Day(year: year, month: month, day: Day.daysIn(month: month, year: year))
    }

    /// `YYYY-MM`.
    package var isoText: String {
        var bytes: [UInt8] = []
        appendISOText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `isoText`'s bytes, in one copy.
    func appendISOText(to out: inout [UInt8]) {
        out.appendWriting(atMost: 7) { text in
            text.putDigits(year, count: 4)
            text.put(UInt8(ascii: "-"))
            text.putDigits(month, count: 2)
        }
    }

    package static func < (lhs: Month, rhs: Month) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}

extension Month: CustomStringConvertible {
    package var description: String { isoText }
}
