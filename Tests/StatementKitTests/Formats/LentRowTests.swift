import Foundation
import Testing

@testable import StatementKit

/// An import takes canonical CSV rows lent as the file's bytes, every other row from its built
/// transaction: both must give the same ledger lines and identities.
struct LentRowTests {
    /// What an import stores of a row: its ledger line and its identity hash.
    struct Stored: Equatable, CustomStringConvertible {
        let line: Int
        let account: String
        let record: [UInt8]
        let hash: UInt64

        init(_ row: LentRow) {
            line = row.line
            account = row.account.id.text
            var bytes: [UInt8] = []
            LedgerRecord.encode(row.fields, into: &bytes)
            record = bytes
            hash =
                row.fields.transactionID.map { id in
                    id.withSpan {
                        TransactionIdentity(account: row.account.id, transactionID: $0).hash
                    }
                } ?? TransactionIdentity.contentHash(row.fields)
        }

        /// What an import stores of a built row: its transaction's strings, lent.
        init(_ row: ParsedRow) {
            self = row.withLent(Stored.init)
        }

        var description: String { "\(line) \(account) \(String(decoding: record, as: UTF8.self))" }
    }

    /// Reads `text` both ways: rows built, and rows lent.
    func bothWays(_ text: String, dialect: Dialect = Dialect()) -> (built: [Stored], lent: [Stored])
    {
        let parser = StatementCSVParser(dialect: dialect)
        let (body, footer) = dialect.text(of: Array(text.utf8))
        var built: [Stored] = []
        var collector = DiagnosticCollector(file: "t.csv")
        _ = parser.parse(MemoryByteSource(body), footer: footer, diagnostics: &collector) {
            built.append(Stored($0))
        }
        var lent: [Stored] = []
        var lentCollector = DiagnosticCollector(file: "t.csv")
        _ = parser.parse(
            MemoryByteSource(body), footer: footer, diagnostics: &lentCollector,
            onRow: { _ in Issue.record("a row was built where it should be lent") },
            lending: { lent.append(Stored($0)) })
        #expect(collector.diagnostics == lentCollector.diagnostics)
        return (built, lent)
    }

    @Test func `canonical rows lent as bytes store what their built transactions store`() {
        let result = bothWays(
            "date,account_iban,amount,currency,beneficiary,beneficiary_iban,description,reference,transaction_id\r\n"
                + "2026-10-03,de89 3704 0044 0532 0130 00,-12.34,EUR,\"Müller, \"\"GmbH\"\"\",FR14 2004 1010 0505 0001 3M02 606,\"two\r\nlines\",R-1, T-1 \r\n"
                + "2026-10-04,DE89370400440532013000,5,EUR,  Kiosk  ,,   ,\t,\r\n"
                + "2026-10-04,DE89370400440532013000,5,EUR,  Kiosk  ,,   ,\t,\r\n"
                + "2026-10-05,DE89370400440532013000,1.00,EUR,back\\slash\ttab,,\u{A0},\u{A0}x, \r\n"
                + "2026-02-30,DE89370400440532013000,1.00,EUR,Bad date,,,,\r\n"
                + "2026-10-06,GB29NWBK60161331926819,-0.01,GBP,日本,,Ωmega,,\r\n"
                + "2026-10-07,DE89370400440532013000,7,EUR,Tab\tin\tname,,desc,ref,\r\n")
        #expect(result.lent.count == 6)
        #expect(result.lent == result.built)
        // The lent texts are the file's: quotes undoubled, spaces kept, blank texts absent.
        #expect(
            result.lent.map { String(decoding: $0.record, as: UTF8.self) } == [
                "2026-10-03\t-1234\tMüller, \"GmbH\"\tFR1420041010050500013M02606\ttwo\\r\\nlines\tR-1\tT-1\n",
                "2026-10-04\t500\t  Kiosk  \t\t\t\t\n",
                "2026-10-04\t500\t  Kiosk  \t\t\t\t\n",
                "2026-10-05\t100\tback\\\\slash\\ttab\t\t\u{A0}\t\u{A0}x\t\n",
                "2026-10-06\t-1\t日本\t\tΩmega\t\t\n",
                "2026-10-07\t700\tTab\\tin\\tname\t\tdesc\tref\t\n",
            ])
    }

    @Test func `a profile's joined texts are lent from the built transaction`() throws {
        var dialect = Dialect()
        dialect.separator = UInt8(ascii: ";")
        dialect.columns = [
            .date: [.name("Tag")], .amount: [.name("Betrag")], .beneficiary: [.name("Name")],
            .description: [.name("Text"), .name("Zweck")],
        ]
        dialect.accountID = AccountID(try IBAN(parsing: "DE89370400440532013000"))
        dialect.accountCurrency = .eur
        let result = bothWays(
            "Tag;Name;Text;Zweck;Betrag\n2026-10-01;Kiosk;Lastschrift; Zeitung ;-1.00\n"
                + "2026-10-02;;Gutschrift;Zinsen;0.50\n", dialect: dialect)
        #expect(result.lent.count == 2)
        #expect(result.lent == result.built)
    }
}
