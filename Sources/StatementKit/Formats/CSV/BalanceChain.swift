/// The balance equation of a statement, `balance[i] = balance[i-1] + amount[i]`, tried on the
/// first rows of an export in each reading that could hold: rows in file order or newest first,
/// amounts with the sign the balance moves by or the opposite one.
///
/// A reading that holds for every row where two balances follow each other proves the row
/// order and the sign convention: a person checks an export the same way.
struct BalanceChain {
    /// One row's amount and declared balance, in units of 10⁻⁴, as far as they were written.
    struct Row {
        let line: Int
        let amount: Int64?
        let balance: Int64?
    }

    /// How the balances follow from the amounts.
    struct Reading: Hashable {
        /// Whether the rows are listed newest first.
        var isNewestFirst: Bool
        /// Whether the balance moves by the opposite of each amount.
        var isOpposite: Bool
    }

    var rows: [Row] = []

    /// How many rows the chain keeps: sniffing looks at the first rows only.
    static let limit = 1000

    /// The readings for which the equation holds at every link, and how many links there are.
    func holdingReadings() -> (readings: [Reading], links: Int) {
        var holds: [Reading: Int] = [:]
        var links = 0
        for (earlier, later) in zip(rows, rows.dropFirst()) {
            guard let b0 = earlier.balance, let b1 = later.balance,
                let a0 = earlier.amount, let a1 = later.amount
            else { continue }
            links += 1
            for reading in Self.readings {
                let amount = reading.isNewestFirst ? a0 : a1
                let step = reading.isNewestFirst ? b0 &- b1 : b1 &- b0
                if step == (reading.isOpposite ? 0 &- amount : amount) {
                    holds[reading, default: 0] += 1
                }
            }
        }
        return (Self.readings.filter { links > 0 && holds[$0] == links }, links)
    }

    /// The one reading that holds, when exactly one does.
    var provenReading: Reading? {
        let (readings, _) = holdingReadings()
        return readings.count == 1 ? readings[0] : nil
    }

    /// The first line where a reading's equation fails, for messages.
    func firstBreak(of reading: Reading) -> (earlier: Row, later: Row)? {
        for (earlier, later) in zip(rows, rows.dropFirst()) {
            guard let b0 = earlier.balance, let b1 = later.balance,
                let a0 = earlier.amount, let a1 = later.amount
            else { continue }
            let amount = reading.isNewestFirst ? a0 : a1
            let step = reading.isNewestFirst ? b0 &- b1 : b1 &- b0
            if step != (reading.isOpposite ? 0 &- amount : amount) { return (earlier, later) }
        }
        return nil
    }

    /// How many declared balances are positive, and how many there are.
    var positiveBalances: (positive: Int, of: Int) {
        let balances = rows.compactMap(\.balance)
        return (balances.count(where: { $0 > 0 }), balances.count)
    }

    static let readings: [Reading] = [false, true].flatMap { newestFirst in
        [false, true].map { Reading(isNewestFirst: newestFirst, isOpposite: $0) }
    }

    /// Reads an amount as a sniffer sees it, in units of 10⁻⁴: digits with a decimal mark and
    /// grouping as `format` says, a sign before or after (`-`, `+`, `−`, parentheses), and any
    /// currency sign or code around it ignored; `nil` for a blank or a text with no digit.
    static func scaled(_ text: String?, _ format: AmountFormat) -> Int64? {
        guard let text else { return nil }
        var negative = false
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var inFraction = false
        var digits = 0
        for byte in text.utf8 {
            if byte &- 48 < 10 {
                digits += 1
                // 14 digits in units of 10⁻⁴ stay below 10¹⁸: sums and steps cannot overflow.
                guard digits <= 14 else { return nil }
                if inFraction {
                    fractionDigits += 1
                    guard fractionDigits <= 4 else { return nil }
                    fraction = fraction * 10 + Int64(byte &- 48)
                } else {
                    whole = whole * 10 + Int64(byte &- 48)
                }
            } else if byte == format.decimalMark {
                guard !inFraction else { return nil }
                inFraction = true
            } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "(") {
                negative = true
            }
        }
        guard digits > 0 else { return nil }
        if text.contains("\u{2212}") { negative = true }
        while fractionDigits < 4 {
            fraction *= 10
            fractionDigits += 1
        }
        let value = whole * 10_000 + fraction
        return negative ? -value : value
    }
}
