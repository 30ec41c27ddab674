import Foundation
import Testing

@testable import StatementKit

/// A statement with hostile and wide text, used by the renderer tests and their golden files.
enum SampleStatement {
    static let account = Account(
        id: AccountID(try! IBAN(parsing: "DE89370400440532013000")), name: "Household <Main>",
        kind: .checking, currency: .eur)

    static func transaction(
        _ day: String, _ cents: Int64, _ beneficiary: String, _ description: String? = nil,
        _ reference: String? = nil
    )
        -> Transaction
    {
        Transaction(
            date: try! Day(parsing: "2026-10-" + day),
            amount: Money(minorUnits: cents, currency: .eur),
            beneficiary: beneficiary, description: description, reference: reference)
    }

    static let statement = try! MonthlyStatement(
        account: account, month: Month(year: 2026, month: 10)!,
        openingBalance: Money(minorUnits: 152_000, currency: .eur),
        transactions: [
            transaction("03", -1_234, "Café Le Zinc", "Lunch", "TX-1"),
            transaction("01", 245_000, "Capgemini, S.E.", "Salary \"October\"", "TX-0"),
            transaction(
                "05", -999, "<script>alert(1)</script>", "=HYPERLINK(\"http://evil\")", "@SUM(A1)"),
            transaction(
                "07", -4_817, "東京電力エナジーパートナー株式会社 東京電力エナジーパートナー株式会社", "+cmd|' /C calc'!A0", "-2+3"),
            transaction(
                "07", -100,
                "Emoji 😀👩‍👩‍👧 and combining e\u{301}e\u{301}e\u{301} name that goes on and on and on",
                "\u{1B}[31mred\u{202E}evil\tTab"),
            transaction("31", -120_000_000, "Big spender", nil, nil),
        ])

    static func golden(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/\(name)")
    }

    /// Compares with the golden file; with STATEMENTS_RECORD_GOLDEN=1 rewrites it instead.
    static func expectGolden(_ text: String, _ name: String) throws {
        let url = golden(name)
        if ProcessInfo.processInfo.environment["STATEMENTS_RECORD_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOf: url, encoding: .utf8)))
    }
}

struct MonthlyStatementTests {
    @Test
    func `orders by day, keeping ledger order within a day, with running balances and totals`() {
        let statement = SampleStatement.statement
        #expect(
            statement.entries.map(\.transaction.reference) == [
                "TX-0", "TX-1", "@SUM(A1)", "-2+3", nil, nil,
            ])
        #expect(
            statement.entries.map(\.balance.minorUnits) == [
                397_000, 395_766, 394_767, 389_950, 389_850, -119_610_150,
            ])
        #expect(statement.totalIn.minorUnits == 245_000)
        #expect(statement.totalOut.minorUnits == -120_007_150)
        #expect(statement.closingBalance.minorUnits == -119_610_150)
        #expect(statement.dailyBalances.map(\.day.day) == [1, 3, 5, 7, 31])
    }
}

struct FormattingTests {
    @Test(
        arguments: [
            (123_456, "EUR", "en_US", "€1,234.56"), (-1_234, "EUR", "en_US", "-€12.34"),
            (123_456, "EUR", "de_DE", "1.234,56\u{00A0}€"),
            (1_235, "JPY", "en_US", "¥1,235"), (12_345, "BHD", "en_US", "BHD\u{00A0}12.345"),
            (9_223_372_036_854_775_807, "EUR", "en_US", "€92,233,720,368,547,758.07"),
        ] as [(Int64, String, String, String)])
    func `formats money exactly by locale`(
        minorUnits: Int64, code: String, locale: String, text: String
    ) {
        let money = Money(minorUnits: minorUnits, currency: Currency(code: code)!)
        #expect(money.formatted(locale: Locale(identifier: locale)) == text)
    }

