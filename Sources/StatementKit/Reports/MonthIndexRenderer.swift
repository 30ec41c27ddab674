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
            "<h1>\(escape(title))</h1>\n<table class=\"accounts\">\n<thead><tr><th>\(HTMLDocument.heading(labels.account))</th>"
        body += "<th class=\"num\">\(HTMLDocument.heading(labels.closingBalance))</th>"
        body +=
            "<th class=\"files\">\(HTMLDocument.heading(labels.files))</th></tr></thead>\n<tbody>\n"
        for line in balances.lines {
            let id = line.account
            let links = extensions.map { "<a href=\"\(id.fileName).\($0)\">\($0)</a>" }.joined(
                separator: " ")
            // The account id goes under the name, so that a phone needs no third column; an
            // account without a name is called by its id, in the same style as a name.
            let name = HTMLDocument.accountLabel(name: line.name, id: id)
            let sub =
                line.name == nil
                ? "" : "<span class=\"sub iban\">\(HTMLDocument.accountID(id))</span>"
            body += "<tr><td>\(name)\(sub)</td>"
            body +=
                HTMLDocument.moneyCell(line.balance, formats.format(for: line.balance.currency))
                + "<td class=\"files\">\(links)</td></tr>\n"
        }
        body += "</tbody>\n</table>"
        out.write(HTMLDocument.page(title: title, language: labels.languageCode, body: body))
    }

    /// Renders `OUT/index.html`: a grid of every account (a row each, by name, the accounts
    /// without one after them by id) by every month with statements (a column each, newest
    /// first, linking to its month's index), each cell the account's closing balance linking
    /// to its statement of the month. A grid wider than the screen scrolls in its own box, the
    /// accounts' column staying in place.
    package func renderAllMonths(
        _ months: [ClosingBalances], into out: inout some TextOutputStream
    ) {
        let escape = HTMLDocument.escape
        let formats = MoneyFormatCache(locale: locale)
        let newestFirst = months.sorted { $0.month > $1.month }
        let columns = newestFirst.map(\.month)
        // Each account's name in its latest month, and its closing balance in each month.
        var rows: [AccountID: (name: String?, balances: [Month: Money])] = [:]
        for month in newestFirst {
            for line in month.lines {
                rows[line.account, default: (line.name, [:])].balances[month.month] = line.balance
            }
        }
        // Names are folded (case, accents) once, then compared with their numbers as numbers:
        // with `.caseInsensitive` in the comparison itself, the POSIX locale ordered names
        // inconsistently (a < b < c but c < a), which made the order change from run to run.
        let folded = rows.mapValues {
            $0.name?.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: locale)
        }
        let accounts = rows.keys.sorted { a, b in
            switch (folded[a]!, folded[b]!) {
            case (let x?, let y?):
                let order = x.compare(y, options: [.numeric], range: nil, locale: locale)
                return order == .orderedSame ? a < b : order == .orderedAscending
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        var body =
            "<h1>\(escape(labels.statements))</h1>\n<div class=\"grid\">\n<table class=\"months\">\n"
        body += "<caption>\(escape(labels.closingBalance))</caption>\n"
        body += "<thead><tr><th class=\"account\">\(HTMLDocument.heading(labels.account))</th>"
        for month in columns {
            body +=
                "<th class=\"num\"><a href=\"\(month.isoText)/index.html\">\(escape(days.monthAndYear(month)))</a></th>"
        }
        body += "</tr></thead>\n<tbody>\n"
        for id in accounts {
            let (name, balances) = rows[id]!
            let sub =
                name == nil ? "" : "<span class=\"sub iban\">\(HTMLDocument.accountID(id))</span>"
            body +=
                "<tr><th class=\"account\" scope=\"row\">\(HTMLDocument.accountLabel(name: name, id: id))\(sub)</th>"
            for month in columns {
                guard let balance = balances[month] else {
                    body += "<td></td>"
                    continue
                }
                let text = escape(formats.format(for: balance.currency).format(balance))
                body +=
                    "<td class=\"num\(balance.minorUnits < 0 ? " neg" : "")\"><a href=\"\(month.isoText)/\(id.fileName).html\">\(text)</a></td>"
            }
            body += "</tr>\n"
        }
        body += "</tbody>\n</table>\n</div>"
        out.write(
            HTMLDocument.page(title: labels.statements, language: labels.languageCode, body: body))
    }
}
