import Foundation

/// Renders `OUT/index.html`: every month with statements, newest first, each account's
/// closing balance linking to its statement, and each month to its own index.
package struct AllMonthsIndexRenderer: Sendable {
    package let locale: Locale
    private let days: DayFormatter
    private let labels: ReportLabels

    /// Creates a renderer for a locale.
    package init(locale: Locale) {
        self.locale = locale
        days = DayFormatter(locale: locale)
        labels = ReportLabels(locale: locale)
    }

    package func render(_ months: [ClosingBalances], into out: inout some TextOutputStream) {
        let escape = HTMLDocument.escape
        var body = "<h1>\(escape(labels.statements))</h1>\n"
        for month in months.sorted(by: { $0.month > $1.month }) {
            let folder = month.month.isoText
            body +=
                "<h2><a href=\"\(folder)/index.html\">\(escape(days.monthAndYear(month.month)))</a></h2>\n"
            body += "<table>\n<thead><tr><th>\(HTMLDocument.heading(labels.account))</th>"
            body +=
                "<th class=\"num\">\(HTMLDocument.heading(labels.closingBalance))</th></tr></thead>\n<tbody>\n"
            for line in month.lines {
                let title =
                    line.name.map(escape)
                    ?? "<span class=\"iban\">\(escape(line.account.grouped))</span>"
                body +=
                    "<tr><td><a href=\"\(folder)/\(line.account.fileName).html\">\(title)</a></td>"
                body +=
                    HTMLDocument.moneyCell(
                        line.balance, MoneyFormat(currency: line.balance.currency, locale: locale))
                    + "</tr>\n"
            }
            body += "</tbody>\n</table>\n"
        }
        out.write(
            HTMLDocument.page(title: labels.statements, language: labels.languageCode, body: body))
    }
}
