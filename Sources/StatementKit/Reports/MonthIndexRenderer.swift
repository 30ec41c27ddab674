import Foundation

/// Renders `index.html` of a month (every account's statement with its closing balance and
/// links to the files written for it) and the index across all months.
package struct MonthIndexRenderer: Sendable {
    package let locale: Locale
    private let days: DayFormatter
    private let labels: ReportLabels

    /// Creates a renderer for a locale.
    package init(locale: Locale) {
        self.locale = locale
        days = DayFormatter(locale: locale)
        labels = ReportLabels(locale: locale)
    }

    /// - Parameters:
    ///   - balances: every account's closing balance in the month.
    ///   - extensions: the file extensions written per account, such as `["html", "txt"]`.
    package func render(
        _ balances: ClosingBalances, extensions: [String], into out: inout some TextOutputStream
    ) {
        let month = balances.month
        let escape = HTMLDocument.escape
        // Learned once per currency, not once per row.
        let formats = MoneyFormatCache(locale: locale)
        let period = days.monthAndYear(month)
        let title = "\(labels.statements) · \(period)"
        var body = "<nav><a href=\"../index.html\">\(escape(labels.allMonths))</a></nav>\n"
        body +=
            "<h1>\(escape(title))</h1>\n<table>\n<thead><tr><th>\(HTMLDocument.heading(labels.account))</th>"
        body += "<th class=\"num\">\(HTMLDocument.heading(labels.closingBalance))</th>"
        body +=
            "<th class=\"files\">\(HTMLDocument.heading(labels.files))</th></tr></thead>\n<tbody>\n"
        for line in balances.lines {
            let id = line.account
            let links = extensions.map { "<a href=\"\(id.fileName).\($0)\">\($0)</a>" }.joined(
                separator: " ")
            // The account id goes under the name, so that a phone needs no third column.
            let name =
                line.name.map { escape($0) + "<span class=\"sub iban\">" }
                ?? "<span class=\"iban\">"
            body += "<tr><td>\(name)\(HTMLDocument.accountID(id))</span></td>"
            body +=
                HTMLDocument.moneyCell(line.balance, formats.format(for: line.balance.currency))
                + "<td class=\"files\">\(links)</td></tr>\n"
        }
        body += "</tbody>\n</table>"
        out.write(HTMLDocument.page(title: title, language: labels.languageCode, body: body))
    }

    /// Renders `OUT/index.html`: every month with statements, newest first, each account's
    /// closing balance linking to its statement, and each month to its own index.
    package func renderAllMonths(
        _ months: [ClosingBalances], into out: inout some TextOutputStream
    ) {
        let escape = HTMLDocument.escape
        let formats = MoneyFormatCache(locale: locale)
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
                    ?? "<span class=\"iban\">\(HTMLDocument.accountID(line.account))</span>"
                body +=
                    "<tr><td><a href=\"\(folder)/\(line.account.fileName).html\">\(title)</a></td>"
                body +=
                    HTMLDocument.moneyCell(line.balance, formats.format(for: line.balance.currency))
                    + "</tr>\n"
            }
            body += "</tbody>\n</table>\n"
        }
        out.write(
            HTMLDocument.page(title: labels.statements, language: labels.languageCode, body: body))
    }
}
