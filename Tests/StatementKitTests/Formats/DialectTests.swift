import Testing

@testable import StatementKit

/// Unit tests of each dialect feature: date and amount layouts, encodings, profiles, the
/// parser in a dialect, and sniffing.
struct DialectTests {
    func day(_ text: String, _ pattern: String) throws -> Day {
        let format = try DateFormat(pattern)
        return try format.day(parsing: text.utf8.span)
    }

    @Test func `reads dates in the layouts banks use`() throws {
        let october3 = try Day(year: 2026, month: 10, day: 3)
        #expect(try day("03.10.2026", "dd.MM.yyyy") == october3)
        #expect(try day("3.10.2026", "d.M.yyyy") == october3)
        #expect(try day("10/03/2026", "MM/dd/yyyy") == october3)
        #expect(try day("03/10/2026", "dd/MM/yyyy") == october3)
        #expect(try day("20261003", "yyyyMMdd") == october3)
        #expect(try day("03.10.26", "dd.MM.yy") == october3)
        #expect(throws: DayError.malformed) { try day("3.10.2026", "dd.MM.yyyy") }
        #expect(throws: DayError.malformed) { try day("03.10.2026 ", "dd.MM.yyyy") }
        #expect(throws: DayError.malformed) { try day("03-10-2026", "dd.MM.yyyy") }
        #expect(throws: DayError.invalid) { try day("10/13/2026", "dd/MM/yyyy") }
        #expect(throws: DayError.invalid) { try day("29.02.2026", "dd.MM.yyyy") }
        let bad = [
            "dd.MM", "yyyy-MM-dd-dd", "ddd.MM.yyyy", "yyy-MM-dd", "dd.MM.yyyy hh:mm",
            "dd MMM yyyy 'at", "MM/dd/yyyy*x", "dd.MM.yyyy HH:mm Q", "dd MMM MM yyyy",
        ]
        for pattern in bad {
            #expect(throws: DateFormatError.self, "\(pattern)") { try DateFormat(pattern) }
        }
    }

    @Test func `reads month names in the languages of bank exports`() throws {
        let september12 = try Day(year: 2025, month: 9, day: 12)
        #expect(try day("12 Sep 2025", "dd MMM yyyy") == september12)
        #expect(try day("12 SEPT. 2025", "dd MMM yyyy") == september12)
        #expect(try day("12-set-25", "dd-MMM-yy") == september12)
        #expect(try day("September 12, 2025", "MMMM d, yyyy") == september12)
        #expect(try day("12SEP2025", "ddMMMyyyy") == september12)
        #expect(try day("3-Okt-26", "d-MMM-yy") == (try Day(year: 2026, month: 10, day: 3)))
        #expect(try day("04 févr. 2026", "dd MMM yyyy") == (try Day(year: 2026, month: 2, day: 4)))
        #expect(try day("04 FÉVR 2026", "dd MMM yyyy") == (try Day(year: 2026, month: 2, day: 4)))
        #expect(try day("1. März 2026", "d. MMM yyyy") == (try Day(year: 2026, month: 3, day: 1)))
        #expect(try day("1 mrt 2026", "d MMM yyyy") == (try Day(year: 2026, month: 3, day: 1)))
        #expect(try day("7 juil. 2026", "d MMM yyyy") == (try Day(year: 2026, month: 7, day: 7)))
        #expect(try day("7 juin 2026", "d MMM yyyy") == (try Day(year: 2026, month: 6, day: 7)))
        #expect(try day("09-dic-2026", "dd-MMM-yyyy") == (try Day(year: 2026, month: 12, day: 9)))
        #expect(try day("31.out.2026", "dd.MMM.yyyy") == (try Day(year: 2026, month: 10, day: 31)))
        #expect(throws: DayError.malformed) { try day("12 Spt 2025", "dd MMM yyyy") }
        #expect(throws: DayError.malformed) { try day("12 Marzipan 2025", "dd MMM yyyy") }
        #expect(throws: DayError.invalid) { try day("30 Feb 2026", "dd MMM yyyy") }
        // Every name reads as its own month and no other.
        for (month, names) in MonthNames.names.enumerated() {
            for name in names {
                #expect(try day("01 \(name) 2026", "dd MMM yyyy").month == month + 1, "\(name)")
            }
        }
    }