    @Test(arguments: [
        "en_US", "de_DE", "fr_FR", "de_CH", "en_IN", "hi_IN", "ja_JP", "ar_EG", "pt_BR", "sv_SE",
        "nl_NL", "es_ES", "fa_IR", "he_IL",
    ])
    func `formats like Foundation from a learned pattern`(locale: String) {
        var generator = SeededGenerator(seed: 99)
        for code in ["EUR", "JPY", "BHD", "CLF", "USD", "INR", "CHF"] {
            let currency = Currency(code: code)!
            let format = MoneyFormat(currency: currency, locale: Locale(identifier: locale))
            for _ in 0..<150 {
                let magnitude =
                    Int64.random(in: 0...Int64.max, using: &generator)
                    >> Int64.random(in: 0...62, using: &generator)
                let money = Money(
                    minorUnits: Bool.random(using: &generator) ? magnitude : -magnitude,
                    currency: currency)
                #expect(
                    format.format(money) == money.formatted(locale: Locale(identifier: locale)),
                    "\(locale) \(code) \(magnitude)")
            }
        }
    }

    @Test func `formats days in the locale's medium style`() throws {
        let day = try Day(parsing: "2026-10-03")
        #expect(DayFormatter(locale: Locale(identifier: "en_US")).medium(day) == "Oct 3, 2026")
        #expect(DayFormatter(locale: Locale(identifier: "de_DE")).medium(day) == "03.10.2026")
        #expect(
            DayFormatter(locale: Locale(identifier: "en_US")).monthAndYear(Month(day))
                == "October 2026")
    }

    @Test func `groups an IBAN in fours`() throws {
        #expect(
            try IBAN(parsing: "DE89370400440532013000").grouped == "DE89 3704 0044 0532 0130 00")
        #expect(try IBAN(parsing: "NO9386011117947").grouped == "NO93 8601 1117 947")
    }

    @Test func `groups an amount's thousands at its currency's decimals, with its sign and code`() {
        let cases: [(Int64, Currency, String)] = [
            (0, .eur, "0.00 EUR"), (-5, .eur, "-0.05 EUR"), (123_456_789, .eur, "1,234,567.89 EUR"),
            (-100_000, .eur, "-1,000.00 EUR"), (1_234_567, Currency(code: "JPY")!, "1,234,567 JPY"),
            (-1_234_567, Currency(code: "BHD")!, "-1,234.567 BHD"),
            (.min, .eur, "-92,233,720,368,547,758.08 EUR"),
            (.max, Currency(code: "JPY")!, "9,223,372,036,854,775,807 JPY"),
        ]
        for (minorUnits, currency, text) in cases {
            #expect(Money(minorUnits: minorUnits, currency: currency).groupedText == text)
        }
    }

    @Test func `measures display width of wide, emoji and combining text`() {
        #expect("abc".displayWidth == 3)
        #expect("東京".displayWidth == 4)
        #expect("😀".displayWidth == 2)
        #expect("👩‍👩‍👧".displayWidth == 2)
        #expect("e\u{301}".displayWidth == 1)
        #expect("Müller −€1 234,50".displayWidth == 17)
        #expect("Ωmega «ü»".displayWidth == 9)
        for text in ["Müller", "a\u{301}", "東京", "😀x", "x\u{A0}y", "\u{10FFFF}"] {
            let scalars = Array(text.unicodeScalars)
            #expect(
                text.withUTF8Bytes(String.plainNarrowWidth)
                    == (scalars.allSatisfy(\.isPlainNarrow) ? scalars.count : nil), "\(text)")
        }
        #expect("東京電力".truncated(toWidth: 5) == "東京…")
        #expect("abcdef".truncated(toWidth: 4) == "abc…")
        #expect("abcdef".truncated(toWidth: 1) == "…")
        #expect("abcdef".truncated(toWidth: 0) == "…")
        #expect("abcdef".truncated(toWidth: 6) == "abcdef")
        #expect("Müller GmbH".truncated(toWidth: 4) == "Mül…")
    }

    @Test func `neutralises controls and bidi overrides`() {
        #expect("a\u{1B}[31m\u{202E}b\tc\nd".neutralized == "a\u{FFFD}[31m\u{FFFD}b c d")
        #expect(" ~plain ASCII".isNeutral && " ~plain ASCII".isPrintableASCII)
        for text in ["a\u{7F}", "\u{1F}b", "tab\t"] {
            #expect(!text.isNeutral && !text.isPrintableASCII, "\(text)")
        }
        #expect("Café".isNeutral && !"Café".isPrintableASCII)
    }
}

struct TextStatementRendererTests {
    static func render(_ locale: String = "en_US") -> String {
        var text = ""
        TextStatementRenderer(locale: Locale(identifier: locale)).render(
            SampleStatement.statement, into: &text)
        return text
    }

    @Test func `matches the golden file`() throws {
        try SampleStatement.expectGolden(Self.render(), "statement.txt")
        try SampleStatement.expectGolden(Self.render("de_DE"), "statement-de_DE.txt")
    }

