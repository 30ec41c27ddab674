import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end tests of `statements import` and `statements accounts`.
struct ImportCommandTests {
    /// A temporary folder for a ledger and input files, removed afterwards.

    @Test func `imports the sample data once and lists the accounts`() throws {
        let workspace = try Workspace()
        let first = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state, "--verbose",
        ])
        #expect(first.status == 0)
        #expect(first.stderr == "")
        #expect(
            first.stdout.hasSuffix("added 25 new transactions from 5 files, 0 already present\n"))
        #expect(
            first.stdout.contains(
                "imported  SampleData/good/2026-10-household.csv: 11 new transactions, 0 already present\n"
            ))
        let accounts = try StatementsRunner.run(["accounts", "--state", workspace.state])
        let second = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state, "-v",
        ])
        #expect(second.status == 0)
        #expect(
            second.stdout.hasSuffix(
                "nothing new: the 25 transactions of 5 files are in the ledger already\n"))
        #expect(
            second.stdout.contains(
                "already present  SampleData/good/2026-10-savings.json: 2 transactions"
                    + " (unchanged since imported, not read again)\n"))
        #expect(
            try StatementsRunner.run(["accounts", "--state", workspace.state]).stdout
                == accounts.stdout)
        let lines = accounts.stdout.split(separator: "\n")
        // The table, then the balances the banks stated and whether the ledger agrees.
        #expect(lines.count == 12)
        #expect(
            lines.contains(
                "  DE89 3704 0044 0532 0130 00: 1,627.18 EUR at the end of 2026-10-29, the ledger agrees"
            ))
        #expect(lines[0].hasPrefix("IBAN "))
        let household = try #require(lines.first { $0.hasPrefix("DE89 3704 0044 0532 0130 00") })
        #expect(household.contains("Household"))
        #expect(household.contains("  11  "))
        #expect(household.contains("1,619.68  2026-10-31"))
    }

    @Test func `lists accounts as JSON`() throws {
        let workspace = try Workspace()
        _ = try StatementsRunner.run([
            "import", "SampleData/good/2026-10-gulf.json", "--state", workspace.state,
        ])
        let output = try StatementsRunner.run([
            "accounts", "--format", "json", "--state", workspace.state,
        ])
        let accounts = try #require(
            JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        #expect(
            accounts.map { $0["iban"] as? String } == [
                "BH67BMAG00001299123456", "GB82WEST12345698765432",
            ])
        let bahrain = accounts[0]
        #expect(bahrain["currency"] as? String == "BHD")
        #expect(bahrain["transactionCount"] as? Int == 1)
        #expect((bahrain["balance"] as? [String: Any])?["minorUnits"] as? Int == 1_130_375)
        #expect((bahrain["balance"] as? [String: Any])?["decimal"] as? String == "1130.375")
        #expect(bahrain["firstDate"] as? String == "2026-10-04")
        #expect(bahrain["kind"] as? String == "checking")
    }

    @Test func `rejects a bad file whole, imports the good one and exits 1`() throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "import", "SampleData/bad/amount-precision.csv",
            "SampleData/good/2026-10-zurich-jpy.csv", "--state", workspace.state,
        ])
        #expect(output.status == 1)
        #expect(
            output.stderr
                == "SampleData/bad/amount-precision.csv:3:35: error: [AMOUNT_PRECISION] amount \"12.345\": EUR has 2 decimal places\n"
        )
        #expect(
            output.stdout == """
                rejected  SampleData/bad/amount-precision.csv: 1 error, nothing imported
                added 4 new transactions from 1 file, 0 already present, 1 file rejected
                  1 × AMOUNT_PRECISION

                """)
        let accounts = try StatementsRunner.run([
            "accounts", "--format", "json", "--state", workspace.state,
        ])
        #expect(!accounts.stdout.contains("DE89370400440532013000"))
    }

    @Test func `changes nothing in a dry run`() throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "import", "--dry-run", "SampleData/good", "--state", workspace.state,
        ])
        #expect(output.status == 0)
        #expect(
            output.stdout.hasSuffix(
                "would add 25 new transactions from 5 files, 0 already present\n"))
        #expect(!FileManager.default.fileExists(atPath: workspace.state))
    }

    @Test func `uses STATEMENTS_STATE when there is no --state`() throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run(
            ["import", "SampleData/good/2026-10-savings.json"],
            environment: ["STATEMENTS_STATE": workspace.state])
        #expect(output.status == 0)
        #expect(FileManager.default.fileExists(atPath: workspace.state + "/manifest"))
    }

    @Test func `fails fast with exit 3 while another run holds the ledger`() throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.state, withIntermediateDirectories: true)
        // Another writer holds the state folder and has written its process id.
        let lock = open(workspace.state, O_RDONLY | O_DIRECTORY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        try "4242\n".write(toFile: workspace.state + "/lock", atomically: false, encoding: .utf8)
        let start = Date()
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "--state", workspace.state,
        ])
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(output.status == 3)
        #expect(
            output.stderr
                == "statements import: error: state folder \(workspace.state) is in use by process 4242\n"
        )
        #expect(!FileManager.default.fileExists(atPath: workspace.state + "/manifest"))
    }

    @Test func `exits 3 when the state path is a file, or a path is missing`() throws {
        let workspace = try Workspace()
        let file = try workspace.write("ledger-file", "x")
        let output = try StatementsRunner.run(["import", "SampleData/good", "--state", file])
        #expect(output.status == 3)
        #expect(
            output.stderr
                == "statements import: error: cannot use state folder \(file): Not a directory\n")
        #expect(try StatementsRunner.run(["accounts", "--state", file]).status == 3)
        let missing = try StatementsRunner.run([
            "import", "no/such.csv", "SampleData/good/2026-10-savings.json", "--state",
            workspace.state,
        ])
        #expect(missing.status == 3)
        #expect(missing.stdout.contains("rejected  no/such.csv: 1 error, nothing imported\n"))
        #expect(missing.stdout.contains("added 2 new transactions from 1 file"))
    }

    @Test func `reports an empty ledger, and no ledger where there is none`() throws {
        let workspace = try Workspace()
        let missing = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("error: no ledger at '\(workspace.state)'"))
        #expect(!FileManager.default.fileExists(atPath: workspace.state))
        try FileManager.default.createDirectory(
            atPath: workspace.state, withIntermediateDirectories: true)
        let output = try StatementsRunner.run(["accounts", "--state", workspace.state])
        #expect(output.status == 0)
        #expect(output.stdout == "no accounts in the ledger yet\n")
        #expect(
            try StatementsRunner.run(["accounts", "--format", "json", "--state", workspace.state])
                .stdout == "[]\n")
    }

    @Test func `exits 2 on usage errors`() throws {
        #expect(try StatementsRunner.run(["import"]).status == 2)
        #expect(try StatementsRunner.run(["import", "x", "--state"]).status == 2)
        #expect(try StatementsRunner.run(["accounts", "extra"]).status == 2)
        #expect(try StatementsRunner.run(["accounts", "--format", "csv"]).status == 2)
        #expect(try StatementsRunner.run(["import", "--help"]).stdout.contains("--dry-run"))
    }
}

