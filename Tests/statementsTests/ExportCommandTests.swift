import Foundation
import Testing

/// `statements export`: the ledger as an hledger, ledger-cli or beancount journal. The real
/// tools read these exports in `Scripts/export-check`; these tests fix the text.
@Suite struct ExportCommandTests {
    /// A ledger of a euro account with an opening and a closing balance over two months, with
    /// texts the tools could misread, and a yen card account.
    static func ledger() throws -> Workspace {
        let workspace = try Workspace()
        let household = try workspace.write(
            "a.json",
            #"""
            {"account": {"iban": "DE89370400440532013000", "name": "Household", "kind": "checking", "currency": "EUR"},
             "openingBalance": "100.00", "closingBalance": "77.66",
             "transactions": [
              {"date": "2026-09-30", "amount": "-12.34", "beneficiary": "Café; Le | Zinc", "description": "Lunch \"team\"", "reference": "TX-1", "beneficiaryIban": "FR1420041010050500013M02606"},
              {"date": "2026-10-02", "amount": "-10.00", "beneficiary": "(Pty)  Ltd", "description": "Line\nbreak\\"}]}
            """#)
        let card = try workspace.write(
            "b.csv",
            """
            date,account_iban,amount,currency,beneficiary,transaction_id
            2026-10-05,card:amex/1004,-5,JPY,Lawson,A-1

            """)
        for (file, account) in [(household, nil), (card, "card:amex/1004")] {
            let output = try StatementsRunner.run(
                ["import", file, "-s", workspace.state, "-q"]
                    + (account.map { ["-a", $0] } ?? []))
            #expect(output.status == 0, "\(output.stderr)")
        }
        return workspace
    }

    @Test func `writes an hledger journal with opening entries and balance assertions`() throws {
        let workspace = try Self.ledger()
        let output = try StatementsRunner.run(["export", "-s", workspace.state])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr == "")
        #expect(
            output.stdout == """
                ; The ledger of statements, as an hledger journal: a bank account per account, counter postings to
                ; Expenses:Unknown and Income:Unknown, balance assertions where the bank stated a balance.

                ; DE89 3704 0044 0532 0130 00 · Household · checking · EUR
                account Assets:Bank:DE89370400440532013000

                2026-08-31 * Opening balance
                    Assets:Bank:DE89370400440532013000  100.00 EUR
                    Equity:Opening-Balances  -100.00 EUR

                2026-09-29 * Bank balance
                    ; source: \(workspace.path)/a.json:2
                    Assets:Bank:DE89370400440532013000  0.00 EUR = 100.00 EUR

                2026-09-30 * Café, Le / Zinc | Lunch "team"
                    ; reference: TX-1
                    ; counterparty: FR1420041010050500013M02606
                    Assets:Bank:DE89370400440532013000  -12.34 EUR
                    Expenses:Unknown  12.34 EUR

                2026-10-02 * () (Pty) Ltd | Line break\\
                    Assets:Bank:DE89370400440532013000  -10.00 EUR
                    Expenses:Unknown  10.00 EUR

                2026-10-02 * Bank balance
                    ; source: \(workspace.path)/a.json:2
                    Assets:Bank:DE89370400440532013000  0.00 EUR = 77.66 EUR

                ; card:amex/1004 · credit-card · JPY
                account Liabilities:Bank:Card:AMEX-1004

                2026-09-30 * Opening balance
                    Liabilities:Bank:Card:AMEX-1004  0 JPY
                    Equity:Opening-Balances  0 JPY

                2026-10-05 * Lawson
                    ; transaction_id: A-1
                    Liabilities:Bank:Card:AMEX-1004  -5 JPY
                    Expenses:Unknown  5 JPY

                """)
        // The same ledger, the same bytes; ledger-cli's journal differs in its first line only.
        #expect(
            try StatementsRunner.run(["export", "-s", workspace.state]).stdout == output.stdout)
        let ledger = try StatementsRunner.run(["export", "-s", workspace.state, "-f", "ledger"])
        #expect(
            ledger.stdout.replacingOccurrences(
                of: "as a ledger-cli journal", with: "as an hledger journal")
                == output.stdout)
    }

    @Test func `writes a month of one account as beancount, its balance brought forward`() throws {
        let workspace = try Self.ledger()
        let output = try StatementsRunner.run([
            "export", "-s", workspace.state, "-f", "beancount", "-m", "2026-10", "-a",
            "DE89 3704 0044 0532 0130 00",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == #"""
                ; The ledger of statements, as a beancount file: a bank account per account,
                ; counter postings to Expenses:Unknown and Income:Unknown, balance directives where the bank
                ; stated a balance.

                2026-09-30 open Equity:Opening-Balances
                2026-09-30 open Expenses:Unknown
                2026-09-30 open Income:Unknown

                2026-09-30 open Assets:Bank:DE89370400440532013000 EUR
                  account: "DE89370400440532013000"
                  name: "Household"
                  kind: "checking"

                2026-09-30 * "Opening balance"
                  Assets:Bank:DE89370400440532013000  87.66 EUR
                  Equity:Opening-Balances  -87.66 EUR

                2026-10-02 * "(Pty) Ltd" "Line break\\"
                  Assets:Bank:DE89370400440532013000  -10.00 EUR
                  Expenses:Unknown  10.00 EUR

                2026-10-03 balance Assets:Bank:DE89370400440532013000  77.66 ~ 0 EUR
                  source: "\#(workspace.path)/a.json:2"

                """#)
        // September in beancount: the payee's quotes escaped, the stated opening balance checked
        // at the start of the day after it holds.
        let september = try StatementsRunner.run([
            "export", "-s", workspace.state, "-f", "beancount", "--from", "2026-09", "--to",
            "2026-09",
        ])
        #expect(september.stdout.contains(#"2026-09-30 * "Café; Le | Zinc" "Lunch \"team\"""#))
        #expect(september.stdout.contains("  reference: \"TX-1\"\n"))
        #expect(
            september.stdout.contains(
                "2026-09-30 balance Assets:Bank:DE89370400440532013000  100.00 ~ 0 EUR"))
        #expect(!september.stdout.contains("2026-10-02"))
        #expect(!september.stdout.contains("AMEX"))
    }

    @Test func `writes a stated balance the ledger does not hold as a comment, and says so`() throws
    {
        // The household's rows 1–5 and 9–11: rows 6–8 are missing, so two balances of the
        // second part do not hold.
        let workspace = try Workspace()
        let parts = try BalanceAssertionTests.householdParts(in: workspace)
        _ = try StatementsRunner.run([
            "import", parts[0], parts[2], "SampleData/good/2026-10-gulf.json", "-s",
            workspace.state,
        ])
        let path = workspace.path + "/all.journal"
        let output = try StatementsRunner.run(["export", "-s", workspace.state, "-o", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "")
        #expect(
            output.stderr
                == "statements export: 2 balances the bank stated, which the ledger does not hold, written as comments rather than assertions ('statements accounts' shows where the ledger differs)\n"
        )
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.contains(
                "\n; 2026-10-21 bank balance Assets:Bank:DE89370400440532013000 1692.08 EUR (\(parts[2]):2) not asserted: the ledger has 3021.25 EUR\n"
            ))
        #expect(text.contains("    Assets:Bank:BH67BMAG00001299123456  0.000 BHD = 1130.375 BHD\n"))
        // Written whole, nothing left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.path)
        #expect(!names.contains { $0.hasSuffix("statements-tmp") })
    }

    @Test func `writes only the prelude of an empty ledger`() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.state, withIntermediateDirectories: true)
        let output = try StatementsRunner.run([
            "export", "-s", workspace.state, "-f", "beancount",
        ])
        #expect(output.status == 0)
        #expect(
            output.stdout == """
                ; The ledger of statements, as a beancount file: a bank account per account,
                ; counter postings to Expenses:Unknown and Income:Unknown, balance directives where the bank
                ; stated a balance.

                """)
        #expect(
            output.stderr
                == "statements export: no transactions in the ledger or months asked for\n")
    }

    @Test func `refuses a bad format, an unknown account, a missing ledger and an unwritable file`()
        throws
    {
        let workspace = try Self.ledger()
        let format = try StatementsRunner.run(["export", "-s", workspace.state, "-f", "gnucash"])
        #expect(format.status == 2)
        #expect(
            format.stderr.hasPrefix(
                "statements export: error: --format must be one of hledger, ledger, beancount, not 'gnucash'"
            ))
        let unknown = try StatementsRunner.run([
            "export", "-s", workspace.state, "-a", "NL02ABNA0123456789",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no account NL02ABNA0123456789 in the ledger"))
        #expect(try StatementsRunner.run(["export", "-s", workspace.path + "/none"]).status == 3)
        let unwritable = try StatementsRunner.run([
            "export", "-s", workspace.state, "-o", workspace.path + "/no/such/folder/x.journal",
        ])
        #expect(unwritable.status == 3)
        #expect(unwritable.stderr.contains("No such file or directory"))
        #expect(try StatementsRunner.run(["export", "-s", workspace.state, "x"]).status == 2)
    }
}
