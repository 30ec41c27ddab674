import Foundation
import Testing

/// `statements register` and the `accounts` table on a terminal of 100 columns.
@Suite struct RegisterCommandTests {
    static func ledger() throws -> Workspace {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "SampleData/formats", "-s", workspace.state, "-q",
        ])
        // The sample folders are one world: every file imports, every balance holds.
        #expect(output.status == 0, "\(output.stderr)")
        return workspace
    }

    @Test func `lists an account's transactions with its running balance, filtered by text`() throws
    {
        let workspace = try Self.ledger()
        let household = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "DE89 3704 0044 0532 0130 00", "-m", "2026-10",
        ])
        #expect(household.status == 0, "\(household.stderr)")
        let lines = household.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("DATE        TRANSACTION    ") == true)
        #expect(lines.first?.hasSuffix("AMOUNT       BALANCE") == true)
        #expect(lines[1].hasPrefix("2026-10-01  Capgemini, S.E. · Salary October 2026"))
        #expect(lines[1].hasSuffix("2,450.00 EUR  3,970.00 EUR"))
        #expect(lines.last == "11 transactions")
        #expect(lines.allSatisfy { $0.count <= 100 })
        // The balance is the account's, whatever the filter leaves out.
        let rent = try StatementsRunner.run([
            "register", "-s", workspace.state, "--match", "RENT", "-a", "DE89370400440532013000",
            "-m", "2026-10",
        ])
        #expect(
            rent.stdout == """
                DATE        TRANSACTION                                      AMOUNT       BALANCE
                2026-10-02  Hausverwaltung Schmidt GmbH · Rent October  -950.00 EUR  3,020.00 EUR
                1 transaction

                """)
        let all = try StatementsRunner.run(["register", "-s", workspace.state])
        // October's 47, and November's of the household (a camt.053 of its bank) and of its
        // savings (an MT940).
        #expect(all.stdout.hasSuffix("\n57 transactions\n"))
        #expect(all.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
        #expect(all.stdout.hasPrefix("DATE        ACCOUNT "))
    }

    @Test func `writes the register as CSV and JSON`() throws {
        let workspace = try Self.ledger()
        let csv = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "DE89370400440532013000", "-f", "csv",
            "--match", "capgemini", "-m", "2026-10",
        ])
        #expect(
            csv.stdout
                == "date,account,beneficiary,description,reference,amount,currency,balance\r\n"
                + "2026-10-01,DE89370400440532013000,\"Capgemini, S.E.\",Salary October 2026,DK-2026-10-0001,2450.00,EUR,3970.00\r\n"
        )
        let json = try StatementsRunner.run([
            "register", "-s", workspace.state, "--from", "2026-10", "--to", "2026-10", "-f", "json",
        ])
        let rows = try #require(
            JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 47)
        let dates = rows.compactMap { $0["date"] as? String }
        #expect(dates == dates.sorted())
        #expect((rows[0]["balance"] as? [String: Any])?["decimal"] as? String == "3970.00")
    }

    @Test func `refuses a missing ledger, an unknown account and a bad month`() throws {
        let workspace = try Self.ledger()
        #expect(try StatementsRunner.run(["register", "-s", workspace.path + "/none"]).status == 3)
        let unknown = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "NL02ABNA0123456789",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no account NL02ABNA0123456789 in the ledger"))
        #expect(
            try StatementsRunner.run(["register", "-s", workspace.state, "-m", "2026-13"]).status
                == 2)
    }

    @Test func `fits accounts into 100 columns, cutting long names`() throws {
        let workspace = try Workspace()
        let name = String(repeating: "Very long account name ", count: 5)
        let file = try workspace.write(
            "long.json",
            """
            {"account": {"iban": "FR7630006000011234567890189", "name": "\(name)", "currency": "EUR"},
             "transactions": [{"date": "2026-10-01", "amount": "1.00", "beneficiary": "A"}]}
            """)
        #expect(try StatementsRunner.run(["import", file, "-s", workspace.state]).status == 0)
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state])
        let lines = accounts.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(accounts.stdout)")
        #expect(lines[1].contains("  Very long account name V…  EUR  "))
        // The long IBAN leaves no room for the last import, the kind and the first date.
        #expect(
            lines[0].split(separator: " ", omittingEmptySubsequences: true) == [
                "IBAN", "NAME", "CUR", "TRANSACTIONS", "BALANCE", "TO",
            ])
    }
}
