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
        let account = statement.account
        let (money, dayTexts) = formatting.formats(for: statement)
        let first = try! Day(year: statement.month.year, month: statement.month.month, day: 1)
        let last = try! Day(
            year: statement.month.year, month: statement.month.month,
            day: Day.daysIn(month: statement.month.month, year: statement.month.year))
        let title =
            "\(account.name?.neutralized ?? labels.account) · \(labels.kind(account.kind)) · \(account.currency.code)"
        out.write(title.truncated(toWidth: Self.maximumWidth) + "\n")
        out.write("\(labels.name(of: account.id)) \(account.id.grouped)\n")
        out.write(
            "\(days.monthAndYear(statement.month)): \(days.medium(first)) – \(days.medium(last))\n")
        let opening = money.format(statement.openingBalance)
        let closing = money.format(statement.closingBalance)
        let labelWidth =
            max(labels.openingBalance.displayWidth, labels.closingBalance.displayWidth) + 2
        out.write(labels.openingBalance.padded(toWidth: labelWidth) + opening + "\n")
        out.write(labels.closingBalance.padded(toWidth: labelWidth) + closing + "\n\n")

        let rows = statement.entries.map { entry in
            (
                date: dayTexts[entry.transaction.date.day - 1],
                beneficiary: entry.transaction.beneficiary.neutralized,
                description: (entry.transaction.description ?? "").neutralized,
                amount: money.format(entry.transaction.amount),
                balance: money.format(entry.balance)
            )
        }
        let dateWidth = max(labels.date.displayWidth, rows.map(\.date.displayWidth).max() ?? 0)
        let moneyWidth = max(
            labels.amount.displayWidth, labels.balance.displayWidth,
            rows.flatMap { [$0.amount.displayWidth, $0.balance.displayWidth] }.max() ?? 0)
        let gaps = 4 * 2
        let textWidth = max(20, Self.maximumWidth - dateWidth - 2 * moneyWidth - gaps)
        let beneficiaryWidth = textWidth * 11 / 20
        let descriptionWidth = textWidth - beneficiaryWidth
        func line(
            _ date: String, _ beneficiary: String, _ description: String, _ amount: String,
            _ balance: String
        ) -> String {
            let cells = [
                date.padded(toWidth: dateWidth),
                beneficiary.truncated(toWidth: beneficiaryWidth).padded(toWidth: beneficiaryWidth),
                description.truncated(toWidth: descriptionWidth).padded(toWidth: descriptionWidth),
                amount.padded(toWidth: moneyWidth, right: true),
                balance.padded(toWidth: moneyWidth, right: true),
            ]
            return cells.joined(separator: "  ")
        }
        let header = line(
            labels.date, labels.beneficiary, labels.description, labels.amount, labels.balance)
        out.write(header + "\n")
        out.write(String(repeating: "─", count: header.displayWidth) + "\n")
        for row in rows {
            out.write(
                line(row.date, row.beneficiary, row.description, row.amount, row.balance) + "\n")
        }
        out.write(String(repeating: "─", count: header.displayWidth) + "\n")
        out.write(
            "\(labels.transactions(statement.entries.count)) · \(labels.moneyIn) \(money.format(statement.totalIn))"
                + " · \(labels.moneyOut) \(money.format(statement.totalOut))\n")
    }
}
