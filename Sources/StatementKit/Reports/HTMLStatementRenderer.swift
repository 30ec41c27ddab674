import Foundation

/// The months before and after a statement's month in which its account has a statement, for
/// the links between them.
package struct StatementNeighbours: Hashable, Sendable {
    package var previous: Month?
    package var next: Month?

    /// Neither: no links to other months.
    package static let none = StatementNeighbours()

    /// Creates neighbours.
    package init(previous: Month? = nil, next: Month? = nil) {
        self.previous = previous
        self.next = next
    }

    /// The neighbours of `month` among an account's months.
    package init(of month: Month, among months: [Month]) {
        previous = months.filter { $0 < month }.max()
        next = months.filter { $0 > month }.min()
    }
}

/// Renders a monthly statement as one self-contained HTML page with a chart of the daily
/// closing balance, links to the month's index and the account's months before and after,
/// and labels in the locale's language.
package struct HTMLStatementRenderer: Sendable {
    private let formatting: LocaleFormatting
    private let labels: ReportLabels
    private var days: DayFormatter { formatting.days }

    /// The table's row of column headings, the same in every statement: with the reference
    /// column, and without it for a month whose rows have no reference.
    private let columnHeadings: (withReference: String, withoutReference: String)

    /// Creates a renderer for a locale.
    package init(locale: Locale) {
        formatting = LocaleFormatting(locale: locale)
        let labels = ReportLabels(locale: locale)
        self.labels = labels
        let heading = HTMLDocument.heading
        let start =
            "<tr><th>\(heading(labels.date))</th><th>\(heading(labels.beneficiary))</th>"
            + "<th class=\"description\">\(heading(labels.description))</th>"
        let end =
            "<th class=\"num\">\(heading(labels.amount))</th><th class=\"num\">\(heading(labels.balance))</th></tr></thead>\n<tbody>\n"
        columnHeadings = (
            start + "<th class=\"reference\">\(heading(labels.reference))</th>" + end, start + end
        )
    }

    package func render(
        _ statement: MonthlyStatement, neighbours: StatementNeighbours = .none,
        into out: inout some TextOutputStream
    ) {
        var bytes: [UInt8] = []
        render(statement, neighbours: neighbours, into: &bytes)
        out.write(String(decoding: bytes, as: UTF8.self))
    }

    /// Renders the statement as UTF-8 bytes, appended to `out`.
    package func render(
        _ statement: MonthlyStatement, neighbours: StatementNeighbours = .none,
        into out: inout [UInt8]
    ) {
        let account = statement.account
        let (money, dayTexts) = formatting.formats(for: statement)
        let period = days.monthAndYear(statement.month)
        let name = account.label
        let escape = HTMLDocument.escape
        let amount = { (value: Money) in HTMLDocument.amount(value, money) }
        HTMLDocument.appendPageHead(
            title: "\(name) · \(period)", language: labels.languageCode, to: &out)
        out.append("<nav>")
        out.append(utf8: navigation(statement, neighbours))
        out.append("</nav>\n")
        appendHeader(statement, money: money, into: &out)
        // The chart at a desktop's width and at a phone's, each shown on its own screens.
        for (width, kind) in [(640, "wide"), (360, "narrow")] {
            let chart = BalanceChart(
                statement: statement, money: money, days: days, labels: labels, width: width)
            out.append(utf8: "<figure class=\"chart-\(kind)\">\n")
            chart.appendSVG(to: &out)
            out.append("\n</figure>\n")
        }
        // The first header row is printed only: it repeats the account and period on every
        // page a long statement takes. A month without any reference has no column for them.
        let hasReferences = statement.entries.contains { entry in
            entry.transaction.reference.map { !$0.allSatisfy(\.isWhitespace) } ?? false
        }
        out.append(
            utf8: "<table class=\"entries\">\n<thead><tr class=\"print-only\"><th colspan=\"")
        out.append(utf8: hasReferences ? "6\">" : "5\">")
        out.append(
            utf8: "\(escape(name)) · \(escape(account.id.grouped)) · \(escape(period))</th></tr>\n")
        out.append(
            utf8: hasReferences ? columnHeadings.withReference : columnHeadings.withoutReference)
        appendRows(
            statement, money: money, dayTexts: dayTexts, hasReferences: hasReferences, into: &out)
        out.append("</tbody>\n</table>\n")
        out.append(
            utf8: "<footer>\(escape(labels.transactions(statement.entries.count)))"
                + " · \(escape(labels.moneyIn)) \(amount(statement.totalIn))"
                + " · \(escape(labels.moneyOut)) \(amount(statement.totalOut.magnitude))</footer>")
        out.append(utf8: HTMLDocument.pageTail)
    }

    /// The heading and the facts: the account, its kind and currency, the opening and closing
    /// balances, and balances the bank stated that the ledger does not hold.
    private func appendHeader(
        _ statement: MonthlyStatement, money: MoneyFormat, into out: inout [UInt8]
    ) {
        let account = statement.account
        let escape = HTMLDocument.escape
        let amount = { (value: Money) in HTMLDocument.amount(value, money) }
        let period = days.monthAndYear(statement.month)
        // An id such as aba:121000248/1234567890 may break after its `/`, not inside its digits.
        out.append(
            utf8:
                "<header>\n<h1>\(HTMLDocument.accountLabel(name: account.name, id: account.id)) · \(escape(period))</h1>\n<dl>\n"
        )
        var facts = [
            (
                labels.name(of: account.id),
                "<span class=\"iban\">\(HTMLDocument.accountID(account.id))</span>"
            ),
            (labels.account, escape("\(labels.kind(account.kind)), \(account.currency.code)")),
            (labels.openingBalance, amount(statement.openingBalance)),
            (labels.closingBalance, amount(statement.closingBalance)),
        ]
        // Balances the bank stated that the ledger does not hold.
        facts += statement.bankDisagreements.map { disagreement in
            (
                "\(labels.bankBalance) \(days.medium(disagreement.day))",
                "\(amount(disagreement.bank)) (\(escape(labels.difference)) \(amount(disagreement.difference)))"
            )
        }
        for (term, value) in facts {
            out.append(utf8: "<dt>\(escape(term))</dt><dd>\(value)</dd>\n")
        }
        out.append("</dl>\n</header>\n")
    }

    /// A table row a transaction; the reference column only where the month has references.
    private func appendRows(
        _ statement: MonthlyStatement, money: MoneyFormat, dayTexts: [String],
        hasReferences: Bool, into out: inout [UInt8]
    ) {
        let entries = statement.entries
        let appendEscaped = HTMLDocument.appendEscaped
        // By index: each field read in place, not a copy of each entry and its texts.
        let moneyIsPlain = HTMLDocument.writesPlainText(money)
        for index in entries.indices {
            out.append("<tr><td class=\"date\">")
            appendEscaped(dayTexts[entries[index].transaction.date.day - 1], &out)
            out.append("</td><td class=\"text\">")
            String.withReportField(entries[index].transaction.beneficiary) {
                appendEscaped($0, &out)
            }
            out.append("</td><td class=\"description text\">")
            // Without the beneficiary's name where it repeats it (a card's "NETFLIX.COM" twice).
            String.withReportField(entries[index].transaction.descriptionBesideBeneficiary) {
                appendEscaped($0, &out)
            }
            if hasReferences {
                out.append("</td><td class=\"reference\">")
                String.withReportField(entries[index].transaction.reference) {
                    appendEscaped($0, &out)
                }
            }
            out.append("</td>")
            HTMLDocument.appendMoneyCell(
                entries[index].transaction.amount, money, isPlain: moneyIsPlain, to: &out)
            HTMLDocument.appendMoneyCell(
                entries[index].balance, money, isPlain: moneyIsPlain, to: &out)
            out.append("</tr>\n")
        }
    }

    /// Links to the month's index and to the account's statements before and after.
    private func navigation(_ statement: MonthlyStatement, _ neighbours: StatementNeighbours)
        -> String
    {
        let escape = HTMLDocument.escape
        let file = statement.account.id.fileName + ".html"
        var links = ["<a href=\"index.html\">\(escape(labels.monthIndex))</a>"]
        if let previous = neighbours.previous {
            links.append(
                "<a href=\"../\(previous.isoText)/\(file)\" rel=\"prev\">← \(escape(labels.previousMonth)) (\(escape(days.monthAndYear(previous))))</a>"
            )
        }
        if let next = neighbours.next {
            links.append(
                "<a href=\"../\(next.isoText)/\(file)\" rel=\"next\">\(escape(labels.nextMonth)) (\(escape(days.monthAndYear(next)))) →</a>"
            )
        }
        return links.joined(separator: " ")
    }
}

