import Foundation

/// Renders a monthly statement as one self-contained HTML page with a chart of the daily
/// closing balance.
package struct HTMLStatementRenderer: Sendable {
    private let formatting: LocaleFormatting
    private var days: DayFormatter { formatting.days }

    /// Creates a renderer for a locale.
    package init(locale: Locale) {
        formatting = LocaleFormatting(locale: locale)
    }

    package func render(_ statement: MonthlyStatement, into out: inout some TextOutputStream) {
        let account = statement.account
        let (money, dayTexts) = formatting.formats(for: statement)
        let period = days.monthAndYear(statement.month)
        let name = account.name ?? account.id.grouped
        let escape = HTMLDocument.escape
        var body = "<header>\n<h1>\(escape(name)) · \(escape(period))</h1>\n<dl>\n"
        let facts = [
            (account.id.label, "<span class=\"iban\">\(escape(account.id.grouped))</span>"),
            ("Account", escape("\(account.kind.rawValue), \(account.currency.code)")),
            ("Opening balance", escape(money.format(statement.openingBalance))),
            ("Closing balance", escape(money.format(statement.closingBalance))),
        ]
        for (term, value) in facts { body += "<dt>\(term)</dt><dd>\(value)</dd>\n" }
        body += "</dl>\n</header>\n"
        body +=
            "<figure>\n\(BalanceChart(statement: statement, money: money, days: days).svg)\n</figure>\n"
        body +=
            "<table>\n<thead><tr><th>Date</th><th>Beneficiary</th><th class=\"description\">Description</th>"
        body +=
            "<th class=\"reference\">Reference</th><th class=\"num\">Amount</th><th class=\"num\">Balance</th></tr></thead>\n<tbody>\n"
        for entry in statement.entries {
            let transaction = entry.transaction
            body +=
                "<tr><td>\(escape(dayTexts[transaction.date.day - 1]))</td><td>\(escape(transaction.beneficiary.reportField))</td>"
            body +=
                "<td class=\"description\">\(escape((transaction.description ?? "").reportField))</td>"
            body +=
                "<td class=\"reference\">\(escape((transaction.reference ?? "").reportField))</td>"
            body += HTMLDocument.moneyCell(transaction.amount, money)
            body += HTMLDocument.moneyCell(entry.balance, money) + "</tr>\n"
        }
        body += "</tbody>\n</table>\n"
        let count = statement.entries.count
        body +=
            "<footer>\(count) transaction\(count == 1 ? "" : "s") · in \(escape(money.format(statement.totalIn)))"
        body += " · out \(escape(money.format(statement.totalOut)))</footer>"
        out.write(
            HTMLDocument.page(title: "\(name) · \(period)", locale: formatting.locale, body: body))
    }
}

/// An inline SVG step chart of a month's daily closing balance, with a zero line and labels.
///
/// Positions are computed in integer arithmetic (`Int128`) from the minor units, so that no
/// amount passes through floating point even for drawing.
struct BalanceChart {
    let statement: MonthlyStatement
    let money: MoneyFormat
    let days: DayFormatter

    private let width = 640
    private let height = 200
    private let left = 110
    private let right = 12
    private let top = 12
    private let bottom = 28

    var svg: String {
        let month = statement.month
        let daysInMonth = Day.daysIn(month: month.month, year: month.year)
        let daily = statement.dailyBalances
        let values = [statement.openingBalance.minorUnits] + daily.map(\.balance.minorUnits)
        let low = min(0, values.min()!)
        var high = max(0, values.max()!)
        if high == low { high = low + 1 }
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func y(_ value: Int64) -> Int {
            top + Int(Int128(high - value) * Int128(plotHeight) / (Int128(high) - Int128(low)))
        }
        func x(_ day: Int) -> Int {
            left + (day - 1) * plotWidth / max(1, daysInMonth - 1)
        }
        var points = ["\(left),\(y(statement.openingBalance.minorUnits))"]
        var lastY = y(statement.openingBalance.minorUnits)
        for (day, balance) in daily {
            let px = x(day.day)
            points.append("\(px),\(lastY)")
            lastY = y(balance.minorUnits)
            points.append("\(px),\(lastY)")
        }
        points.append("\(left + plotWidth),\(lastY)")
        let currency = statement.account.currency
        let escape = HTMLDocument.escape
        let title =
            "Daily closing balance, \(days.monthAndYear(month)): from \(money.format(statement.openingBalance)) to \(money.format(statement.closingBalance))"
        let first = try! Day(year: month.year, month: month.month, day: 1)
        let last = try! Day(year: month.year, month: month.month, day: daysInMonth)
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"chart-title\">\n"
        svg += "<title id=\"chart-title\">\(escape(title))</title>\n"
        svg +=
            "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"#f7f7f7\"/>\n"
        svg +=
            "<line x1=\"\(left)\" y1=\"\(y(0))\" x2=\"\(left + plotWidth)\" y2=\"\(y(0))\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n"
        svg +=
            "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
        let labels: [(String, Int, Int, String)] = [
            (
                money.format(Money(minorUnits: high, currency: currency)), left - 6,
                top + 10, "end"
            ),
            (
                money.format(Money(minorUnits: low, currency: currency)), left - 6,
                top + plotHeight, "end"
            ),
            (days.medium(first), left, height - 8, "start"),
            (days.medium(last), left + plotWidth, height - 8, "end"),
        ]
        for (text, lx, ly, anchor) in labels {
            svg +=
                "<text x=\"\(lx)\" y=\"\(ly)\" font-size=\"12\" text-anchor=\"\(anchor)\" fill=\"#333\">\(escape(text))</text>\n"
        }
        if low < 0 && high > 0 {
            svg +=
                "<text x=\"\(left - 6)\" y=\"\(y(0) + 4)\" font-size=\"12\" text-anchor=\"end\" fill=\"#333\">\(escape(money.format(Money.zero(currency))))</text>\n"
        }
        return svg + "</svg>"
    }
}
