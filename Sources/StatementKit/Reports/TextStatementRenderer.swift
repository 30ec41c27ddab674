import Foundation

/// Renders a monthly statement as fixed-width text, at most 100 columns wide.
package struct TextStatementRenderer: Sendable {
    /// The widest a line may be.
    package static let maximumWidth = 100

    private let formatting: LocaleFormatting
    private let labels: ReportLabels
    private var days: DayFormatter { formatting.days }

    /// Creates a renderer for a locale, with the labels of its language.
    package init(locale: Locale) {
        formatting = LocaleFormatting(locale: locale)
        labels = ReportLabels(locale: locale)
    }

    package func render(_ statement: MonthlyStatement, into out: inout some TextOutputStream) {
        var bytes: [UInt8] = []
        render(statement, into: &bytes)
        out.write(String(decoding: bytes, as: UTF8.self))
    }

    /// Renders the statement as UTF-8 bytes, appended to `out`.
    package func render(_ statement: MonthlyStatement, into out: inout [UInt8]) {
        let (money, dayTexts) = formatting.formats(for: statement)
        writeHeading(statement, money: money, into: &out)
        writeTable(statement, money: money, dayTexts: dayTexts, into: &out)
        out.append(
            utf8:
                "\(labels.transactions(statement.entries.count)) · \(labels.moneyIn) \(money.format(statement.totalIn))"
                + " · \(labels.moneyOut) \(money.format(statement.totalOut.magnitude))\n")
    }

    /// The account, the month, the opening and closing balances, and where the bank disagrees.
    private func writeHeading(
        _ statement: MonthlyStatement, money: MoneyFormat, into out: inout [UInt8]
    ) {
        let account = statement.account
        let first = try! Day(year: statement.month.year, month: statement.month.month, day: 1)
        let last = try! Day(
            year: statement.month.year, month: statement.month.month,
            day: Day.daysIn(month: statement.month.month, year: statement.month.year))
        let title =
            "\(account.label.neutralized) · \(labels.kind(account.kind)) · \(account.currency.code)"
        out.append(utf8: title.truncated(toWidth: Self.maximumWidth) + "\n")
        out.append(utf8: "\(labels.name(of: account.id)) \(account.id.grouped)\n")
        out.append(
            utf8:
                "\(days.monthAndYear(statement.month)): \(days.medium(first)) – \(days.medium(last))\n"
        )
        let opening = money.format(statement.openingBalance)
        let closing = money.format(statement.closingBalance)
        let labelWidth =
            max(labels.openingBalance.displayWidth, labels.closingBalance.displayWidth) + 2
        out.append(utf8: labels.openingBalance.padded(toWidth: labelWidth) + opening + "\n")
        out.append(utf8: labels.closingBalance.padded(toWidth: labelWidth) + closing + "\n")
        for disagreement in statement.bankDisagreements {
            out.append(
                utf8:
                    "\(labels.bankBalance) \(days.medium(disagreement.day)): \(money.format(disagreement.bank)); \(labels.difference) \(money.format(disagreement.difference))\n"
            )
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The transactions, a line each between two rules, under a header line.
    private func writeTable(
        _ statement: MonthlyStatement, money: MoneyFormat, dayTexts: [String],
        into out: inout [UInt8]
    ) {
        // By index: each field read in place, not a copy of each entry and its texts. First
        // the widths: of the days' texts and of the amounts, formatted once.
        let entries = statement.entries
        var amounts = AmountCells(format: money, capacity: 2 * entries.count)
        let dayWidths = dayTexts.map(\.displayWidth)
        var dateWidth = labels.date.displayWidth
        for index in entries.indices {
            dateWidth = max(dateWidth, dayWidths[entries[index].transaction.date.day - 1])
            amounts.add(entries[index].transaction.amount)
            amounts.add(entries[index].balance)
        }
        let moneyWidth = max(
            labels.amount.displayWidth, labels.balance.displayWidth, amounts.widest)
        let gaps = 4 * 2
        let textWidth = max(20, Self.maximumWidth - dateWidth - 2 * moneyWidth - gaps)
        let beneficiaryWidth = textWidth * 11 / 20
        let descriptionWidth = textWidth - beneficiaryWidth
        // The texts are passed on as they are, never stored: no reference counting per row.
        func line(
            date: String, dateWidth textWidth: Int, _ beneficiary: String,
            _ description: String?, _ amounts: (_ out: inout [UInt8]) -> Void
        ) {
            Column.write(date, width: textWidth, toWidth: dateWidth, into: &out)
            out.appendSpaces(2)
            Column.writeNeutralized(beneficiary, toWidth: beneficiaryWidth, into: &out)
            out.appendSpaces(2)
            Column.writeNeutralized(description ?? "", toWidth: descriptionWidth, into: &out)
            amounts(&out)
            out.append(UInt8(ascii: "\n"))
        }
        let headerStart = out.count
        line(
            date: labels.date, dateWidth: labels.date.displayWidth, labels.beneficiary,
            labels.description
        ) { out in
            for label in [labels.amount, labels.balance] {
                out.appendSpaces(2)
                Column.write(
                    label, width: label.displayWidth, toWidth: moneyWidth, right: true, into: &out)
            }
        }
        let rule = String(
            repeating: "─",
            count: String(decoding: out[headerStart..<(out.count - 1)], as: UTF8.self).displayWidth)
        out.append(utf8: rule)
        out.append("\n")
        for index in entries.indices {
            let day = entries[index].transaction.date.day - 1
            line(
                date: dayTexts[day], dateWidth: dayWidths[day],
                entries[index].transaction.beneficiary,
                entries[index].transaction.descriptionBesideBeneficiary
            ) { out in
                amounts.write(2 * index, toWidth: moneyWidth, into: &out)
                amounts.write(2 * index + 1, toWidth: moneyWidth, into: &out)
            }
        }
        out.append(utf8: rule)
        out.append("\n")
    }
}

/// A statement's amounts, formatted once into one buffer, each a range of it with its display
/// width: measured before the table is written, then copied into it.
private struct AmountCells {
    private let format: MoneyFormat
    private let plainNarrow: Bool
    private var text: [UInt8] = []
    private var cells: [(range: Range<Int>, width: Int)] = []
    /// The display width of the widest amount.
    private(set) var widest = 0

    init(format: MoneyFormat, capacity: Int) {
        self.format = format
        plainNarrow = format.isPlainNarrow
        cells.reserveCapacity(capacity)
    }

    /// Formats an amount as the next cell.
    mutating func add(_ value: Money) {
        let start = text.count
        format.append(value, to: &text)
        let bytes = text[start...]
        let width =
            plainNarrow
            ? bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            : String(decoding: bytes, as: UTF8.self).displayWidth
        cells.append((start..<text.count, width))
        widest = max(widest, width)
    }

    /// Writes two spaces and cell `index` right-aligned in `columns`.
    func write(_ index: Int, toWidth columns: Int, into out: inout [UInt8]) {
        let cell = cells[index]
        out.appendSpaces(2 + max(0, columns - cell.width))
        out.append(contentsOf: text[cell.range])
    }
}

/// How a text is written in a fixed-width column.
private enum Column {
    /// Writes the text, `neutralized` (printable ASCII, as most is, in one pass), cut with `…`
    /// when wider than `columns` and padded to them.
    static func writeNeutralized(_ text: String, toWidth columns: Int, into out: inout [UInt8]) {
        if text.isPrintableASCII {
            guard text.utf8.count > columns else {
                return write(text, width: text.utf8.count, toWidth: columns, into: &out)
            }
            // Cut as `String.truncated` cuts it, without making that string.
            text.withUTF8Bytes { String.appendCutASCII($0, toWidth: columns, to: &out) }
        } else {
            let neutral = text.neutralized
            write(
                neutral, width: neutral.displayWidth, toWidth: columns, truncating: true, into: &out
            )
        }
    }

    /// Writes a text of display width `width` padded with spaces to `columns`, on the right or
    /// (for numbers) the left, cut with `…` first when `truncating` and wider:
    /// `String.truncated` and `padded` at once.
    static func write(
        _ text: String, width: Int, toWidth columns: Int, truncating: Bool = false,
        right: Bool = false, into out: inout [UInt8]
    ) {
        if truncating && width > columns {
            let cut = text.truncated(toWidth: columns)
            write(cut, width: cut.displayWidth, toWidth: columns, right: right, into: &out)
            return
        }
        let padding = max(0, columns - width)
        if right { out.appendSpaces(padding) }
        out.append(utf8: text)
        if !right { out.appendSpaces(padding) }
    }
}
