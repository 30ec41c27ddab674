import Foundation

/// What the cells of each column of an export's first rows are: dates of one shape, amounts,
/// currency codes, statuses or text; and the roles that follow (see `ColumnRoles`).
struct ColumnValues {
    let rows: [ColumnRoles.Record]
    /// The header's texts; `nil` for a file without header.
    let names: [String]?

    /// What one column holds.
    struct Column {
        let index: Int
        let cells: [String]
        var filled: Int { cells.count(where: { !$0.isEmpty }) }
        var values: [String] { cells.filter { !$0.isEmpty } }

        /// Whether every cell that is filled is a date of one shape, and most are filled.
        var isDate: Bool {
            let shapes = Set(values.map(ColumnValues.dateShape))
            return filled * 2 > cells.count && shapes.count == 1 && shapes.first! != nil
        }

        /// Whether every filled cell is an amount and one at least shows decimals or a sign.
        var isAmount: Bool {
            let values = self.values
            return !values.isEmpty && !isDate && values.allSatisfy(ColumnValues.isAmountText)
                && values.contains(where: { ColumnValues.hasDecimals($0) || $0.hasPrefix("-") })
        }

        var hasNegative: Bool { values.contains { $0.hasPrefix("-") || $0.hasPrefix("(") } }
    }

    var columns: [Column] {
        let count = names?.count ?? rows[0].fields.count
        return (0..<count).map { index in
            Column(index: index, cells: rows.map { $0.fields[index] })
        }
    }

    /// The shape of a date, the same for every date of one layout (`yearLast./4`,
    /// `named:d MMM yyyy`), ignoring a time after it; `nil` when the text is not a date.
    static func dateShape(_ text: String) -> String? {
        guard SniffEvidence.startsLikeDate(text) else { return nil }
        var bytes = Array(text.utf8)
        if let time = bytes.indices.first(where: { index in
            (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "T"))
                && SniffEvidence.timeLayout(bytes, from: index) != nil
        }) {
            bytes.removeSubrange(time...)
        }
        if let named = SniffEvidence.namedLayout(bytes[...]) { return "named:" + named }
        var runs: [Int] = []
        var separators: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let start = index
            while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
            guard index > start else { return nil }
            runs.append(index - start)
            if index < bytes.count {
                separators.append(bytes[index])
                index += 1
            }
        }
        if runs == [8] { return "compact" }
        guard runs.count == 3, separators.count == 2, separators[0] == separators[1],
            !AmountFormat.decimalMarks.contains(separators[0]) || runs[2] >= 2
        else { return nil }
        let separator = String(UnicodeScalar(separators[0]))
        if runs[0] == 4, runs[1] <= 2, runs[2] <= 2 { return "yearFirst" + separator }
        if runs[0] <= 2, runs[1] <= 2, runs[2] == 4 || runs[2] == 2 {
            return "yearLast\(separator)\(runs[2])"
        }
        return nil
    }

    /// Whether a text is an amount: digits with marks between them, a sign, and perhaps a
    /// currency's sign or code.
    static func isAmountText(_ text: String) -> Bool {
        guard dateShape(text) == nil, text.count <= 24 else { return false }
        var core = text.uppercased()
        for word in [" CR", " DR", "CR", "DR"] where core.hasSuffix(word) {
            core.removeLast(word.count)
        }
        core = String(
            core.unicodeScalars.filter {
                !"+-()−$£€¥ \u{A0}\u{202F}".unicodeScalars.contains($0)
                    && !($0.properties.isAlphabetic && $0.isASCII)
            })
        // A currency's sign of other letters (`Kč`, `zł`, `₹`) before or after the number.
        let isSign = { (scalar: Unicode.Scalar) in
            scalar.properties.isAlphabetic || scalar.properties.generalCategory == .currencySymbol
        }
        var scalars = core.unicodeScalars[...]
        while let first = scalars.first, isSign(first) { scalars.removeFirst() }
        while let last = scalars.last, isSign(last) { scalars.removeLast() }
        core = String(scalars)
        // A word with a number (`Beschreibung1`) is no amount; a code or `CR` may stand by one.
        if text.filter(\.isLetter).count > 3 { return false }
        guard let first = core.unicodeScalars.first, let last = core.unicodeScalars.last,
            first.properties.numericType != nil, last.properties.numericType != nil
        else { return false }
        let digits = core.filter(\.isNumber).count
        // A long run of digits without marks is an id, not an amount.
        guard core.allSatisfy({ $0.isNumber || ".,'".contains($0) }), digits <= 15,
            digits < 10 || core.count > digits
        else { return false }
        return true
    }

    /// Whether an amount shows decimals: a mark followed by one to three digits at its end.
    static func hasDecimals(_ text: String) -> Bool {
        let bytes = Array(text.utf8).filter { $0 &- 48 < 10 || $0 == 0x2C || $0 == 0x2E }
        guard let mark = bytes.lastIndex(where: { $0 == 0x2C || $0 == 0x2E }) else {
            return false
        }
        return (1...2).contains(bytes.count - mark - 1)
    }

    /// The decimal mark most amounts show: `,` when more amounts end in a comma and two
    /// digits than in a point and two digits.
    static func decimalMark(_ columns: [Column]) -> UInt8 {
        var comma = 0
        var point = 0
        for text in columns.flatMap(\.values) where hasDecimals(text) {
            let digitsAndMarks = text.filter { $0.isNumber || $0 == "," || $0 == "." }
            if digitsAndMarks.dropLast(2).hasSuffix(",")
                || digitsAndMarks.dropLast(1).hasSuffix(",")
            {
                comma += 1
            } else {
                point += 1
            }
        }
        return comma > point ? UInt8(ascii: ",") : UInt8(ascii: ".")
    }
}