    @Test func `sniffs dates with month names, with times, and their layouts`() throws {
        func layout(_ dates: [String]) -> String? {
            let text =
                "IBAN: DE89 3704 0044 0532 0130 00\nDate;Text;Amount\n"
                + dates.map { "\($0);X;-1,50\n" }.joined()
            guard case .dialect(let dialect, _) = DialectSniffer.sniff(Array(text.utf8)) else {
                return nil
            }
            return dialect.dateFormat.pattern
        }
        #expect(layout(["12 Sep 2025", "3 Okt 2025"]) == "d MMM yyyy")
        #expect(layout(["04 févr. 2026", "1 mars 2026"]) == "d MMM yyyy")
        #expect(layout(["3-Okt-26", "14-Nov-26"]) == "d-MMM-yy")
        #expect(layout(["Sep 12, 2025", "Oct 3, 2025"]) == "MMM d, yyyy")
        #expect(
            layout(["2026-10-03T14:22:05Z", "2026-10-04T09:00:00Z"]) == "yyyy-MM-dd'T'H:mm:ssX")
        #expect(layout(["10/03/2026 14:22", "10/13/2026 09:00"]) == "MM/dd/yyyy H:mm")
        #expect(layout(["10/03/2026 2:22 PM", "10/13/2026 9:00 AM"]) == "MM/dd/yyyy h:mm a")
        #expect(layout(["2026-10-03 14:22:05.123+02:00"]) == "yyyy-MM-dd H:mm:ss.SX")
        #expect(layout(["12 Spt 2025"]) == nil)
    }

    @Test func `reads dates with a time, a zone, literals or an annotation`() throws {
        let october3 = try Day(year: 2026, month: 10, day: 3)
        #expect(try day("2026-10-03T14:22:05Z", "yyyy-MM-dd'T'HH:mm:ssX") == october3)
        #expect(try day("2026-10-03T23:22:05-05:00", "yyyy-MM-dd'T'HH:mm:ssX") == october3)
        #expect(try day("2026-10-03 14:22:05.123+0200", "yyyy-MM-dd HH:mm:ss.SX") == october3)
        #expect(try day("10/03/2026 14:22", "MM/dd/yyyy HH:mm") == october3)
        #expect(try day("10/03/2026 2:22 PM", "MM/dd/yyyy h:mm a") == october3)
        #expect(try day("10/03/2026 as of 10/01/2026", "MM/dd/yyyy*") == october3)
        #expect(try day("10/03/2026", "MM/dd/yyyy*") == october3)
        #expect(try day("Oct 3, 2026 'closing'", "MMM d, yyyy ''*") == october3)
        #expect(try day("le 03/10/2026", "'le' dd/MM/yyyy") == october3)
        #expect(throws: DayError.invalid) { try day("10/03/2026 24:00", "MM/dd/yyyy HH:mm") }
        #expect(throws: DayError.invalid) { try day("10/03/2026 13:00 PM", "MM/dd/yyyy hh:mm a") }
        #expect(throws: DayError.malformed) { try day("10/03/2026", "MM/dd/yyyy HH:mm") }
        #expect(throws: DayError.malformed) {
            try day("2026-10-03T14:22:05", "yyyy-MM-dd'T'HH:mm:ssX")
        }
    }

    func amount(
        _ text: String, _ decimal: Character, _ thousands: Character?, _ currency: Currency = .eur
    )
        throws(AmountError) -> Int64
    {
        let format = AmountFormat(
            decimalMark: decimal.asciiValue!, thousandsSeparator: thousands?.asciiValue)
        return try format.money(parsing: text.utf8.span, currency: currency).minorUnits
    }

    @Test func `reads amounts with decimal commas and grouped thousands exactly`() throws {
        #expect(try amount("1.234,56", ",", ".") == 123_456)
        #expect(try amount("-1.234.567,8", ",", ".") == -123_456_780)
        #expect(try amount("1.000", ",", ".") == 100_000, "1.000 is a thousand, never one euro")
        #expect(try amount("+12,3", ",", ".") == 1230)
        #expect(try amount(" 7 ", ",", ".") == 700)
        #expect(try amount("1'234.50", ".", "'") == 123_450)
        #expect(try amount("1,234.56", ".", ",") == 123_456)
        #expect(try amount("1\u{A0}234,56", ",", " ") == 123_456)
        #expect(try amount("1\u{202F}234,56", ",", " ") == 123_456)
        #expect(try amount("1 234,56", ",", " ") == 123_456)
        #expect(try amount("12,5", ",", nil) == 1250)
        #expect(throws: AmountError.grouping) { try amount("12.34", ",", ".") }
        #expect(throws: AmountError.grouping) { try amount("1.23.456", ",", ".") }
        #expect(throws: AmountError.grouping) { try amount("1234.567", ",", ".") }
        #expect(throws: AmountError.malformed) { try amount("12.34", ",", nil) }
        #expect(throws: AmountError.malformed) { try amount(",5", ",", ".") }
        #expect(throws: AmountError.malformed) { try amount("12,", ",", ".") }
        #expect(throws: AmountError.malformed) { try amount("12,3,4", ",", ".") }
        #expect(throws: AmountError.tooManyDecimals(allowed: 2)) { try amount("1,234", ",", ".") }
        #expect(throws: AmountError.empty) { try amount("  ", ",", ".") }
        #expect(throws: AmountError.overflow) { try amount("99.999.999.999.999.999,99", ",", ".") }
    }

    @Test func `decodes each encoding to UTF-8 and marks what is not valid in it`() {
        func decode(_ bytes: [UInt8], _ encoding: TextEncoding) -> String {
            String(decoding: encoding.utf8(from: bytes), as: UTF8.self)
        }
        #expect(decode([0x80, 0x20, 0xE4, 0x9F], .windows1252) == "€ äŸ")
        #expect(
            TextEncoding.windows1252.utf8(from: [0x41, 0x81]) == [0x41, TextEncoding.invalidMarker])
        #expect(decode([0xA4, 0xBC], .latin1) == "¤¼")
        #expect(decode([0xA4, 0xBC], .latin9) == "€Œ")
        #expect(decode([0xFF, 0xFE, 0x41, 0x00, 0x3D, 0xD8, 0x00, 0xDE], .utf16LE) == "A😀")
        #expect(decode([0xFE, 0xFF, 0x00, 0x41, 0x00, 0xE4], .utf16BE) == "Aä")
        #expect(
            TextEncoding.utf16LE.utf8(from: [0x41, 0x00, 0x00, 0xD8]) == [
                0x41, TextEncoding.invalidMarker,
            ])
        #expect(
            TextEncoding.utf16LE.utf8(from: [0x41, 0x00, 0x42]) == [
                0x41, TextEncoding.invalidMarker,
            ])
        #expect(TextEncoding.utf8.utf8(from: [0xEF, 0xBB, 0xBF, 0x41]) == [0x41])
    }

    func dialect(_ json: String) throws -> Dialect {
        try Dialect(profile: Array(json.utf8), path: "p.json")
    }

    @Test func `writes a profile that reads back as the same dialect`() throws {
        var german = Dialect()
        german.encoding = .windows1252
        german.separator = UInt8(ascii: ";")
        german.amountFormat = AmountFormat(
            decimalMark: UInt8(ascii: ","), thousandsSeparator: UInt8(ascii: "."))
        german.dateFormat = try DateFormat("dd.MM.yyyy")
        german.headerLine = 3
        german.footerLines = 1
        german.isNewestFirst = true
        german.sign = .indicator
        german.debitIndicators = ["S"]
        german.creditIndicators = ["H"]
        german.columns = [
            .date: [.name("Buchungstag")], .amount: [.number(6)], .indicator: [.name("S/H")],
            .description: [.name("Text"), .name("Zweck \"1\"")],
        ]
        german.preamble = [
            .iban: Dialect.PreamblePosition(line: 1, field: 2),
            .closingBalance: Dialect.PreamblePosition(line: 2, field: 2),
        ]
        german.footer = [.openingBalance: Dialect.PreamblePosition(line: 1, field: 3)]
        german.columns[.status] = [.name("Status")]
        german.notBooked = ["Vorgemerkt", "offen"]
        german.accountName = "Giro"
        german.accountCurrency = .eur
        german.accountCurrencies = [.eur, Currency(code: "USD")!]
        german.accountKind = .savings
        #expect(try dialect(ProfileRenderer().render(german)) == german)
        var accountOnly = Dialect.sniffing(account: try AccountID(parsing: "name:wise"))
        accountOnly.accountCurrencies = [.eur, Currency(code: "GBP")!]
        #expect(
            try dialect(ProfileRenderer().render(accountOnly)).accountCurrencies
                == accountOnly.accountCurrencies)
        #expect(try dialect(#"{"account": {"id": "name:wise"}}"#).sniffsLayout)
        var fixed = Dialect()
        fixed.columns = [.date: [.name("D")], .amount: [.name("A")], .beneficiary: [.name("B")]]
        fixed.accountID = AccountID(try IBAN(parsing: "GB29NWBK60161331926819"))
        fixed.amountFormat = AmountFormat(decimalMark: UInt8(ascii: "."), thousandsSeparator: nil)
        #expect(try dialect(ProfileRenderer().render(fixed)) == fixed)
        #expect(try dialect("{}") == Dialect())
    }

    func parse(_ text: String, _ dialect: Dialect) -> ParseResult {
        parseCSV(Array(text.utf8), dialect: dialect)
    }

    static let girokonto = """
        {"separator": ";", "decimalMark": ",", "thousandsSeparator": ".",
         "dateFormat": "dd.MM.yyyy", "headerLine": 3, "footerLines": 1, "sign": "debit-credit",
         "columns": {"date": "Tag", "debit": "Soll", "credit": "Haben",
                     "beneficiary": "Name", "description": ["Text", "Zweck"]},
         "account": {"currency": "EUR"}, "preamble": {"iban": {"line": 1, "field": 2}, "name": {"line": 2, "field": 1}}}
        """

    @Test func `reads debit and credit columns, a preamble, joined text and a footer`() throws {
        let result = parse(
            """
            Konto:;IBAN: DE89 3704 0044 0532 0130 00
            Girokonto
            Tag;Name;Text;Zweck;Soll;Haben
            01.10.2026;Kiosk;Lastschrift;Zeitung;1.000,00;
            02.10.2026;;Gutschrift;Zinsen;;0,50
            03.10.2026;Nachbar;;;0,00;12,00
            Kontostand;;;;;-987,50

            """, try dialect(Self.girokonto))
        #expect(result.diagnostics == [])
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [-100_000, 50, 1200])
        #expect(
            result.rows.map(\.transaction.beneficiary) == ["Kiosk", "Gutschrift Zinsen", "Nachbar"])
        #expect(
            result.rows.map(\.transaction.description) == [
                "Lastschrift Zeitung", "Gutschrift Zinsen", nil,
            ])
        #expect(result.rows.first?.account.id.text == "DE89370400440532013000")
        #expect(result.rows.first?.account.name == "Girokonto")
        #expect(result.rows.first?.line == 4)
    }

    @Test func `reports sign, preamble and encoding problems where they are`() throws {
        let girokonto = try dialect(Self.girokonto)
        let signs = parse(
            "Konto:;DE89370400440532013000\nGiro\nTag;Name;Text;Zweck;Soll;Haben\n01.10.2026;A;;;1,00;2,00\n02.10.2026;B;;;;\n03.10.2026;C;;;12.34;\nfooter\n",
            girokonto)
        #expect(signs.places == ["4:21 AMOUNT_SIGN", "5:16 FIELD_EMPTY", "6:16 AMOUNT_FORMAT"])
        #expect(signs.diagnostics[2].message.contains("thousands separators"))
        let checksum = parse(
            "Konto:;DE89370400440532013001\nGiro\nTag;Name;Text;Zweck;Soll;Haben\n01.10.2026;A;;;1,00;\nx\n",
            girokonto)
        #expect(checksum.places == ["1:8 IBAN_CHECKSUM"])
        #expect(checksum.rows.isEmpty)
        let missing = parse(
            "Konto:\n\nTag;Name;Text;Zweck;Soll;Haben\n01.10.2026;A;;;1,00;\nx\n", girokonto)
        #expect(missing.places == ["1:1 FIELD_EMPTY", "2:1 FIELD_EMPTY"])
        let header = parse(
            "Konto:;DE89370400440532013000\nGiro\nTag;Name;Soll\nfooter\n", girokonto)
        #expect(header.places == ["3:1 COLUMN_MISSING"])
        #expect(header.diagnostics.first?.message.contains(#""Haben", "Text", "Zweck""#) == true)

        var indicator = try dialect(
            #"{"sign": "indicator", "indicator": {"debit": ["D"], "credit": ["C"]}, "account": {"iban": "DE89370400440532013000"}, "columns": {"date": "date", "amount": "amount", "indicator": "dc", "beneficiary": "name"}}"#
        )
        let indicated = parse(
            "date,amount,dc,name\n2026-10-01,5.00, d ,A\n2026-10-02,-6.00,C,B\n2026-10-03,1.00,X,C\n",
            indicator)
        // A negative amount marked as a credit contradicts itself: refused, not read as +6.00.
        #expect(indicated.rows.map(\.transaction.amount.minorUnits) == [-500])
        #expect(indicated.places == ["3:12 AMOUNT_SIGN", "4:17 AMOUNT_SIGN"])

        indicator.encoding = .windows1252
        let bytes =
            Array("date,amount,dc,name\n2026-10-01,5.00,D,Caf".utf8) + [0x81] + Array("\n".utf8)
        #expect(parseCSV(bytes, dialect: indicator).places == ["2:22 ENCODING_INVALID"])
    }

    @Test func `checks running balances of statements listed newest first`() throws {
        let profile = try dialect(
            #"{"rowOrder": "newest-first", "account": {"iban": "DE89370400440532013000"}, "columns": {"date": "d", "amount": "a", "balance": "b", "beneficiary": "n"}}"#
        )
        let good = parse(
            "d,a,b,n\n2026-10-03,-5.00,95.00,A\n2026-10-02,50.00,100.00,B\n2026-10-01,-10.00,50.00,C\n",
            profile)
        #expect(good.diagnostics == [])
        #expect(good.summary.openingBalances.values.first?.minorUnits == 6000)
        let bad = parse("d,a,b,n\n2026-10-03,-5.00,95.00,A\n2026-10-02,50.00,90.00,B\n", profile)
        #expect(bad.places == ["3:18 BALANCE_RUNNING"])
    }

    func sniff(_ text: String) -> (Dialect?, [String], String?) {
        switch DialectSniffer.sniff(Array(text.utf8)) {
        case .dialect(let dialect, let assumptions): (dialect, assumptions.map(\.message.text), nil)
        case .unknown(let finding), .lacksAccount(_, _, let finding), .open(_, _, let finding),
            .notStatement(let finding):
            (nil, [], "\(finding.line):\(finding.column) \(finding.message.text)")
        case .noHeader: (nil, [], "no header")
        }
    }

    @Test func `sniffs separator, header line, columns, marks, dates, sign, footer and account`()
        throws
    {
        let (found, assumptions, failure) = sniff(
            """
            "Kontonummer:";"DE89 3704 0044 0532 0130 00"
            "Zeitraum:";"01.10.2026 - 31.10.2026"
            "Buchungstag";"Valuta";"Auftraggeber/Empfänger";"Verwendungszweck";"Buchungstext";"Betrag (EUR)"
            "31.10.2026";"31.10.2026";"Kiosk";"Zeitung; Heft";"Lastschrift";"-1.000"
            "13.10.2026";"13.10.2026";"Arbeit";"Lohn";"Gutschrift";"2.500,10"
            "Kontostand";"";"";"";"";"1.500,10"
            "Ende"

            """)
        let dialect = try #require(found, "\(failure ?? "")")
        #expect(assumptions == [])
        #expect(dialect.separator == UInt8(ascii: ";"))
        #expect(dialect.headerLine == 3)
        #expect(dialect.footerLines == 2)
        #expect(dialect.isNewestFirst)
        #expect(dialect.dateFormat.pattern == "dd.MM.yyyy")
        #expect(
            dialect.amountFormat
                == AmountFormat(
                    decimalMark: UInt8(ascii: ","), thousandsSeparator: UInt8(ascii: ".")))
        #expect(
            dialect.columns[.description] == [.name("Verwendungszweck"), .name("Buchungstext")])
        #expect(dialect.columns[.amount] == [.name("Betrag (EUR)")])
        #expect(dialect.accountCurrency == .eur)
        #expect(dialect.preamble[.iban] == Dialect.PreamblePosition(line: 1, field: 2))
        #expect(dialect.sign == .signed)

        let (pipe, _, _) = sniff(
            "Date|Account|Name|Debit|Credit|Ccy\n2026-10-01|DE89370400440532013000|A|1.50||EUR\n")
        #expect(pipe?.separator == UInt8(ascii: "|"))
        #expect(pipe?.sign == .debitCredit)
        let (tab, _, _) = sniff(
            "Date\tAccount\tName\tAmount\tD/C\tCcy\n2026-10-01\tDE89370400440532013000\tA\t1.50\tDBIT\tEUR\n"
        )
        #expect(tab?.sign == .indicator)
        #expect(tab?.debitIndicators == ["DBIT"])
        let (_, _, unknownIndicator) = sniff(
            "Date\tAccount\tName\tAmount\tD/C\n2026-10-01\tDE89370400440532013000\tA\t1.50\tX\n")
        #expect(unknownIndicator?.contains(#"the indicator column holds "X""#) == true)
        let (swiss, _, _) = sniff(
            "Datum;Konto;Avisierungstext;Betrag;Währung\n01.10.2026;CH9300762011623852957;A;1'234;CHF\n"
        )
        #expect(swiss?.amountFormat.thousandsSeparator == UInt8(ascii: "'"))
        #expect(swiss?.amountFormat.decimalMark == UInt8(ascii: "."))
        let groups: [(amount: String, thousands: Unicode.Scalar)] = [
            ("1\u{A0}234,56", " "), ("1\u{202F}234,56", " "), ("-1.234,56€", "."),
            ("-1.234,56£", "."),
        ]
        for (amount, thousands) in groups {
            let (grouped, _, failure) = sniff(
                "Datum;Konto;Name;Betrag\n01.10.2026;DE89370400440532013000;A;\(amount)\n")
            #expect(
                grouped?.amountFormat.thousandsSeparator == UInt8(ascii: thousands),
                "\(amount): \(failure ?? "")")
        }
    }

    @Test func `says what it assumed and refuses contradictions`() {
        switch DialectSniffer.sniff(
            Array("Datum;Konto;Name;Betrag;W".utf8) + [0xE4]
                + Array("hrung\n01.10.2026;DE89370400440532013000;A;1,50;EUR\n".utf8))
        {
        case .dialect(let dialect, let assumptions):
            #expect(dialect.encoding == .windows1252)
            #expect(assumptions.map { "\($0.line):\($0.column)" } == ["1:26"])
        default:
            Issue.record("a Windows-1252 file is read with a warning")
        }
        let (_, dotted, _) = sniff(
            "Datum;Konto;Name;Betrag;Währung\n01.10.2026;DE89370400440532013000;A;1,50;EUR\n")
        #expect(dotted == [], "dotted dates are day-first without doubt")
        let (_, _, mixed) = sniff(
            "Datum;Konto;Name;Betrag;Währung\n01.10.2026;DE89370400440532013000;A;1,50;EUR\n02.10.2026;DE89370400440532013000;A;1.50;EUR\n"
        )
        #expect(mixed?.hasPrefix("3:") == true)
        #expect(mixed?.contains("decimal commas") == true)
        let (_, _, noAccount) = sniff("Date,Payee,Amount\n2026-10-01,A,1.50\n")
        #expect(noAccount?.contains("the file does not name its account") == true)
        let (_, _, none) = sniff("a,b,c\n2026-10-01,x,1.50\n1.50,2026-10-02,y\n")
        #expect(none == "no header")
        let (_, _, recognised) = sniff("x,y,z\n2026-10-01,1.50,3\n")
        #expect(
            recognised
                == "1:1 no header names the columns; recognised dates in \"x\", amounts in \"y\", but not a column of text (a payee or description); write a profile for it (see statements profile)"
        )
        let (_, _, other) = sniff("a,b\n1,2\n")
        #expect(
            other
                == "1:1 the file is not a bank statement: no row of it has a date beside an amount")
    }
}