/// An inline SVG step chart of a month's daily closing balance: a zero line, the top and
/// bottom of the scale, the lowest and highest balance marked with their dates, and a mark
/// where the balance crosses zero. Labels never overlap: a scale label that would touch
/// another is left out, and the marks' labels sit inside the plot on the side with room.
///
/// Positions are computed in integer arithmetic (`Int128`) from the minor units, so that no
/// amount passes through floating point even for drawing.
struct BalanceChart {
    let statement: MonthlyStatement
    let money: MoneyFormat
    let days: DayFormatter
    let labels: ReportLabels

    /// The width in SVG units: 640 for a desktop, 360 for a phone (drawn at its own size, so
    /// that its labels stay readable).
    var width = 640
    private let height = 220
    /// The least room left of the plot for the scale's labels.
    private let minimumLeft = 72
    private let right = 12
    private let top = 24
    private let bottom = 40
    /// The height of a label line at the chart's font size of 12.
    static let lineHeight = 14

    /// A text placed on the chart: its box, for the overlap check, and its SVG.
    struct Label {
        let text: String
        let x: Int
        /// The baseline.
        let y: Int
        let anchor: String

        /// The box the text takes, estimated at 7 units per character (12-unit font), and
        /// from 12 above its baseline to 4 below: a font's ascent and descent, with room for
        /// a browser that draws the chart a little larger than its units.
        var box: (left: Int, right: Int, top: Int, bottom: Int) {
            let width = text.displayWidth * 7
            let start =
                anchor == "end" ? x - width : anchor == "middle" ? x - width / 2 : x
            return (start, start + width, y - 12, y + 4)
        }

