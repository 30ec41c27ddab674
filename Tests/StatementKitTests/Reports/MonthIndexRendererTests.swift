import Foundation
import Testing

@testable import StatementKit

struct MonthIndexRendererTests {
    static func statement(
        _ id: String, name: String?, month: Int, cents: Int64, currency: Currency = .eur
    ) throws -> MonthlyStatement {
        try MonthlyStatement(
            account: Account(id: try AccountID(parsing: id), name: name, currency: currency),
            month: Month(year: 2026, month: month)!,
            openingBalance: Money(minorUnits: cents, currency: currency), transactions: [])
    }

    /// October and November: four accounts, one of them in October only, two without a name.
    static func allMonths(locale: String = "en_US") throws -> String {
        let october = [
            try statement("DE89370400440532013000", name: "Household", month: 10, cents: 161_968),
            try statement("sort-code:040004/12345678", name: nil, month: 10, cents: 5_000),
            try statement("aba:021000021/123456789", name: nil, month: 10, cents: -2_500),
            try statement("card:amex/1004", name: "amex card", month: 10, cents: -12_345),
        ]
        let november = [
            try statement("DE89370400440532013000", name: "Household", month: 11, cents: 150_000),
            try statement("aba:021000021/123456789", name: nil, month: 11, cents: 700),
            try statement("card:amex/1004", name: "Amex card", month: 11, cents: -99),
        ]
        var html = ""
        MonthIndexRenderer(locale: Locale(identifier: locale)).renderAllMonths(
            [
                ClosingBalances(month: Month(year: 2026, month: 10)!, statements: october),
                ClosingBalances(month: Month(year: 2026, month: 11)!, statements: november),
            ], into: &html)
        return html
    }

    @Test func `lays out the index of all months as accounts by months, newest month first`()
        throws
    {
        let html = try Self.allMonths()
        #expect(
            html.contains(
                "<thead><tr><th class=\"account\">Account</th><th class=\"num\"><a href=\"2026-11/index.html\">November 2026</a></th><th class=\"num\"><a href=\"2026-10/index.html\">October 2026</a></th></tr></thead>"
            ))
        // One row an account, its closing balance in each month linking to its statement.
        #expect(
            html.contains(
                "<tr><th class=\"account\" scope=\"row\">Household<span class=\"sub iban\">DE89 3704 0044 0532 <span class=\"nobr\">0130 00</span></span></th><td class=\"num\"><a href=\"2026-11/DE89370400440532013000.html\">€1,500.00</a></td><td class=\"num\"><a href=\"2026-10/DE89370400440532013000.html\">€1,619.68</a></td></tr>"
            ))
        // An account without a statement in a month has an empty cell there.
        #expect(
            html.contains(
                "<tr><th class=\"account\" scope=\"row\"><span class=\"id\"><span class=\"nobr\">sort-code:</span><wbr>040004/<wbr>12345678</span></th><td></td><td class=\"num\"><a href=\"2026-10/sort-code_040004_12345678.html\">€50.00</a></td></tr>"
            ))
        #expect(html.components(separatedBy: "<tr><th class=\"account\" scope=\"row\">").count == 5)
        #expect(html.contains("<div class=\"grid\">"))
        #expect(html.contains(".grid{overflow-x:auto}"))
        #expect(html.contains("position:sticky"))
        // The old layout, a table a month, is gone.
        #expect(!html.contains("<h2>"))
    }

    @Test func `sorts the accounts by name, those without one after them by id`() throws {
        let html = try Self.allMonths()
        let rows = html.components(separatedBy: "scope=\"row\">").dropFirst().map {
            String($0.prefix(while: { $0 != "<" }))
        }
        // The name of the latest month ("Amex card", not October's "amex card"), by letters
        // whatever their case; then aba:… before sort-code:….
        #expect(rows == ["Amex card", "Household", "", ""])
        let aba = try #require(html.range(of: "<span class=\"id\">aba:"))
        let sortCode = try #require(html.range(of: "sort-code:</span>"))
        #expect(aba.lowerBound < sortCode.lowerBound)
    }

    /// The POSIX locale, with names in both cases: its case-insensitive comparison was not
    /// transitive (`Holiday savings` < `comdirect Girokonto` < `Compte Lyon` < `Holiday
    /// savings`), so the rows came out in another order from run to run.
    @Test(arguments: ["en_US_POSIX", "en_US", "de_DE", "tr_TR"])
    func `sorts names of either case in one order whatever order they come in`(locale: String)
        throws
    {
        let names = [
            "Holiday savings", "comdirect Girokonto", "Compte Lyon", "Manama project (Max)",
            "Girokonto", "Épargne", "Account 10", "account 2", "Zürich", "Amex Gold",
        ]
        var generator = SeededGenerator(seed: 47)
        let accounts = try names.indices.map { try AccountID(parsing: "name:account-\($0)") }
        var orders: Set<[String]> = []
        for _ in 0..<20 {
            let statements = try names.indices.shuffled(using: &generator).map {
                try Self.statement(accounts[$0].text, name: names[$0], month: 10, cents: 100)
            }
            var html = ""
            MonthIndexRenderer(locale: Locale(identifier: locale)).renderAllMonths(
                [ClosingBalances(month: Month(year: 2026, month: 10)!, statements: statements)],
                into: &html)
            orders.insert(
                html.components(separatedBy: "scope=\"row\">").dropFirst().map {
                    String($0.prefix(while: { $0 != "<" }))
                })
        }
        #expect(
            orders == [
                [
                    "account 2", "Account 10", "Amex Gold", "comdirect Girokonto", "Compte Lyon",
                    "Épargne", "Girokonto", "Holiday savings", "Manama project (Max)", "Zürich",
                ]
            ])
    }

    @Test func `calls an account without a name by its id in a name's style`() throws {
        let html = try Self.allMonths()
        #expect(
            html.contains(
                "<th class=\"account\" scope=\"row\"><span class=\"id\">aba:<wbr>021000021/<wbr>123456789</span></th>"
            ))
        // Not in the monospace style of an IBAN under a name.
        #expect(!html.contains("scope=\"row\"><span class=\"iban\">"))
        var index = ""
        MonthIndexRenderer(locale: Locale(identifier: "en_US")).render(
            ClosingBalances(
                month: Month(year: 2026, month: 10)!,
                statements: [
                    try Self.statement("aba:021000021/123456789", name: nil, month: 10, cents: 1)
                ]),
            extensions: ["html"], into: &index)
        #expect(
            index.contains(
                "<tr><td><span class=\"id\">aba:<wbr>021000021/<wbr>123456789</span></td>"
            ))
    }

    @Test func `marks a negative closing balance, in the locale's format`() throws {
        let html = try Self.allMonths(locale: "de_DE")
        #expect(
            html.contains(
                "<td class=\"num neg\"><a href=\"2026-10/card_amex_1004.html\">-123,45\u{00A0}€</a></td>"
            ))
        #expect(html.contains("<html lang=\"de\">"))
    }
}
