import Foundation
import Testing

@testable import StatementKit

/// Unit tests of the MT940 / MT942 reader.
struct MT940ParserTests {
    struct Result {
        var rows: [ParsedRow] = []
        var summary = ParseSummary()
        var diagnostics: [Diagnostic] = []

        var lines: [String] { diagnostics.map(\.textLine) }
    }

    func parse(_ text: String) -> Result {
        parse(Array(text.utf8))
    }

    func parse(_ bytes: [UInt8]) -> Result {
        var result = Result()
        var collector = DiagnosticCollector(file: "s.sta")
        result.summary = MT940Parser().parse(MemoryByteSource(bytes), diagnostics: &collector) {
            result.rows.append($0)
        }
        result.diagnostics = collector.diagnostics
        return result
    }

    static let statement = """
        :20:STARTUMSE
        :25:DE89370400440532013000
        :28C:00001/001
        :60F:C261001EUR1000,00
        :61:2610031003DR12,50NMSCNONREF//PT-1
        /OCMT/EUR12,50/
        :86:106?00KARTENZAHLUNG?20SVWZ+Cafe Mueller?32CAFE MUELLER
        :61:2610131013CR2500,NTRFLOHN-10//PT-2
        :86:Lohn Oktober
        :62F:C261031EUR3487,50
        -

        """

