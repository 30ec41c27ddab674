import Foundation
import Testing

@testable import StatementKit

struct StatementCSVParserTests {
    static let header = "date,account_iban,amount,currency,beneficiary,description,reference\n"

    @Test func `reads rows into transactions with their account`() throws {
        let result = parseCSV(
            Self.header + """
                2026-10-03,de89 3704 0044 0532 0130 00,-12.34,EUR,"Müller, GmbH","two
                lines",TX-1
                2026-10-04,DE89370400440532013000,5,EUR,Kiosk,,

                """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.summary.rowCount == 2)
        let first = try #require(result.rows.first)
        #expect(first.account.id.text == "DE89370400440532013000")
        #expect(first.account.currency == .eur)
        #expect(first.transaction.amount.minorUnits == -1234)
        #expect(first.transaction.beneficiary == "Müller, GmbH")
        #expect(first.transaction.description == "two\nlines")
        #expect(first.transaction.reference == "TX-1")
        #expect(result.rows[1].line == 4)
        #expect(result.rows[1].transaction.description == nil)
        #expect(result.rows[1].transaction.reference == nil)
    }

    @Test func `matches columns in any order and case, defaulting the currency to EUR`() {
        let result = parseCSV(
            "Beneficiary,AMOUNT,Account IBAN,Date\nKiosk,1.50,DE89370400440532013000,2026-10-01\n")
        #expect(result.diagnostics.isEmpty)
        #expect(result.rows.first?.transaction.amount == Money(minorUnits: 150, currency: .eur))
    }

    @Test func `reports every problem of a file in one pass with its line and column`() {
        let result = parseCSV(
            Self.header + """
                2026-10-03,DE89370400440532013000,12.345,EUR,Kiosk,,
                2026-02-30,DE89370400440532013001,-1.00,EUR,Kiosk,,
                2026-10-05,DE89370400440532013000,-1.00,XXX,,,

                """)
        #expect(
            result.places == [
                "2:35 AMOUNT_PRECISION", "3:1 DATE_INVALID", "3:12 IBAN_CHECKSUM",
                "4:41 CURRENCY_UNKNOWN",
                "4:45 FIELD_EMPTY",
            ])
        #expect(result.rows.isEmpty)
    }

    @Test func `rejects a row with too many or too few fields, never shifting columns`() {
        let result = parseCSV(
            Self.header + """
                2026-10-03,DE89370400440532013000,-1.00,EUR,Kiosk,Coffee,R1,extra
                2026-10-03,DE89370400440532013000,-1.00,EUR,Kiosk

                """)
        #expect(result.places == ["2:61 CSV_FIELD_COUNT", "3:50 CSV_FIELD_COUNT"])
        #expect(result.diagnostics[1].message == "row has 5 fields, the header has 7")
    }

    @Test func `warns once about unknown columns`() {
        let result = parseCSV(
            "date,account_iban,amount,beneficiary,category,note\n2026-10-01,DE89370400440532013000,1,K,a,b\n"
        )
        #expect(result.codes == [.columnUnknown])
        #expect(result.diagnostics[0].message == "ignoring unknown columns \"category\", \"note\"")
        #expect(result.rows.count == 1)
    }

    @Test func `names only a few of very many unknown columns`() {
        let columns = (0..<100_000).map { "c\($0)" }
        let header = "date,account_iban,amount,beneficiary," + columns.joined(separator: ",")
        let row = "2026-10-01,DE89370400440532013000,1,K" + String(repeating: ",x", count: 100_000)
        let result = parseCSV(header + "\n" + row + "\n")
        #expect(result.codes == [.columnUnknown])
        #expect(
            result.diagnostics[0].message
                == "ignoring unknown columns \"c0\", \"c1\", \"c2\", \"c3\", \"c4\" and 99995 more")
        #expect(result.rows.count == 1)
    }

    @Test func `reads a 30 MB field`() {
        let text =
            "date,account_iban,amount,beneficiary\n2026-10-01,DE89370400440532013000,1,"
            + String(repeating: "K", count: 30_000_000) + "\n"
        let result = parseCSV(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.rows.first?.transaction.beneficiary.utf8.count == 30_000_000)
    }

    @Test func `requires the header's required columns`() {
        let result = parseCSV("date,amount,beneficiary\n2026-10-01,1,K\n")
        #expect(result.codes == [.columnMissing])
        #expect(result.diagnostics[0].message == "the header lacks required column account_iban")
    }

    @Test func `checks a running balance and names the first row where it breaks`() {
        let result = parseCSV(
            """
            date,account_iban,amount,beneficiary,balance
            2026-10-01,DE89370400440532013000,-1.00,K,99.00
            2026-10-02,DE89370400440532013000,-1.00,K,98.00
            2026-10-03,DE89370400440532013000,-1.00,K,96.00
            2026-10-04,DE89370400440532013000,-1.00,K,95.00

            """)
        #expect(result.places == ["4:43 BALANCE_RUNNING"])
    }

    @Test func `keeps separate balance chains per account`() {
        let result = parseCSV(
            """
            date,account_iban,amount,beneficiary,balance
            2026-10-01,DE89370400440532013000,-1.00,K,99.00
            2026-10-01,BE68539007547034,5.00,K,5.00
            2026-10-02,DE89370400440532013000,-1.00,K,98.00
            2026-10-02,BE68539007547034,5.00,K,10.00

            """)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func `refuses a second currency for one account`() {
        let result = parseCSV(
            Self.header + """
                2026-10-03,DE89370400440532013000,-1.00,EUR,Kiosk,,
                2026-10-03,DE89370400440532013000,-1.00,USD,Kiosk,,

                """)
        #expect(result.places == ["3:41 CURRENCY_CONFLICT"])
        #expect(result.rows.count == 1)
    }

    @Test func `reads account name and kind, rejecting unknown kinds`() {
        let result = parseCSV(
            """
            date,account_iban,amount,beneficiary,account_name,account_kind
            2026-10-01,DE89370400440532013000,1,K,Household,Savings
            2026-10-01,BE68539007547034,1,K,Other,current

            """)
        #expect(result.rows.first?.account.name == "Household")
        #expect(result.rows.first?.account.kind == .savings)
        #expect(result.places == ["3:39 ACCOUNT_KIND"])
    }

    @Test func `warns about national check digits, as an error under strict`() {
        let text = Self.header + "2026-10-03,BE41539007547035,-1.00,EUR,Kiosk,,\n"
        #expect(parseCSV(text).diagnostics.map(\.severity) == [.warning])
        #expect(parseCSV(text).rows.count == 1)
        let strict = parseCSV(text, strict: true)
        #expect(strict.diagnostics.map(\.severity) == [.error])
        #expect(strict.rows.isEmpty)
    }

    @Test(arguments: ["", "  ", "\t", "\u{00A0}", "\u{3000}\u{2003}"])
    func `rejects a beneficiary of only white space of any kind`(name: String) {
        let result = parseCSV(
            Self.header + "2026-10-03,DE89370400440532013000,-1.00,EUR,\"\(name)\",,\n")
        #expect(result.codes == [.fieldEmpty])
        #expect(result.rows.isEmpty)
    }

    @Test func `reports an empty file and a header without rows`() {
        #expect(parseCSV("").codes == [.fileEmpty])
        #expect(parseCSV(Self.header).codes == [.fileNoTransactions])
        #expect(parseCSV(Self.header).errorCount == 0)
    }

    @Test func `reports encoding problems at their byte and skips only that row`() {
        let bytes =
            Array((Self.header + "2026-10-03,DE89370400440532013000,-1.00,EUR,M").utf8) + [0xFC]
            + Array("ller,,\n2026-10-03,DE89370400440532013000,-1.00,EUR,Kiosk,,\n".utf8)
        let result = parseCSV(bytes)
        #expect(result.places == ["2:46 ENCODING_INVALID_UTF8"])
        #expect(result.rows.count == 1)
    }

    @Test func `stops at an overlong record`() {
        let text =
            Self.header + "2026-10-03,DE89370400440532013000,-1.00,EUR,"
            + String(repeating: "x", count: 5000) + ",,\n"
        let result = parseCSV(Array(text.utf8), maximumRecordLength: 1024)
        #expect(result.codes == [.csvRecordTooLong])
    }

    @Test func `escapes terminal control sequences echoed from the input`() throws {
        let result = parseCSV(
            Self.header + "2026-10-03,DE89370400440532013000,\u{1B}]0;pwned\u{07},EUR,Kiosk,,\n")
        let message = try #require(result.diagnostics.first?.message)
        #expect(
            message == "amount \"\\u{1B}]0;pwned\\u{7}\": is not a decimal number like -1234.56")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }
}