        func overlaps(_ other: Label) -> Bool {
            let (a, b) = (box, other.box)
            return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
        }
    }

    /// Every label of the chart, in the order drawn.
    var texts: [Label] {
        let daily = statement.dailyBalances
        return texts(Geometry(chart: self, daily: daily), daily: daily)
    }

    /// Every label of the chart drawn with `geometry`, in the order drawn.
    private func texts(_ geometry: Geometry, daily: [(day: Day, balance: Money)]) -> [Label] {
        let currency = statement.account.currency
        let month = statement.month
        let first = try! Day(year: month.year, month: month.month, day: 1)
        let last = try! Day(year: month.year, month: month.month, day: geometry.daysInMonth)
        var scale = [
            Label(
                text: money.format(Money(minorUnits: geometry.high, currency: currency)),
                x: geometry.left - 6, y: geometry.y(geometry.high) + 4, anchor: "end"),
            Label(
                text: money.format(Money(minorUnits: geometry.low, currency: currency)),
                x: geometry.left - 6, y: geometry.y(geometry.low) + 4, anchor: "end"),
        ]
        if geometry.low < 0 && geometry.high > 0 {
            let zero = Label(
                text: money.format(Money.zero(currency)), x: geometry.left - 6,
                y: geometry.y(0) + 4,
                anchor: "end")
            if !scale.contains(where: zero.overlaps) { scale.append(zero) }
        }
        var result =
            scale + [
                Label(text: days.medium(first), x: geometry.left, y: height - 6, anchor: "start"),
                Label(
                    text: days.medium(last), x: geometry.left + geometry.plotWidth, y: height - 6,
                    anchor: "end"),
            ]
        // The lowest and highest balance, each at its point: the highest just above it, the
        // lowest just below it (never down at the zero line when the balance is far above
        // it). The line starts at the opening balance on the first day: it counts too, or a
        // "lowest" label could name a balance above the line's start.
        let points = [(day: first, balance: statement.openingBalance)] + daily
        if let lowest = points.min(by: { $0.balance.minorUnits < $1.balance.minorUnits }),
            let highest = points.max(by: { $0.balance.minorUnits < $1.balance.minorUnits }),
            lowest.balance != highest.balance
        {
            for (point, word, y) in [
                (highest, labels.highest, geometry.y(highest.balance.minorUnits) - 8),
                (lowest, labels.lowest, geometry.y(lowest.balance.minorUnits) + 16),
            ] {
                // Above or below the plot at the day, kept over the plot: the longest text
                // that fits (with the date, without it, the amount alone).
                let amount = money.format(point.balance)
                let texts = [
                    "\(word) \(amount), \(days.medium(point.day))", "\(word) \(amount)", amount,
                ]
                guard
                    let text = texts.first(where: {
                        $0.displayWidth * 7 <= width - 2 - geometry.left
                    })
                else { continue }
                var label = Label(text: text, x: geometry.x(point.day.day), y: y, anchor: "middle")
                let box = label.box
                if box.left < geometry.left {
                    label = Label(text: text, x: geometry.left, y: y, anchor: "start")
                }
                if box.right > width - 2 {
                    label = Label(text: text, x: width - 2, y: y, anchor: "end")
                }
                result.append(label)
            }
        }
        return result
    }