    @Test func `reads entries, their details and balances`() throws {
        let result = parse(Self.statement)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.count == 2)
        let first = try #require(result.rows.first)
        #expect(first.account.id.text == "DE89370400440532013000")
        #expect(first.account.currency == .eur)
        #expect(first.transaction.date == (try Day(year: 2026, month: 10, day: 3)))
        #expect(first.transaction.amount.minorUnits == -1250)
        #expect(first.transaction.beneficiary == "CAFE MUELLER")
        #expect(first.transaction.description == "Cafe Mueller")
        #expect(first.transaction.transactionID == "PT-1")
        #expect(first.line == 5)
        let second = result.rows[1].transaction
        #expect(second.amount.minorUnits == 250_000)
        #expect(second.beneficiary == "Lohn Oktober")
        #expect(second.reference == "LOHN-10")
        #expect(result.summary.openingBalances.values.first?.minorUnits == 100_000)
    }

    @Test func `reads each field's lines afresh after a longer field`() throws {
        let text = Self.statement
            .replacingOccurrences(
                of: ":86:106?00KARTENZAHLUNG?20SVWZ+Cafe Mueller?32CAFE MUELLER",
                with: ":86:Erste Zeile\nzweite Zeile\ndritte Zeile\nvierte Zeile"
            )
            .replacingOccurrences(of: ":86:Lohn Oktober", with: ":86:Lohn")
        let result = parse(text)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(
            result.rows.map(\.transaction.description) == [
                "Erste Zeile zweite Zeile dritte Zeile vierte Zeile", "Lohn",
            ])
        #expect(result.rows.map(\.transaction.transactionID) == ["PT-1", "PT-2"])
    }

    @Test func `reads the envelope, CRLF, several statements and Windows-1252 text`() throws {
        var bytes = Array(
            "{1:F01COBADEFFAXXX0000000000}{2:O940}{4:\r\n".utf8)
        bytes += Array(Self.statement.replacingOccurrences(of: "\n-\n", with: "\n-}\r\n").utf8)
        bytes +=
            Array(
                "{1:F01}{4:\r\n:20:B\r\n:25:NL91ABNA0417164300 EUR\r\n:60F:C261001EUR0,\r\n:61:261002D1,NMSCNONREF\r\n:86:Caf"
                    .utf8) + [0xE9]
            + Array("\r\n:62F:D261031EUR1,00\r\n-}{5:{CHK:123}}\r\n".utf8)
        let result = parse(bytes)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.count == 3)
        let last = try #require(result.rows.last)
        #expect(last.account.id.text == "NL91ABNA0417164300")
        #expect(last.transaction.beneficiary == "Café")
        #expect(last.transaction.amount.minorUnits == -100)
    }

    @Test func `reads the Dutch structured information`() throws {
        let result = parse(
            """
            :20:940S
            :25:NL91ABNA0417164300
            :60F:C261001EUR500,00
            :61:261002D45,00NDDTEREF123//10001234
            :86:/TRTP/SEPA Incasso/CSID/NL98ZZZ999999999999/NAME/E
            NERGIE BV/MARF/M123/REMI/Energie oktober/IBAN/NL18RABO0123459876/BIC/RABONL2U/EREF/E1
            :61:261015C1200,00NTRFNONREF//10005678
            :86:/CNTP/NL18RABO0123459876/RABONL2U/J JANSEN/UTRECHT/REMI/USTD//Huur oktober/
            :62F:C261031EUR1655,00
            -
            """)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        let (debit, credit) = (result.rows[0].transaction, result.rows[1].transaction)
        #expect(debit.beneficiary == "ENERGIE BV")
        #expect(debit.description == "Energie oktober")
        #expect(debit.beneficiaryIBAN?.electronic == "NL18RABO0123459876")
        #expect(debit.reference == "E1")
        #expect(credit.beneficiary == "J JANSEN")
        #expect(credit.description == "Huur oktober")
        #expect(credit.beneficiaryIBAN?.electronic == "NL18RABO0123459876")
    }

    @Test func `reads reversals, entry dates across the year and a bank code account`() throws {
        let result = parse(
            """
            :20:X
            :25:76050101/123456789
            :60F:D261201EUR100,00
            :61:2612310102RD10,00NDDTNONREF//R1
            :61:2612301230RC5,00NTRFNONREF//R2
            :61:2701021231C1,00NTRFNONREF//R3
            :62F:D261231EUR94,00
            -
            """)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.map(\.transaction.amount.minorUnits) == [1000, -500, 100])
        #expect(
            result.rows.map(\.transaction.date.description) == [
                "2027-01-02", "2026-12-30", "2026-12-31",
            ])
        #expect(result.rows[0].account.id.text == "name:76050101-123456789")
    }

    @Test func `reports what does not parse, where it is`() {
        let result = parse(
            """
            :20:X
            :25:DE89370400440532013000
            :60F:C261001EUR10,00
            :61:2613031003DR1,00NMSC
            :6l:foo
            :61:261003D1,001NMSC
            :61:261003C1,00
            :62F:C2610EUR9,00
            -
            """)
        #expect(
            result.lines == [
                "s.sta:4:5: error: [MT940_SYNTAX] :61: the value date (YYMMDD) is missing or not a day in \"2613031003DR1,00NMSC\"",
                "s.sta:5:1: error: [MT940_SYNTAX] \":6l:foo\" is not a field tag such as :61:",
                "s.sta:6:12: error: [AMOUNT_PRECISION] :61: amount \"1,001\": EUR has 2 decimal places",
                "s.sta:7:16: error: [MT940_SYNTAX] :61: the transaction type (such as NTRF) is missing in \"261003C1,00\"",
                "s.sta:8:7: error: [MT940_SYNTAX] :62F: \"2610EU\" is not a date YYMMDD",
            ])
        #expect(result.rows.count == 0)
        #expect(result.summary.rowCount == 3)
    }

    /// The statement with its first entry's amount and type (`D12,50NMSC`) replaced.
    func entry(_ amountAndType: String) -> Result {
        parse(
            Self.statement.replacingOccurrences(
                of: ":61:2610031003DR12,50NMSC", with: ":61:2610031003D\(amountAndType)"))
    }

    @Test(arguments: [
        ("12.50NMSC", "5:16", "AMOUNT_FORMAT", "12.50"),
        ("12,5.0NMSC", "5:16", "AMOUNT_FORMAT", "12,5.0"),
        ("-12,50NMSC", "5:16", "AMOUNT_FORMAT", "-12,50"),
        ("+12,50NMSC", "5:16", "AMOUNT_FORMAT", "+12,50"),
        ("12,50 NMSC", "5:16", "AMOUNT_FORMAT", "12,50 "),
        ("1250NMSC", "5:16", "AMOUNT_FORMAT", "1250"),
        ("12,,50NMSC", "5:16", "AMOUNT_FORMAT", "12,,50"),
        (",50NMSC", "5:16", "AMOUNT_FORMAT", ",50"),
        ("1234567890123,45NMSC", "5:16", "AMOUNT_FORMAT", "1234567890123,45"),
        ("12,505NMSC", "5:16", "AMOUNT_PRECISION", "12,505"),
        ("12,50XMSC", "5:21", "MT940_TYPE_CODE", "XMSC"),
        ("12,50Nmsc", "5:21", "MT940_TYPE_CODE", "Nmsc"),
        ("12,50NM-C", "5:21", "MT940_TYPE_CODE", "NM-C"),
        ("1O,50NMSC", "5:16", "AMOUNT_FORMAT", "1"),
    ])
    func `refuses a :61: amount or type code outside SWIFT's characters, where it stands`(
        text: String, place: String, code: String, quoted: String
    ) {
        let result = entry(text)
        #expect(result.diagnostics.map(\.code.rawValue) == [code], "\(result.lines)")
        #expect(result.lines.first?.hasPrefix("s.sta:\(place): error: [\(code)]") == true)
        #expect(result.lines.first?.contains("\"\(quoted)\"") == true, "\(result.lines)")
    }

    @Test(
        arguments: [
            ("12,50NMSC", -1250), ("12,5NMSC", -1250), ("12,NMSC", -1200), ("0,01FCHK", -1),
            ("12,50S103", -1250), ("12345678901234,NTRF", -1_234_567_890_123_400),
        ] as [(String, Int64)])
    func `reads a :61: amount and type code as SWIFT writes them`(text: String, minorUnits: Int64)
        throws
    {
        let result = entry(text)
        let first = try #require(result.rows.first)
        #expect(first.transaction.amount.minorUnits == minorUnits)
        // The closing balance no longer matches unless the amount is the sample's.
        let codes = result.diagnostics.map(\.code)
        #expect(codes == (minorUnits == -1250 ? [] : [.balanceClosing]), "\(result.lines)")
    }

    @Test(arguments: [
        "1000.00", "1.000,00", "-1000,00", "+1000,00", "1000", "1000,00X", "1000,00 0",
    ])
    func `refuses a balance amount outside SWIFT's 15d form`(amount: String) {
        let result = parse(
            Self.statement.replacingOccurrences(
                of: ":60F:C261001EUR1000,00", with: ":60F:C261001EUR\(amount)"))
        #expect(result.rows.isEmpty)
        #expect(
            result.lines.first?.hasPrefix("s.sta:4:16: error: [AMOUNT_FORMAT] :60F: amount")
                == true,
            "\(result.lines)")
    }

    @Test func `refuses a second opening or closing balance in one statement`() {
        for (tag, balance, line) in [
            (":60F:", ":60F:C261001EUR1000,00", 5), (":62F:", ":62F:C261031EUR3487,50", 11),
            (":60M:", ":60M:C261001EUR1000,00", 5), (":62M:", ":62M:C261031EUR3487,50", 11),
        ] {
            let anchor =
                tag.hasPrefix(":60") ? ":60F:C261001EUR1000,00\n" : ":62F:C261031EUR3487,50\n"
            let result = parse(
                Self.statement.replacingOccurrences(of: anchor, with: anchor + balance + "\n"))
            #expect(
                result.lines.first?.hasPrefix("s.sta:\(line):1: error: [MT940_SYNTAX] \(tag)")
                    == true,
                "\(tag): \(result.lines)")
        }
    }

    @Test func `refuses a second account in one statement`() {
        let result = parse(
            Self.statement.replacingOccurrences(
                of: ":61:2610131013", with: ":25:NL91ABNA0417164300\n:61:2610131013"))
        #expect(
            result.lines == [
                "s.sta:8:1: error: [MT940_SYNTAX] :25: a second account in the statement of line 1"
            ])
    }

    @Test func `reconciles each statement and the statements of an account with each other`() {
        let result = parse(
            """
            :20:A
            :25:DE89370400440532013000
            :60F:C261001EUR10,00
            :61:261002D1,00NMSCNONREF//A1
            :62M:C261002EUR8,00
            -
            :20:B
            :25:DE89370400440532013000
            :60M:C261002EUR9,00
            :61:261003C1,00NMSCNONREF//A2
            :62F:C261003EUR10,00
            -
            """)
        #expect(
            result.lines == [
                "s.sta:5:1: error: [BALANCE_CLOSING] closing balance 8.00 differs from opening balance plus transactions, 9.00",
                "s.sta:9:1: error: [BALANCE_RUNNING] opening balance 9.00 differs from the closing balance of the account's statement before, 8.00",
            ])
    }

    @Test func `reports lines and fields too long to keep`() {
        let long = parse(
            ":20:X\n:25:DE89370400440532013000\n:60F:C261001EUR1,00\n:86:"
                + String(repeating: "x", count: 3_000_000) + "\n:62F:C261001EUR1,00\n-\n")
        #expect(
            long.lines == [
                "s.sta:4:1: error: [MT940_SYNTAX] a line longer than 1048576 bytes; the rest is not read"
            ])
    }

    @Test func `leaves out an MT942's intraday entries, counted`() {
        let result = parse(
            """
            :20:MT942
            :25:DE89370400440532013000
            :34F:EUR0,
            :13D:2610031200+0100
            :61:261003D1,00NMSCNONREF//I1
            :86:Kaffee
            :90D:1EUR1,00
            -
            """)
        #expect(result.diagnostics.isEmpty, "\(result.lines)")
        #expect(result.rows.isEmpty)
        #expect(result.summary.notBookedCount == 1)
    }

    @Test func `finds a bank reference given to two bookings`() {
        let result = parse(
            """
            :20:A
            :25:DE89370400440532013000
            :60F:C261001EUR10,00
            :61:261002D1,00NMSCNONREF//SAME
            :61:261003D2,00NMSCNONREF//SAME
            :62F:C261003EUR7,00
            -
            """)
        #expect(result.diagnostics.map(\.code) == [.transactionIDConflict])
    }

    @Test func `refuses a mistyped IBAN rather than take it for another account number`() {
        for (account, code) in [
            ("NL50RABO0123456789 EUR", DiagnosticCode.ibanChecksum),
            ("DE89370400440532013001", .ibanChecksum), ("NL91ABNA04171643X0", .ibanStructure),
        ] {
            let result = parse(
                Self.statement.replacingOccurrences(
                    of: ":25:DE89370400440532013000", with: ":25:\(account)"))
            #expect(result.rows.isEmpty, "\(account)")
            #expect(result.diagnostics.map(\.code) == [code], "\(account): \(result.lines)")
            #expect(result.diagnostics.first?.line == 2)
        }
        // A bank code and account number, and an IBAN with its currency, are accounts.
        for (account, id) in [
            ("37040044/0532013000", "name:37040044-0532013000"),
            ("NL91ABNA0417164300 EUR", "NL91ABNA0417164300"),
        ] {
            let result = parse(
                Self.statement.replacingOccurrences(
                    of: ":25:DE89370400440532013000", with: ":25:\(account)"))
            #expect(result.diagnostics.isEmpty, "\(account): \(result.lines)")
            #expect(result.rows.first?.account.id.text == id)
        }
    }

    @Test func `names every packed tag constant by its own text`() {
        let constants: [(MT940Parser.Tag, String)] = [
            (.statement, "20"), (.account, "25"), (.openingFinal, "60F"),
            (.openingInterim, "60M"), (.closingFinal, "62F"), (.closingInterim, "62M"),
            (.entry, "61"), (.information, "86"), (.floorLimit, "34F"), (.dateTime, "13D"),
            (.debitCount, "90D"), (.creditCount, "90C"),
        ]
        for (tag, text) in constants {
            #expect(tag == MT940Parser.Tag(Array(text.utf8).span))
            #expect(tag.description == text)
            #expect(tag.count == text.utf8.count)
        }
        #expect(MT940Parser.Tag(Array("28C".utf8).span).description == "28C")
        #expect(MT940Parser.Tag(Array("28C".utf8).span) != .closingFinal)
    }

    @Test func `reads the same rows whether or not NONREF is written in capitals`() throws {
        let lower = parse(
            Self.statement.replacingOccurrences(of: "NONREF//PT-1", with: "nonRef//PT-1"))
        let upper = parse(Self.statement)
        #expect(lower.diagnostics.isEmpty)
        #expect(lower.rows.map(\.transaction) == upper.rows.map(\.transaction))
        #expect(upper.rows[0].transaction.reference == nil)
        #expect(upper.rows[1].transaction.reference == "LOHN-10")
        // A reference of six letters that is not NONREF is kept.
        let other = parse(
            Self.statement.replacingOccurrences(of: "NONREF//PT-1", with: "NONREX//PT-1"))
        #expect(other.rows[0].transaction.reference == "NONREX")
    }

    @Test func `detects MT940 by content, whatever the name`() {
        for head in [
            ":20:STARTUMSE\n", "{1:F01BANK}{2:O940}{4:\n:20:X\n",
            "ABNANL2A\r\n940\r\nABNANL2A\r\n:20:ABN\r\n",
        ] {
            #expect(StatementFormat(path: "x.txt", head: Array(head.utf8)) == .mt940, "\(head)")
        }
        #expect(StatementFormat(path: "x.csv", head: Array("date,amount\n".utf8)) == .csv)
        #expect(StatementFormat(path: "x", head: Array("{\"account\": 1}".utf8)) == .json)
    }
}
