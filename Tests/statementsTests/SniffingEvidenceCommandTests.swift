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
}