/// What #17 lets profiles read: currency marks, card signs, trailing separators, named accounts.
struct BankExportTests {
    static func profile(_ json: String) throws -> Dialect {
        try Dialect(profile: Array(json.utf8), path: "p.json")
    }

    static let usd = #"{"dateFormat": "MM/dd/yyyy", "thousandsSeparator": ",", "#

    @Test func `reads amounts with currency symbols, codes and parentheses`() throws {
        let dialect = try Self.profile(
            Self.usd
                + #""columns": {"date": "D", "description": "T", "amount": "A"}, "account": {"id": "name:x", "currency": "usd"}}"#
        )
        let result = parseCSV(
            Array(
                "D,T,A\n10/01/2026,a,\"$1,234.56\"\n10/02/2026,b,-$12.00\n10/03/2026,c,($7.50)\n10/04/2026,d,3.00 USD\n10/05/2026,e,usd 1.00,\n"
                    .utf8), dialect: dialect)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(
            result.rows.map(\.transaction.amount.minorUnits) == [123_456, -1200, -750, 300, 100])
        let wrong = parseCSV(
            Array(
                "D,T,A\n10/01/2026,a,€12.00\n10/02/2026,b,12.00 EUR\n10/03/2026,c,(-3.00)\n".utf8),
            dialect: dialect)
        #expect(
            wrong.places == [
                "2:14 CURRENCY_CONFLICT", "3:14 CURRENCY_CONFLICT", "4:14 AMOUNT_FORMAT",
            ])
        #expect(wrong.rows.isEmpty)
    }

    @Test func `reads currency marks with a profile that keeps the canonical amount layout`()
        throws
    {
        let dialect = try Self.profile(
            #"{"columns": {"date": "D", "description": "T", "amount": "A"}, "account": {"id": "name:x", "currency": "USD"}}"#
        )
        let result = parseCSV(
            Array("D,T,A\n2026-10-01,a,$ 3.00\n2026-10-02,b,3.00$\n2026-10-03,c,EUR 3.00\n".utf8),
            dialect: dialect)
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [300, 300])
        #expect(result.places == ["4:14 CURRENCY_CONFLICT"])
        let canonical = parseCSV(
            "date,account_iban,amount,beneficiary\n2026-10-01,DE89370400440532013000,$3.00,a\n")
        #expect(canonical.codes == [.amountFormat])
    }

    @Test func `negates a card export whose charges are positive, balances too`() throws {
        let dialect = try Self.profile(
            Self.usd
                + #""sign": "charges-positive", "columns": {"date": "D", "description": "T", "amount": "A", "balance": "B"}, "account": {"id": "card:amex/1004", "currency": "USD", "kind": "credit-card"}}"#
        )
        let result = parseCSV(
            Array("D,T,A,B\n10/01/2026,a,10.00,10.00\n10/02/2026,pay,-4.00,6.00\n".utf8),
            dialect: dialect)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [-1000, 400])
        #expect(result.rows.first?.account.kind == .creditCard)
        let broken = parseCSV(
            Array("D,T,A,B\n10/01/2026,a,10.00,10.00\n10/02/2026,pay,-4.00,14.00\n".utf8),
            dialect: dialect)
        #expect(broken.places == ["3:22 BALANCE_RUNNING"])
    }

    @Test func `maps the accounts a column names, refusing one it does not know`() throws {
        let dialect = try Self.profile(
            Self.usd
                + #""columns": {"date": "D", "description": "T", "amount": "A", "account_iban": "Acct"}, "accounts": {"Checking": "aba:021000021/1", "Savings": "name:savings"}, "account": {"currency": "USD"}}"#
        )
        let result = parseCSV(
            Array(
                "D,T,A,Acct\n10/01/2026,a,1.00,Checking\n10/02/2026,b,2.00, savings\n10/03/2026,c,3.00,Brokerage\n"
                    .utf8),
            dialect: dialect)
        #expect(result.rows.map(\.account.id.text) == ["aba:021000021/1", "name:savings"])
        #expect(result.places == ["4:19 ACCOUNT_ID"])
        #expect(
            result.diagnostics.last?.message.contains(#"not among the profile's accounts"#) == true)
        #expect(try Self.profile(ProfileRenderer().render(dialect)) == dialect)
    }

    @Test func `refuses a profile whose accounts have no column to name them`() {
        #expect(throws: ProfileError.self) {
            try Self.profile(
                #"{"columns": {"date": "D", "description": "T", "amount": "A"}, "accounts": {"A": "name:a"}}"#
            )
        }
    }
}
