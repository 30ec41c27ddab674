import Foundation
import Testing

/// End to end: nothing a real export holds is lost or guessed (shared references, files
/// without header row, the sniffer's guesses).
struct NothingLostTests {
    typealias Workspace = ImportCommandTests.Workspace

    @Test func `imports both rows that share a payment reference`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "refdup.csv",
            "date,account_iban,amount,beneficiary,reference\n"
                + "2026-10-02,DE89370400440532013000,1500.00,Salary,REF-1\n"
                + "2026-10-10,DE89370400440532013000,-500.00,Rent,REF-1\n")
        let validation = try StatementsRunner.run(["validate", "--strict", file])
        #expect(validation.status == 0)
        let output = try StatementsRunner.run(["import", file, "--state", workspace.state])
        #expect(output.status == 0)
        #expect(output.stdout.contains("2 new transactions, 0 already present"))
        let accounts = try ProfileCommandTests.accounts(workspace.state)
        #expect(accounts.map(ProfileCommandTests.balance) == ["1000.00"])
    }

    @Test func `reads every row of a file without header row`() throws {
        let workspace = try Workspace()
        let profile = try workspace.write(
            "card.json",
            #"{"headerLine": 0, "dateFormat": "MM/dd/yyyy", "account": {"iban": "GB33BUKB20201555555555", "currency": "GBP"}, "columns": {"date": 1, "beneficiary": 2, "amount": 3}}"#
        )
        let file = try workspace.write(
            "card.csv", "10/01/2026,Coffee Shop,-3.50\n10/02/2026,Book Store,-12.00\n")
        let validation = try StatementsRunner.run([
            "validate", "--strict", "--profile", profile, file,
        ])
        #expect(validation.stdout == "no errors in 1 file (2 rows checked)\n")
        let output = try StatementsRunner.run([
            "import", "--profile", profile, file, "--state", workspace.state,
        ])
        #expect(output.stdout.contains("2 new transactions"))
        let accounts = try ProfileCommandTests.accounts(workspace.state)
        #expect(accounts.map(ProfileCommandTests.balance) == ["-15.50"])
    }

    @Test func `refuses a header-less profile that names columns by header text`() throws {
        let workspace = try Workspace()
        let profile = try workspace.write(
            "p.json",
            #"{"headerLine": 0, "account": {"iban": "GB33BUKB20201555555555"}, "columns": {"date": "Date", "beneficiary": 2, "amount": 3}}"#
        )
        let file = try workspace.write("a.csv", "2026-10-01,Coffee,-3.50\n")
        let output = try StatementsRunner.run(["validate", "--profile", profile, file])
        #expect(output.status == 2)
        #expect(output.stderr.contains("columns.date: a file without header row"))
    }
}
