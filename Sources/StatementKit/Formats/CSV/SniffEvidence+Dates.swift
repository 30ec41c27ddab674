import Foundation

/// The decision on an export's dates: day or month first, the year first or last, and the
/// layout the parser reads them in.
extension SniffEvidence {
    /// Whether the rows are in date order read one way (day or month first) and not the
    /// other, in a file of one account (several accounts' rows may each be sorted where the
    /// file's are not) and of one date column (a file with a booking and a value date may
    /// list its rows by the other one, a late booking out of order).
    var rowOrderDecidesDates: Bool {
        !accountColumnVaries && header.otherDateColumn == nil
            && dayFirstOrder.isSorted != monthFirstOrder.isSorted
    }

    /// The two date formats between which the rows leave the choice open: every day and
    /// month is 12 or less, the dates are not dotted, and the order of the rows does not
    /// decide; `nil` when the dates decide.
    func openDateOrder() -> [String]? {
        guard case .yearLast(let separator, let yearDigits) = dateLayout,
            largestFirst <= 12, largestSecond <= 12, separator != UInt8(ascii: "."),
            !rowOrderDecidesDates
        else { return nil }
        let (d, m) = allPadded ? ("dd", "MM") : ("d", "M")
        let s = String(UnicodeScalar(separator))
        let year = yearDigits == 4 ? "yyyy" : "yy"
        let time = timeLayout ?? ""
        return ["\(d)\(s)\(m)\(s)\(year)\(time)", "\(m)\(s)\(d)\(s)\(year)\(time)"]
    }

    /// Whether dates of three two-digit parts start with the year: the first part is no day
    /// (over 31), or it stays the same while the last one ranges over more than two values
    /// in a row, as days do (a day of the month across a year's end spans two years).
    ///
    /// Dotted dates (`31.12.24`) are day first (or open: `twoDigitYearIsOpen`); so are dates
    /// whose first part, read as a year, would lie more than a year ahead (`31-12-23`, a
    /// year-end row in 2031).
    var isYearFirst: Bool {
        guard twoDigitEnds != nil, allPadded, separator != UInt8(ascii: ".") else {
            return false
        }
        return largestFirst > 31
            || (!firstPartVaries && thirdPartRange.1 - thirdPartRange.0 >= 2
                && largestSecond <= 12 && largestFirst <= Self.nextYear)
    }

    /// Whether dates with two-digit first and last parts that `isYearFirst` does not take
    /// year first may as well start with the year: the first part stays the same and could
    /// be a year up to the next one, and the dates are not dotted (`25-11-26` or `25/11/26`
    /// on every row: 25 November 2026, or 26 November 2025; `24-3-1` to `24-3-11`), or they
    /// are dotted and the last part ranges as a month's days do (`24.03.01` to `24.03.11`:
    /// March 2024, or the 24th of March of 2001 to 2011). Dotted dates of one day or a
    /// month apart stay day first, as German banks write them.
    var twoDigitYearIsOpen: Bool {
        guard twoDigitEnds != nil, firstPartHasTwoDigits, !firstPartVaries, largestSecond <= 12,
            largestFirst <= Self.nextYear
        else { return false }
        return separator != UInt8(ascii: ".") || thirdPartRange.1 - thirdPartRange.0 >= 2
    }

    /// The last two digits of next year: a later year is no year of a booking.
    private static var nextYear: Int {
        (Calendar(identifier: .gregorian).component(.year, from: Date()) + 1) % 100
    }

    /// The separator of a date of three parts with the year last, if the layout is one.
    private var separator: UInt8? {
        if case .yearLast(let separator, _) = dateLayout { return separator }
        return nil
    }

    func dateFormat(
        _ layout: DateLayout, _ first: Sample, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) -> DateFormat {
        let (d, m) = allPadded ? ("dd", "MM") : ("d", "M")
        var pattern: String
        switch layout {
        case .named(let named): pattern = named
        case .compact: pattern = "yyyyMMdd"
        case .yearFirst(let separator):
            let s = String(UnicodeScalar(separator))
            pattern = "yyyy\(s)\(m)\(s)\(d)"
        case .yearLast(let separator, 2) where isYearFirst:
            // `26-10-01`: the first part stays (or is no day) where the last changes. Over a
            // few values only (`15-03-24`, `15-03-25`, `15-03-26`), the last part may be
            // years as well as days.
            let s = String(UnicodeScalar(separator))
            pattern = "yy\(s)\(m)\(s)\(d)"
            if largestFirst <= 31, thirdPartRange.1 - thirdPartRange.0 < 7 {
                throw refuse(
                    first,
                    .twoDigitYearOpen(
                        example: quoted(first), yearFirst: pattern,
                        yearLast: "\(d)\(s)\(m)\(s)yy"))
            }
            assumptions.append(
                Diagnostic.Finding(
                    line: first.line, column: first.column,
                    message: .assumedYearFirst(example: quoted(first), chosen: pattern)))
        case .yearLast(let separator, let yearDigits):
            let s = String(UnicodeScalar(separator))
            if yearDigits == 2, twoDigitYearIsOpen {
                throw refuse(
                    first,
                    .twoDigitYearOpen(
                        example: quoted(first), yearFirst: "yy\(s)\(m)\(s)\(d)",
                        yearLast: "\(d)\(s)\(m)\(s)yy"))
            }
            let year = yearDigits == 4 ? "yyyy" : "yy"
            let dayFirst = "\(d)\(s)\(m)\(s)\(year)"
            let monthFirst = "\(m)\(s)\(d)\(s)\(year)"
            switch (largestFirst > 12, largestSecond > 12) {
            case (true, true):
                throw refuse(first, .datesInNoOrder)
            case (true, false): pattern = dayFirst
            case (false, true): pattern = monthFirst
            case (false, false):
                // Every day and month is 12 or less: the order of the rows tells, or the
                // question stays open (`openDateOrder`). Dotted dates are day-first wherever
                // they are written.
                let monthFirstOnly = rowOrderDecidesDates && monthFirstOrder.isSorted
                pattern = monthFirstOnly && separator != UInt8(ascii: ".") ? monthFirst : dayFirst
                if separator != UInt8(ascii: "."), rowOrderDecidesDates {
                    assumptions.append(
                        Diagnostic.Finding(
                            line: first.line, column: first.column,
                            message: .assumedDateOrder(
                                example: quoted(first), chosen: pattern,
                                other: monthFirstOnly ? dayFirst : monthFirst)))
                }
            }
        }
        pattern += timeLayout ?? ""
        guard let format = try? DateFormat(pattern) else {
            throw refuse(first, .datesInNoLayout(example: quoted(first)))
        }
        return format
    }
}