struct AccountIDCommandTests {
    @Test func `keeps accounts without IBAN through import, accounts and reports`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "us.csv",
            """
            date,account_id,amount,beneficiary,account_kind
            2026-10-01,aba:021000021/123456789,-12.50,Corner Deli,checking
            2026-10-02,card:AMEX 1004,-40.00,Airline,credit-card
            2026-10-03,card:amex/1004,25.00,Payment,credit-card
            2026-10-04,sort-code:60-16-13 31926819,100.00,Salary,

            """)
        let run = try StatementsRunner.run([
            "process", file, "--state", workspace.state, "--out", workspace.path + "/reports",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let again = try StatementsRunner.run(["import", file, "--state", workspace.state])
        #expect(
            again.stdout.contains(
                "nothing new: the 4 transactions of 1 file are in the ledger already"),
            "\(again.stdout)")
        let listed = try StatementsRunner.run([
            "accounts", "--state", workspace.state, "--format", "json",
        ])
        #expect(listed.stdout.contains(#""id": "card:amex/1004""#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""balance": {"minorUnits": -1500"#), "\(listed.stdout)")
        #expect(listed.stdout.contains(#""kind": "credit-card""#))
        let reports = try FileManager.default.contentsOfDirectory(
            atPath: workspace.path + "/reports/2026-10")
        #expect(reports.contains("card_amex_1004.txt"))
        #expect(reports.contains("sort-code_601613_31926819.html"))
        let text = try String(
            contentsOfFile: workspace.path + "/reports/2026-10/card_amex_1004.txt", encoding: .utf8)
        #expect(text.contains("Account id card:amex/1004\n"))
        let one = try StatementsRunner.run([
            "report", "--state", workspace.state, "--account", "aba:021000021 123456789",
            "--report-format", "csv", "--out", "-",
        ])
        #expect(one.status == 0)
        #expect(one.stdout.contains("Corner Deli"))
        let bad = try StatementsRunner.run([
            "report", "--state", workspace.state, "--account", "name:../x", "--out", "-",
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("a name id is"), "\(bad.stderr)")
    }
}