    @Test func `shows a description that repeats the beneficiary once`() throws {
        var text = ""
        TextStatementRenderer(locale: Locale(identifier: "en_US")).render(
            try HTMLStatementRendererTests.cardMonth(), into: &text)
        #expect(text.components(separatedBy: "NETFLIX.COM").count == 2, "\(text)")
        let payroll = try #require(text.split(separator: "\n").first { $0.contains("Acme Corp") })
        #expect(payroll.contains("PAYROLL PPD ID: 1234567"))
        #expect(!payroll.contains("ACME CORP"))
    }

    @Test func `fits 100 columns with wide names and shows no control character`() {
        let text = Self.render()
        for line in text.split(separator: "\n") {
            #expect(String(line).displayWidth <= 100, "\(line)")
        }
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!text.unicodeScalars.contains("\u{202E}"))
        #expect(text.contains("IBAN DE89 3704 0044 0532 0130 00"))
    }
}

struct CSVStatementRendererTests {
    @Test func `matches the golden file`() throws {
        var text = ""
        CSVStatementRenderer().render(SampleStatement.statement, into: &text)
        try SampleStatement.expectGolden(text, "statement.csv")
    }

    @Test(
        arguments: [
            ("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""), ("+cmd", "'+cmd"),
            ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\u{FFFD}x".replacingOccurrences(of: "\u{FFFD}", with: " ")),
            ("-12.34", "-12.34"), ("+5", "+5"),
            ("plain, text", "\"plain, text\""), ("", ""),
            // A line break before the formula becomes a space first; the guard still holds.
            ("\n=1+1", "' =1+1"), ("  @x", "'  @x"), ("\r\n-1+2", "'  -1+2"),
            // Plain text stays as it is; a quote or DEL inside is still handled.
            ("Groceries 12", "Groceries 12"), ("x=1 ~", "x=1 ~"),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("a\u{7F}b", "a\u{FFFD}b"),
            // Beyond ASCII too.
            ("Müller GmbH", "Müller GmbH"), ("=Müller", "'=Müller"), ("Café, Bar", "\"Café, Bar\""),
            (" Ärger", " Ärger"), ("Ärger\u{202E}", "Ärger\u{FFFD}"),
        ] as [(String, String)])
    func `neutralises formula injection and quotes as RFC 4180 asks`(input: String, cell: String) {
        #expect(CSVStatementRenderer.cell(input) == cell)
    }
}

struct ReportFieldLimitTests {
    @Test func `cuts a huge field in every report, keeping short ones whole`() {
        let huge = String(repeating: "x", count: 5_000_000)
        #expect(huge.reportField.count == String.reportFieldLimit + 1)
        #expect(huge.reportField.hasSuffix("…"))
        #expect("Café".reportField == "Café")
        #expect(CSVStatementRenderer.cell(huge.reportField).count < 1_100)
    }
}

struct HTMLStatementRendererTests {
    static func render() -> String {
        var text = ""
        HTMLStatementRenderer(locale: Locale(identifier: "en_US")).render(
            SampleStatement.statement, into: &text)
        return text
    }

    @Test func `matches the golden file`() throws {
        try SampleStatement.expectGolden(Self.render(), "statement.html")
    }

    @Test func `escapes every value and loads nothing`() {
        let html = Self.render()
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("Household &lt;Main&gt;"))
        #expect(!html.contains("src="))
        // The one link: to the month's index, beside the page.
        #expect(html.components(separatedBy: "href=").count == 2)
        #expect(html.contains("<nav><a href=\"index.html\">All statements of the month</a></nav>"))
        // "http" stands only in the two charts' SVG namespace and in the escaped text.
        #expect(html.components(separatedBy: "http").count == 4)
        #expect(!html.unicodeScalars.contains("\u{202E}"))
        #expect(!html.unicodeScalars.contains("\u{1B}"))
    }

    @Test func `escapes a quote or bracket that a combining mark follows`() {
        // `"\u{301}` is one character, not `"`: the escaper reads scalars.
        let escaped = HTMLDocument.escape("x\"\u{301} onmouseover=alert(1) <\u{301}b>")
        #expect(escaped == "x&quot;\u{301} onmouseover=alert(1) &lt;\u{301}b&gt;")
        #expect(!escaped.unicodeScalars.contains("\""))
        #expect(jsonString("a\"\u{301}\\") == "\"a\\\"\u{301}\\\\\"")
    }

