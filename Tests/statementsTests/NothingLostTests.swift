import Foundation
import Testing

/// End to end: nothing a real export holds is lost or guessed (shared references, files
/// without header row, the sniffer's guesses).
struct NothingLostTests {
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
        #expect(output.stdout.contains("added 2 new transactions from 1 file, 0 already present"))
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

    @Test func `refuses a column named Account that holds several names, printing what it found`()
        throws
    {
        let workspace = try Workspace()
        let file = try workspace.write(
            "export.csv",
            "Date,Account,Description,Amount\n2026-10-01,Checking,Coffee,-3.50\n"
                + "2026-10-02,Cash,Lunch,-12.00\n")
        // Two accounts in one column: one --account for both would merge them.
        for arguments in [[file], [file, "--account", "name:checking"]] {
            let output = try StatementsRunner.run(["validate"] + arguments)
            #expect(output.status == 1)
            #expect(
                output.stderr
                    == "\(file):2:12: error: [DIALECT_UNKNOWN] column \"Account\" names several accounts (\"Cash\", \"Checking\"); map each to its id with the profile's \"accounts\"; write a profile for it (see statements profile)\n"
            )
        }
        // One account named in the column: all it lacks is the account's id.
        let single = try workspace.write(
            "single.csv",
            "Date,Account,Description,Amount\n2026-10-01,Checking,Coffee,-3.50\n"
                + "2026-10-02,Checking,Lunch,-12.00\n")
        let output = try StatementsRunner.run(["validate", single])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "\(single):1:1: error: [DIALECT_UNKNOWN] the file does not name its account: no column holds it and no line above the header names an IBAN; give it with --account ID or a folder profile {\"account\": {\"id\": …}}\n"
        )
        let profile = try StatementsRunner.run(["profile", single])
        #expect(profile.status == 1)
        #expect(profile.stdout.contains(#""account_name": "Account""#))
        #expect(profile.stdout.contains(#""id": "FILL IN the account's IBAN or scheme:value""#))
        let given = try StatementsRunner.run(["profile", single, "--account", "name:checking"])
        #expect(given.status == 0)
        #expect(given.stdout.contains(#""account": { "id": "name:checking", "currency": "EUR" }"#))
    }

    @Test func `applies a debit and credit type column beside unsigned amounts`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "export.csv",
            "IBAN: DE89 3704 0044 0532 0130 00\nDate,Description,Amount,Transaction Type\n"
                + "2026-10-01,Salary,5000.00,credit\n2026-10-02,Rent,3000.00,debit\n"
                + "2026-10-03,Car,5000.00,Debit\n")
        let output = try StatementsRunner.run(["import", file, "--state", workspace.state])
        #expect(output.status == 0)
        let accounts = try ProfileCommandTests.accounts(workspace.state)
        #expect(accounts.map(ProfileCommandTests.balance) == ["-3000.00"])
    }

    @Test func `refuses a signed amount that its indicator contradicts`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "export.csv",
            "IBAN: DE89 3704 0044 0532 0130 00\nDate,Description,Amount,D/C\n"
                + "2026-10-01,Salary,-5000.00,C\n")
        let output = try StatementsRunner.run(["validate", file])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains("[AMOUNT_SIGN] amount is negative but the indicator says credit")
        )
    }

    @Test func `takes a blank currency cell from the profile's default, or refuses it`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "export.csv",
            "Date,Description,Amount,Currency\n2026-10-01,Salary,5000.00,USD\n"
                + "2026-10-02,Rent,-30.00,\n")
        let columns =
            #""columns": {"date": "Date", "description": "Description", "amount": "Amount", "currency": "Currency"}"#
        let plain = try workspace.write(
            "plain.json", #"{"account": {"iban": "DE89370400440532013000"}, "# + columns + "}")
        let refused = try StatementsRunner.run(["validate", "--profile", plain, file])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "\(file):3:24: error: [FIELD_EMPTY] currency is blank and the profile gives no default (account.currency)\n"
        )
        let withDefault = try workspace.write(
            "default.json",
            #"{"account": {"iban": "DE89370400440532013000", "currency": "USD"}, "# + columns + "}")
        let read = try StatementsRunner.run([
            "validate", "--strict", "--profile", withDefault, file,
        ])
        #expect(read.status == 0)
    }

    @Test func `reports an unknown currency once, not the amount against EUR`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "export.csv",
            "date,account_iban,amount,currency,beneficiary\n"
                + "2026-10-01,DE89370400440532013000,-1.005,BTC,Exchange\n")
        let output = try StatementsRunner.run(["validate", file])
        #expect(
            output.stderr
                == "\(file):2:42: error: [CURRENCY_UNKNOWN] currency \"BTC\": is not an active ISO 4217 currency code\n"
        )
    }

    @Test func `refuses a profile column name that two header cells share`() throws {
        let workspace = try Workspace()
        let profile = try workspace.write(
            "p.json",
            #"{"account": {"iban": "DE89370400440532013000"}, "columns": {"date": "Date", "description": "Description", "amount": "Amount"}}"#
        )
        let file = try workspace.write(
            "export.csv", "Date,Description,Amount,Amount\n2026-10-01,Salary,5000.00,1.00\n")
        let output = try StatementsRunner.run(["validate", "--profile", profile, file])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "[COLUMN_DUPLICATE] the profile's column \"Amount\" is the name of columns 3 and 4; map amount to one of them by number"
            ))
    }

    @Test func `sniffs a canonical file in Windows-1252 instead of failing every accented line`()
        throws
    {
        let workspace = try Workspace()
        let path = workspace.path + "/cp1252.csv"
        var bytes = Array("date,account_iban,amount,beneficiary\n".utf8)
        bytes += Array("2026-10-01,DE89370400440532013000,-12.50,B".utf8) + [0xE4]
        bytes += Array("ckerei M".utf8) + [0xFC] + Array("ller\n".utf8)
        bytes += Array("2026-10-02,DE89370400440532013000,-3.00,Kiosk\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let validation = try StatementsRunner.run(["validate", path])
        #expect(validation.status == 0)
        #expect(
            validation.stderr.contains(
                "[DIALECT_ASSUMED] the file is not valid UTF-8; read it as windows-1252"))
        let output = try StatementsRunner.run(["import", path, "--state", workspace.state])
        #expect(output.stdout.contains("2 new transactions"))
        let report = try StatementsRunner.run([
            "report", "--state", workspace.state, "--report-format", "csv", "--out", "-",
        ])
        #expect(report.stdout.contains("Bäckerei Müller"))
        // UTF-8 with one damaged byte stays an error on its line.
        let damaged = try StatementsRunner.run([
            "validate", "SampleData/bad/encoding-invalid-utf8.csv",
        ])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains("[ENCODING_INVALID_UTF8]"))
    }
}
