import Foundation
import Testing

/// End-to-end tests of reading a bank's CSV by what its columns hold (#35): accounts never
/// merged, signs and row order proved by the balance column.
struct SniffingEvidenceCommandTests {
    @Test(arguments: ["Account Name", "Konto", "Card No."])
    func `refuses a column that names several accounts, whatever its header`(column: String)
        throws
    {
        let workspace = try Workspace()
        let export = try workspace.write(
            "two.csv",
            """
            Date,Description,\(column),Amount
            2026-10-01,Salary,Everyday,2500.00
            2026-10-02,Coffee,Everyday,-3.50
            2026-10-03,Interest,Savings,1.20

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "name:everyday", "--state", workspace.state,
        ])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "two.csv:2:19: error: [DIALECT_UNKNOWN] column \"\(column)\" names several accounts (\"Everyday\", \"Savings\")"
            ), "\(output.stderr)")
        #expect(!output.stdout.contains("new transactions"))

        // One account's name in every row is that account's: read, with the account given.
        let one = try workspace.write(
            "one.csv", "Date,Description,\(column),Amount\n2026-10-01,Salary,Everyday,2500.00\n")
        let read = try StatementsRunner.run(["validate", one, "--account", "name:everyday"])
        #expect(read.status == 0, "\(read.stderr)")
    }

    @Test func `proves debit and credit swapped and the row order by the balance`() throws {
        let workspace = try Workspace()
        // Newest first, all on one day: only the balance tells the order. "Debit" raises
        // the balance: the bank speaks from its own books.
        let export = try workspace.write(
            "books.csv",
            """
            Date,Description,Debit,Credit,Balance
            2026-10-01,Rent,,500.00,2000.00
            2026-10-01,Coffee,,12.50,2500.00
            2026-10-01,Salary,2500.00,,2512.50

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "name:books", "--state", workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stderr.contains(
                "[DIALECT_ASSUMED] the balance column rises by column \"Debit\" and falls by \"Credit\": read \"Debit\" as money in (columns.credit) and \"Credit\" as money out (columns.debit)"
            ))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("2,000.00"), "\(accounts.stdout)")

        // The profile it prints says the same, and reads the file.
        let profile = try StatementsRunner.run(["profile", export, "--account", "name:books"])
        #expect(profile.stdout.contains(#""debit": "Credit""#), "\(profile.stdout)")
        #expect(profile.stdout.contains(#""rowOrder": "newest-first""#), "\(profile.stdout)")
    }

    @Test func `proves a card's charges positive by a balance that is owed`() throws {
        let workspace = try Workspace()
        // Payments outnumber charges: only the balance says the charges are positive.
        let export = try workspace.write(
            "card.csv",
            """
            Date,Description,Amount,Balance
            2026-10-02,SHOP,300.00,300.00
            2026-10-10,PAYMENT,-100.00,200.00
            2026-10-20,PAYMENT,-50.00,150.00

            """)
        let output = try StatementsRunner.run([
            "import", export, "--account", "card:visa/1234", "--currency", "EUR", "--state",
            workspace.state,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("it is what is owed; read charges positive"))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(accounts.stdout.contains("-150.00"), "\(accounts.stdout)")
        #expect(accounts.stdout.contains("EUR"))
        #expect(!output.stderr.contains("assumed USD"))
        let alone = try StatementsRunner.run(["validate", export, "--currency", "EUR"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--currency is the currency of the account given"))
    }

    @Test func `refuses a balance chain that breaks, at the row where it breaks`() throws {
        let workspace = try Workspace()
        let export = try workspace.write(
            "broken.csv",
            """
            Date,Description,Amount,Balance
            2026-10-01,Salary,2500.00,2500.00
            2026-10-02,Coffee,-12.50,2487.50
            2026-10-03,Rent,-500.00,1900.00

            """)
        let output = try StatementsRunner.run(["validate", export, "--account", "name:x"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("broken.csv:4:"), "\(output.stderr)")
        #expect(output.stderr.contains("[BALANCE_RUNNING]"))
    }
}