    /// The scale and plot area of the chart.
    struct Geometry {
        let low: Int64
        let high: Int64
        let plotWidth: Int
        let plotHeight: Int
        let daysInMonth: Int
        let left: Int
        let top: Int

        init(chart: BalanceChart, daily: [(day: Day, balance: Money)]) {
            let statement = chart.statement
            let values =
                [statement.openingBalance.minorUnits] + daily.map(\.balance.minorUnits)
            low = min(0, values.min()!)
            let high = max(0, values.max()!)
            self.high = high == low ? low + 1 : high
            // Room left of the plot for the widest scale label (7 units a character).
            let scale = [self.high, low, 0].map {
                chart.money.format(Money(minorUnits: $0, currency: statement.account.currency))
            }
            left = max(chart.minimumLeft, scale.map(\.displayWidth).max()! * 7 + 12)
            plotWidth = chart.width - left - chart.right
            plotHeight = chart.height - chart.top - chart.bottom
            daysInMonth = Day.daysIn(month: statement.month.month, year: statement.month.year)
            top = chart.top
        }

        func y(_ value: Int64) -> Int {
            top + Int(Int128(high - value) * Int128(plotHeight) / (Int128(high) - Int128(low)))
        }

        func x(_ day: Int) -> Int {
            left + (day - 1) * plotWidth / max(1, daysInMonth - 1)
        }
    }

    /// Appends the chart as SVG.
    func appendSVG(to out: inout [UInt8]) {
        let daily = statement.dailyBalances
        let geometry = Geometry(chart: self, daily: daily)
        let (x, y) = (geometry.x, geometry.y)
        let escape = HTMLDocument.escape
        let title =
            "\(labels.chartTitle), \(days.monthAndYear(statement.month)): \(money.format(statement.openingBalance)) → \(money.format(statement.closingBalance))"
        let titleID = "chart-title-\(width)"
        out.append(
            utf8:
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(titleID)\">\n"
        )
        out.append(utf8: "<title id=\"\(titleID)\">\(escape(title))</title>\n")
        out.append(
            utf8:
                "<rect x=\"\(geometry.left)\" y=\"\(top)\" width=\"\(geometry.plotWidth)\" height=\"\(geometry.plotHeight)\" fill=\"#f7f7f7\"/>\n"
        )
        out.append(
            utf8:
                "<line x1=\"\(geometry.left)\" y1=\"\(y(0))\" x2=\"\(geometry.left + geometry.plotWidth)\" y2=\"\(y(0))\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n"
        )
        // The step line's points, `x,y` apart by spaces.
        out.append("<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"")
        func point(_ px: Int, _ py: Int) {
            Self.appendInteger(px, to: &out)
            out.append(UInt8(ascii: ","))
            Self.appendInteger(py, to: &out)
        }
        var lastY = y(statement.openingBalance.minorUnits)
        point(geometry.left, lastY)
        var previous = statement.openingBalance.minorUnits
        var crossings: [Int] = []
        for (day, balance) in daily {
            let px = x(day.day)
            out.append(UInt8(ascii: " "))
            point(px, lastY)
            lastY = y(balance.minorUnits)
            out.append(UInt8(ascii: " "))
            point(px, lastY)
            if (previous < 0) != (balance.minorUnits < 0) { crossings.append(px) }
            previous = balance.minorUnits
        }
        out.append(UInt8(ascii: " "))
        point(geometry.left + geometry.plotWidth, lastY)
        out.append("\"/>\n")
        for crossing in crossings {
            out.append(
                utf8:
                    "<circle class=\"crossing\" cx=\"\(crossing)\" cy=\"\(y(0))\" r=\"4\" fill=\"#a3001b\"/>\n"
            )
        }
        for label in texts(geometry, daily: daily) {
            out.append(
                utf8:
                    "<text x=\"\(label.x)\" y=\"\(label.y)\" font-size=\"12\" text-anchor=\"\(label.anchor)\" fill=\"#333\">\(escape(label.text))</text>\n"
            )
        }
        out.append("</svg>")
    }

    /// Appends an integer's decimal digits, with `-` when negative.
    private static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        DecimalDigits.with(UInt64(value.magnitude)) { out.append(bytes: $0) }
    }
}