struct IBANTableTests {
    @Test func `holds what was inserted through growth, and nothing else`() throws {
        let rows = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent()
                .appendingPathComponent("Fixtures/iban-reference.tsv"), encoding: .utf8
        ).split(separator: "\n")
        let ibans = Array(
            Set(
                rows.compactMap { try? IBAN(parsing: String($0.split(separator: "\t")[0])) }.map(
                    AccountID.init)))
        var set = AccountTable<Void>()
        for iban in ibans.prefix(1000) { set.insert(iban) }
        set.insert(ibans[0])
        #expect(set.count == 1000)
        #expect(ibans.prefix(1000).allSatisfy(set.contains))
        #expect(!ibans.dropFirst(1000).contains(where: set.contains))
    }

    @Test func `maps each IBAN to its latest value through growth`() throws {
        let ibans = try ["DE89370400440532013000", "GB82WEST12345698765432", "NL91ABNA0417164300"]
            .map { AccountID(try IBAN(parsing: $0)) }
        var slots = AccountTable<Int>()
        for round in 0..<100 {
            for (index, iban) in ibans.enumerated() { slots.insert(iban, round * 10 + index) }
        }
        #expect(slots.count == 3)
        #expect(ibans.map { slots[$0] } == [990, 991, 992])
        #expect(slots[AccountID(try IBAN(parsing: "FR1420041010050500013M02606"))] == nil)
    }

    @Test func `warns about a national check once per file and IBAN`() {
        let row = "2026-10-03,BE41539007547035,-1.00,EUR,Kiosk,,\n"
        let result = parseCSV(StatementCSVParserTests.header + row + row + row)
        #expect(result.codes == [.ibanNationalCheck])
        #expect(result.rows.count == 3)
    }
}
