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

    /// How dates whose first and last parts have two digits read: `26-10-01` year first, or
    /// `01-10-26` year last (day or month first). A reading is out where its years would span
    /// seven or more (a statement covers about a year; two to six may be yearly rows as well
    /// as days), or where its rows step back in time twice or more and the other reading's
    /// never do (one late booking proves nothing). The one reading left is taken; one left
    /// by the order alone only where its years span at most two. Otherwise the question is
    /// open. Dotted dates (`31.12.24`) are never read year first, and day first where both
    /// readings stand and the last part takes at most two values, as German banks write them.
    var twoDigitYear: TwoDigitYear {
        guard hasTwoDigitEnds, firstPartHasTwoDigits, largestSecond <= 12 else {
            return .last
        }
        // A first part past next year's is no booking's year; one over 31 is no day either.
        guard largestFirst <= Self.nextYear else { return largestFirst > 31 ? .open : .last }
        let (firstSpan, lastSpan) = (
            firstPartRange.1 - firstPartRange.0, thirdPartRange.1 - thirdPartRange.0
        )
        let orderCounts = !accountColumnVaries && header.otherDateColumn == nil
        let firstFalls = orderCounts ? twoDigitYearFirstOrder.falls : 0
        // Read year last the rows are day or month first: they step back if both readings do.
        let lastFalls = orderCounts ? min(dayFirstOrder.falls, monthFirstOrder.falls) : 0
        let firstByOrder = firstFalls >= 2 && lastFalls == 0
        let lastByOrder = lastFalls >= 2 && firstFalls == 0
        let first = firstSpan < 7 && !firstByOrder
        let last = lastSpan < 7 && !lastByOrder
        let isDotted = separator == UInt8(ascii: ".")
        switch (first, last) {
        case (true, false): return !isDotted && (lastSpan >= 7 || firstSpan <= 1) ? .first : .open
        case (false, true): return firstSpan >= 7 || lastSpan <= 1 ? .last : .open
        case (true, true): return isDotted && lastSpan <= 1 ? .last : .open
        case (false, false): return .open
        }
    }

    enum TwoDigitYear { case first, last, open }

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
        case .yearLast(let separator, 2) where twoDigitYear == .first:
            let s = String(UnicodeScalar(separator))
            pattern = "yy\(s)\(m)\(s)\(d)"
            assumptions.append(
                Diagnostic.Finding(
                    line: first.line, column: first.column,
                    message: .assumedYearFirst(example: quoted(first), chosen: pattern)))
        case .yearLast(let separator, let yearDigits):
            let s = String(UnicodeScalar(separator))
            if yearDigits == 2, twoDigitYear == .open {
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
