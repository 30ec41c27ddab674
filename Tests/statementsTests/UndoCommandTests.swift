import Foundation
import Testing

/// `statements undo`: the last run that changed the ledger is taken back whole, crash-safely,
/// and its files can be imported again.
struct UndoCommandTests {
    static let household =
        "date,account_iban,amount,beneficiary\n2026-10-03,DE89370400440532013000,-12.34,Shop\n"
        + "2026-10-05,DE89370400440532013000,100.00,Employer\n"
    /// A card's export that names no account, imported with --account rightly or wrongly; its
    /// type column says the sales are negative (signed amounts).
    static let card =
        "date,amount,beneficiary,type\n2026-10-04,-5.00,Kiosk,Sale\n2026-10-06,-7.50,Bakery,Sale\n"

    static func accounts(_ state: String) throws -> String {
        let output = try StatementsRunner.run(["accounts", "--state", state, "-f", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout
    }

    static func files(below folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let manager = FileManager.default
        for case let path as String in manager.enumerator(atPath: folder)! {
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                result[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return result
    }

    @Test func `takes back an import under the wrong account, and the file can come again`()
        throws
    {
        let workspace = try Workspace()
        let household = try workspace.write("household.csv", Self.household)
        let card = try workspace.write("card.csv", Self.card)
        let (state, out) = (workspace.state, workspace.path + "/out")
        #expect(
            try StatementsRunner.run(["process", household, "--state", state, "--out", out])
                .status == 0)
        let before = try Self.accounts(state)
        let reportsBefore = try Self.files(below: out)
        // The card's file lands on the wrong account, and its reports are written.
        let wrong = try StatementsRunner.run([
            "process", card, "--account", "DE89370400440532013000", "--state", state, "--out", out,
        ])
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(try Self.accounts(state) != before)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: state + "/manifest"))
        let dryRun = try StatementsRunner.run(["undo", "--state", state, "--dry-run"])
        #expect(dryRun.status == 0)
        #expect(
            dryRun.stdout == """
                would take back generation 2: 2 transactions of 1 account (DE89370400440532013000)

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: state + "/manifest")) == manifest)
        let undo = try StatementsRunner.run(["undo", "--state", state])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.hasPrefix("took back generation 2: 2 transactions of 1 account"))
        #expect(try Self.accounts(state) == before)
        #expect(try StatementsRunner.run(["check", "--state", state]).status == 0)
        // The next process writes the reports as they were.
        let process = try StatementsRunner.run([
            "process", household, "--state", state, "--out", out,
        ])
        #expect(process.status == 0, "\(process.stderr)")
        #expect(
            try Self.files(below: out).filter { $0.key != ".statements-generation" }
                == reportsBefore.filter { $0.key != ".statements-generation" })
        // Once only.
        let again = try StatementsRunner.run(["undo", "--state", state])
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("statements undo: error: nothing to undo"))
        // The file under its own account: imported again, as new.
        let right = try StatementsRunner.run([
            "import", card, "--account", "card:visa/1234", "--state", state,
        ])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout == "added 2 new transactions from 1 file, 0 already present\n")
        let history = try String(contentsOfFile: state + "/history", encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1)[1] }
        #expect(
            history == [
                "import: generation 1 (2 new transactions from 1 file, 0 files rejected)",
                "import: generation 2 (2 new transactions from 1 file, 0 files rejected)",
                "undo: took back generation 2 (2 transactions of 1 account); generation 3",
                "import: generation 4 (2 new transactions from 1 file, 0 files rejected)",
            ])
    }

    @Test func `takes back the first import to an empty ledger`() throws {
        let workspace = try Workspace()
        let household = try workspace.write("household.csv", Self.household)
        #expect(
            try StatementsRunner.run(["import", household, "--state", workspace.state]).status
                == 0)
        // A rejected file is remembered; an undo forgets it (it may have been rejected for
        // what the ledger held).
        let bad = try workspace.write("bad.csv", Self.card)
        #expect(try StatementsRunner.run(["import", bad, "--state", workspace.state]).status == 1)
        #expect(FileManager.default.fileExists(atPath: workspace.state + "/rejected"))
        let undo = try StatementsRunner.run(["undo", "--state", workspace.state])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.state + "/rejected"))
        #expect(
            undo.stdout.hasPrefix(
                "took back generation 1: 2 transactions of 1 account (DE89370400440532013000)\n  /"
            ))
        #expect(undo.stdout.contains("/household.csv\n"))
        #expect(try Self.accounts(workspace.state) == "[]\n")
        let again = try StatementsRunner.run(["import", household, "--state", workspace.state])
        #expect(again.stdout == "added 2 new transactions from 1 file, 0 already present\n")
    }

    @Test func `waits for, or refuses, a ledger another run holds`() throws {
        let workspace = try Workspace()
        let household = try workspace.write("household.csv", Self.household)
        #expect(
            try StatementsRunner.run(["import", household, "--state", workspace.state]).status
                == 0)
        let lock = open(workspace.state, O_RDONLY | O_DIRECTORY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let refused = try StatementsRunner.run(["undo", "--state", workspace.state])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("is in use by process"))
        let waited = try StatementsRunner.run(["undo", "--state", workspace.state, "--wait=0.5"])
        #expect(waited.status == 3)
        #expect(waited.stderr.contains("after waiting 0.5 seconds"), "\(waited.stderr)")
        let missing = try StatementsRunner.run(["undo", "--state", workspace.path + "/none"])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("no ledger at"))
    }
}