    @Test func `draws an accessible chart with a zero line`() {
        let html = Self.render()
        #expect(html.contains("<svg"))
        #expect(
            html.contains(
                "<title id=\"chart-title-640\">Daily closing balance, October 2026: €1,520.00 → -€1,196,101.50</title>"
            ))
        #expect(html.contains("stroke-dasharray"))
        #expect(html.contains("@media print"))
    }

    @Test func `links the account's months before and after, and repeats its header in print`() {
        var html = ""
        HTMLStatementRenderer(locale: Locale(identifier: "en_US")).render(
            SampleStatement.statement,
            neighbours: StatementNeighbours(
                of: Month(year: 2026, month: 10)!,
                among: [
                    Month(year: 2026, month: 7)!, Month(year: 2026, month: 9)!,
                    Month(year: 2026, month: 10)!, Month(year: 2027, month: 1)!,
                ]),
            into: &html)
        #expect(
            html.contains(
                "<a href=\"../2026-09/DE89370400440532013000.html\" rel=\"prev\">← Previous month (September 2026)</a>"
            ))
        #expect(
            html.contains(
                "<a href=\"../2027-01/DE89370400440532013000.html\" rel=\"next\">Next month (January 2027) →</a>"
            ))
        #expect(
            html.contains(
                "<tr class=\"print-only\"><th colspan=\"6\">Household &lt;Main&gt; · DE89 3704 0044 0532 0130 00 · October 2026</th></tr>"
            ))
        #expect(html.contains("thead{display:table-header-group}"))
        // Amounts in running text never break after their minus sign.
        #expect(html.contains("<dd><span class=\"num neg\">-€1,196,101.50</span></dd>"))
    }

    @Test(arguments: ["de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "ja_JP", "pt_BR", "en_GB"])
    func `labels the statement and the index in the locale's language, else English`(
        identifier: String
    ) {
        let locale = Locale(identifier: identifier)
        let labels = ReportLabels(locale: locale)
        let language = String(identifier.prefix(2))
        #expect(labels.languageCode == (ReportLabels.all[language] == nil ? "en" : language))
        var (html, text, index) = ("", "", "")
        HTMLStatementRenderer(locale: locale).render(SampleStatement.statement, into: &html)
        TextStatementRenderer(locale: locale).render(SampleStatement.statement, into: &text)
        MonthIndexRenderer(locale: locale).render(
            ClosingBalances(
                month: SampleStatement.statement.month, statements: [SampleStatement.statement]),
            extensions: ["html"], into: &index)
        for page in [html, index] {
            #expect(page.contains("<html lang=\"\(labels.languageCode)\">"))
        }
        let english = ReportLabels.english
        let words = [
            english.openingBalance, english.closingBalance, english.beneficiary,
            english.description, english.monthIndex, english.chartTitle,
        ]
        for word in words {
            let expected = labels.languageCode == "en"
            #expect(html.contains(word) == expected, "\(identifier): \(word)")
        }
        #expect(text.contains(labels.openingBalance))
        #expect(text.contains(labels.transactions(6)))
        #expect(index.contains(labels.closingBalance))
        #expect(text.split(separator: "\n").allSatisfy { String($0).displayWidth <= 100 })
    }

    @Test func `never lets chart labels overlap, whatever the balances`() {
        var generator = SystemRandomNumberGenerator()
        // Among them the case that overlapped: a minimum just below zero.
        var cases: [[Int64]] = [[500_000, -218_247], [1, -1], [0, 0], [-5, -5], [100, 99]]
        for _ in 0..<300 {
            let count = Int.random(in: 1...25, using: &generator)
            let scale = Int64([100, 10_000, 1_000_000, 100_000_000].randomElement()!)
            cases.append(
                (0..<count).map { _ in Int64.random(in: -scale...scale, using: &generator) })
        }
        for amounts in cases {
            let statement = try! MonthlyStatement(
                account: SampleStatement.statement.account, month: Month(year: 2026, month: 2)!,
                openingBalance: Money(minorUnits: amounts[0], currency: .eur),
                transactions: amounts.dropFirst().enumerated().map { index, cents in
                    Transaction(
                        date: try! Day(year: 2026, month: 2, day: index % 28 + 1),
                        amount: Money(minorUnits: cents, currency: .eur), beneficiary: "x")
                })
            for (identifier, width) in [("en_US", 640), ("en_US", 360), ("fr_FR", 360)] {
                let locale = Locale(identifier: identifier)
                let chart = BalanceChart(
                    statement: statement, money: MoneyFormat(currency: .eur, locale: locale),
                    days: DayFormatter(locale: locale), labels: ReportLabels(locale: locale),
                    width: width)
                let texts: [BalanceChart.Label] = chart.texts
                for (index, label) in texts.enumerated() {
                    for other in texts[(index + 1)...] {
                        #expect(
                            !label.overlaps(other), "\(amounts): \(label.text) / \(other.text)")
                    }
                    #expect(
                        label.box.left >= 0 && label.box.right <= width, "\(width): \(label.text)")
                    #expect(
                        label.box.top >= 0 && label.box.bottom <= 220, "\(width): \(label.text)")
                }
                // The lowest and highest labels sit at their points' height, whatever the
                // zero line's.
                let geometry = BalanceChart.Geometry(chart: chart, daily: statement.dailyBalances)
                let values = [amounts[0]] + statement.dailyBalances.map(\.balance.minorUnits)
                let format = MoneyFormat(currency: .eur, locale: locale)
                for label in texts {
                    if label.text.hasPrefix("lowest ") || label.text.hasPrefix("plus bas ") {
                        #expect(
                            label.text.contains(
                                format.format(Money(minorUnits: values.min()!, currency: .eur))))
                        #expect(
                            label.y == geometry.y(values.min()!) + 16, "\(amounts): \(label.text)")
                    }
                    if label.text.hasPrefix("highest ") || label.text.hasPrefix("plus haut ") {
                        #expect(
                            label.y == geometry.y(values.max()!) - 8, "\(amounts): \(label.text)")
                    }
                }
            }
        }
    }

    @Test func `labels the lowest balance where the line is lowest, the opening balance too`() {
        // Opened at zero, one credit: the line starts at ¥0 on the 1st, its lowest point.
        let account = Account(
            id: AccountID(try! IBAN(parsing: "CH9300762011623852957")),
            currency: Currency(code: "JPY")!)
        let statement = try! MonthlyStatement(
            account: account, month: Month(year: 2026, month: 10)!,
            openingBalance: .zero(Currency(code: "JPY")!),
            transactions: [
                Transaction(
                    date: try! Day(year: 2026, month: 10, day: 2),
                    amount: Money(minorUnits: 150_000, currency: Currency(code: "JPY")!),
                    beneficiary: "x"),
                Transaction(
                    date: try! Day(year: 2026, month: 10, day: 9),
                    amount: Money(minorUnits: -69_435, currency: Currency(code: "JPY")!),
                    beneficiary: "y"),
            ])
        let locale = Locale(identifier: "en_US")
        let chart = BalanceChart(
            statement: statement,
            money: MoneyFormat(currency: Currency(code: "JPY")!, locale: locale),
            days: DayFormatter(locale: locale), labels: ReportLabels(locale: locale))
        let texts = chart.texts.map(\.text)
        #expect(texts.contains("lowest ¥0, Oct 1, 2026"), "\(texts)")
        #expect(texts.contains("highest ¥150,000, Oct 2, 2026"), "\(texts)")
        #expect(!texts.contains { $0.hasPrefix("lowest ¥80,565") })
    }

    @Test func `labels the lowest and highest balance at their points, the line from the opening`()
        throws
    {
        // Far above zero all month: the zero line is the plot's bottom, the lowest balance
        // (the opening one) far above it.
        let statement = try MonthlyStatement(
            account: SampleStatement.account, month: Month(year: 2026, month: 10)!,
            openingBalance: Money(minorUnits: 100_000, currency: .eur),
            transactions: [
                SampleStatement.transaction("05", 50_000, "Salary"),
                SampleStatement.transaction("20", -30_000, "Rent"),
            ])
        let locale = Locale(identifier: "en_US")
        let chart = BalanceChart(
            statement: statement, money: MoneyFormat(currency: .eur, locale: locale),
            days: DayFormatter(locale: locale), labels: ReportLabels(locale: locale))
        let geometry = BalanceChart.Geometry(chart: chart, daily: statement.dailyBalances)
        let lowest = try #require(chart.texts.first { $0.text.hasPrefix("lowest") })
        let highest = try #require(chart.texts.first { $0.text.hasPrefix("highest") })
        #expect(lowest.text == "lowest €1,000.00, Oct 1, 2026")
        #expect(lowest.y == geometry.y(100_000) + 16)
        #expect(lowest.y < geometry.y(0) - 60, "not down at the zero line")
        #expect(highest.text == "highest €1,500.00, Oct 5, 2026")
        #expect(highest.y == geometry.y(150_000) - 8)
        // The line starts at the opening balance, on the first day.
        var svg: [UInt8] = []
        chart.appendSVG(to: &svg)
        #expect(
            String(decoding: svg, as: UTF8.self).contains(
                "points=\"\(geometry.left),\(geometry.y(100_000)) "))
    }

    @Test func `lets an account id break after its colon and slash, an IBAN between groups`()
        throws
    {
        #expect(
            HTMLDocument.accountID(try AccountID(parsing: "aba:121000248/1234567890"))
                == "aba:<wbr>121000248/<wbr>1234567890")
        // An IBAN breaks between its groups, its short last group never alone on a line.
        #expect(
            HTMLDocument.accountID(try AccountID(parsing: "DE89370400440532013000"))
                == "DE89 3704 0044 0532 <span class=\"nobr\">0130 00</span>")
        #expect(
            HTMLDocument.accountID(try AccountID(parsing: "BE68539007547034"))
                == "BE68 5390 0754 7034")
        // Never at the hyphen of `sort-code` or of an account number.
        #expect(
            HTMLDocument.accountID(try AccountID(parsing: "sort-code:040004/12345678"))
                == "<span class=\"nobr\">sort-code:</span><wbr>040004/<wbr>12345678")
        #expect(
            HTMLDocument.accountID(try AccountID(parsing: "name:000312345-98765-43"))
                == "name:<wbr><span class=\"nobr\">000312345-98765-43</span>")
    }

    static let usd = Currency(code: "USD")!

    /// A card account's month without references, whose descriptions repeat the merchant.
    static func cardMonth() throws -> MonthlyStatement {
        let account = Account(
            id: try AccountID(parsing: "card:amex/1004"), kind: .creditCard, currency: Self.usd)
        return try MonthlyStatement(
            account: account, month: Month(year: 2026, month: 10)!,
            openingBalance: .zero(Self.usd),
            transactions: [
                Transaction(
                    date: try Day(parsing: "2026-10-03"),
                    amount: Money(minorUnits: -1_599, currency: Self.usd),
                    beneficiary: "NETFLIX.COM",
                    description: "NETFLIX.COM"),
                Transaction(
                    date: try Day(parsing: "2026-10-04"),
                    amount: Money(minorUnits: 250_000, currency: Self.usd),
                    beneficiary: "Acme Corp",
                    description: "ACME CORP PAYROLL PPD ID: 1234567"),
            ])
    }

    /// The card month as a page.
    static func cardStatement() throws -> String {
        var html = ""
        HTMLStatementRenderer(locale: Locale(identifier: "en_US")).render(
            try cardMonth(), into: &html)
        return html
    }

    @Test func `shows a description that repeats the beneficiary once`() throws {
        let html = try Self.cardStatement()
        #expect(
            html.contains(
                "<td class=\"text\">NETFLIX.COM</td><td class=\"description text\"></td>"))
        #expect(
            html.contains(
                "<td class=\"text\">Acme Corp</td><td class=\"description text\">PAYROLL PPD ID: 1234567</td>"
            ))
        #expect(html.components(separatedBy: "NETFLIX.COM").count == 2)
    }

    @Test func `leaves out the reference column in a month without references`() throws {
        let html = try Self.cardStatement()
        #expect(!html.contains("<th class=\"reference\">"))
        #expect(!html.contains("<td class=\"reference\">"))
        #expect(html.contains("<tr class=\"print-only\"><th colspan=\"5\">"))
        #expect(
            html.contains(
                "<th class=\"description\">Description</th><th class=\"num\">Amount</th>"))
        // On a phone the amounts find their places from the end of the row, so they keep them
        // without the column.
        #expect(html.contains(".entries tr>:nth-last-child(2){grid-area:1/2}"))
        // A month with references keeps the column.
        #expect(Self.render().contains("<th class=\"reference\">Reference</th>"))
        #expect(Self.render().contains("<th colspan=\"6\">"))
    }

    @Test func `calls an account without a name by its id, never broken at a hyphen`() throws {
        let html = try Self.cardStatement()
        #expect(
            html.contains(
                "<h1><span class=\"id\">card:<wbr>amex/<wbr>1004</span> · October 2026</h1>"))
    }

    @Test func `links each account from the month index`() {
        var html = ""
        MonthIndexRenderer(locale: Locale(identifier: "en_US")).render(
            ClosingBalances(
                month: SampleStatement.statement.month, statements: [SampleStatement.statement]),
            extensions: ["html", "csv"], into: &html)
        #expect(
            html.contains(
                "<a href=\"DE89370400440532013000.html\">html</a> <a href=\"DE89370400440532013000.csv\">csv</a>"
            ))
        #expect(html.contains("-€1,196,101.50"))
    }
}
