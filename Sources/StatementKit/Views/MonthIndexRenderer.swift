import Foundation

/// Renders `index.html` of a month: every account's statement with its closing balance and
/// links to the files written for it.
package struct MonthIndexRenderer: Sendable {
    package let locale: Locale
    private let days: DayFormatter

    /// Creates a renderer for a locale.
    package init(locale: Locale) {
        self.locale = locale
        days = DayFormatter(locale: locale)
    }

    /// - Parameter extensions: the file extensions written per account, such as `["html", "txt"]`.
    package func render(
        _ statements: [MonthlyStatement], month: Month, extensions: [String],
        into out: inout some TextOutputStream
    ) {
        let escape = HTMLDocument.escape
        let period = days.monthAndYear(month)
        let idLabel = statements.allSatisfy { $0.account.id.iban != nil } ? "IBAN" : "Account id"
        var body =
            "<h1>Statements · \(escape(period))</h1>\n<table>\n<thead><tr><th>Account</th><th>\(idLabel)</th>"
        body += "<th class=\"num\">Closing balance</th><th>Files</th></tr></thead>\n<tbody>\n"
        for statement in statements.sorted(by: { $0.account.id < $1.account.id }) {
            let id = statement.account.id
            let links = extensions.map { "<a href=\"\(id.fileName).\($0)\">\($0)</a>" }.joined(
                separator: " ")
            body +=
                "<tr><td>\(escape(statement.account.name ?? "–"))</td><td class=\"iban\">\(escape(id.grouped))</td>"
            body +=
                HTMLDocument.moneyCell(
                    statement.closingBalance,
                    MoneyFormat(currency: statement.account.currency, locale: locale))
                + "<td>\(links)</td></tr>\n"
        }
        body += "</tbody>\n</table>"
        out.write(HTMLDocument.page(title: "Statements · \(period)", locale: locale, body: body))
    }
}
