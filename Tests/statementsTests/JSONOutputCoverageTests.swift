import Foundation
import Testing

/// `-f json` on the commands that lacked it: `undo` prints JSON (its refusals too), and
/// `completions` and `man`, which print a script and a page, refuse it with a usage error
/// that is itself JSON.
struct JSONOutputCoverageTests {
    static func object(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(value as? [String: Any])
    }

    @Test func `undo prints its result, and its refusal, as JSON`() throws {
        let workspace = try Workspace()
        let file = try workspace.write(
            "a.csv",
            "date,account_iban,amount,beneficiary\n2026-10-03,DE89370400440532013000,-1.00,Shop\n")
        let (state, out) = (workspace.state, workspace.path + "/out")
        #expect(try StatementsRunner.run(["process", file, "-s", state, "-o", out]).status == 0)
        let dryRun = try StatementsRunner.run(["undo", "-s", state, "-nfjson"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(
            dryRun.stdout == """
                {"undone": 1, "generation": 1, "transactions": 1, "accounts": ["DE89370400440532013000"], "files": ["\(file)"], "vanished": [{"account": "DE89370400440532013000", "month": "2026-10"}], "reportsRemoved": null, "dryRun": true}

                """)
        let undo = try StatementsRunner.run(["undo", "-s", state, "-o", out, "-f", "json"])
        #expect(undo.status == 0, "\(undo.stderr)")
        let result = try Self.object(undo.stdout)
        #expect(result["generation"] as? Int == 2)
        #expect(result["reportsRemoved"] as? Int == 3)
        let again = try StatementsRunner.run(["undo", "-s", state, "--format=json"])
        #expect(again.status == 1)
        let refusal = try Self.object(again.stdout)
        #expect(refusal["code"] as? String == "NOTHING_TO_UNDO")
        #expect(refusal["exitStatus"] as? Int == 1)
        #expect(again.stderr.hasPrefix("statements undo: error: nothing to undo"))
        let missing = try StatementsRunner.run(["undo", "-s", workspace.path + "/no", "-fjson"])
        #expect(missing.status == 3)
        #expect(try Self.object(missing.stdout)["code"] as? String == "ENVIRONMENT")
    }

    @Test func `undo refuses, in JSON, a run whose commit compacted the month records`() throws {
        let workspace = try Workspace()
        let state = workspace.state
        // An account of 1,200 months: every run that adds to it writes its 84 KB of month
        // records again, and after about a dozen the superseded ones are compacted away.
        var rows = "date,account_iban,amount,beneficiary\n"
        for index in 0..<1200 {
            rows += "\(1940 + index / 12)-\(String(format: "%02d", index % 12 + 1))-15,"
            rows += "DE89370400440532013000,-1.00,Shop\n"
        }
        let big = try workspace.write("big.csv", rows)
        #expect(try StatementsRunner.run(["import", big, "-s", state, "-q"]).status == 0)
        var compacted = false
        for day in 1...40 where !compacted {
            let file = try workspace.write(
                "n\(day).csv",
                "date,account_iban,amount,beneficiary\n2040-01-\(String(format: "%02d", day)),"
                    + "DE89370400440532013000,-1.00,Shop\n")
            #expect(try StatementsRunner.run(["import", file, "-s", state, "-q"]).status == 0)
            compacted = !FileManager.default.fileExists(atPath: state + "/months.0")
        }
        #expect(compacted)
        let undo = try StatementsRunner.run(["undo", "-s", state, "-f", "json"])
        #expect(undo.status == 1)
        let refusal = try Self.object(undo.stdout)
        #expect(refusal["code"] as? String == "CANNOT_RESTORE")
        #expect(
            refusal["message"] as? String
                == "the last run cannot be taken back: it compacted the ledger's month records")
    }

    @Test func `completions and man refuse -f json with a usage error in JSON`() throws {
        for (arguments, what) in [
            (["completions", "bash", "-f", "json"], "completions prints a shell script"),
            (["man", "--format=json"], "man prints a manual page (roff)"),
        ] {
            let output = try StatementsRunner.run(arguments)
            #expect(output.status == 2)
            let error = try Self.object(output.stdout)
            #expect(error["code"] as? String == "USAGE")
            #expect((error["message"] as? String)?.hasPrefix(what) == true, "\(error)")
            #expect(output.stderr.contains("error: \(what), not JSON: it takes no -f json"))
        }
        // Without -f json they print as before.
        #expect(try StatementsRunner.run(["man"]).stdout.hasPrefix(".TH"))
    }
}
