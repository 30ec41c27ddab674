import Foundation
import Testing

/// End-to-end tests of several ledgers read as one (`--state` repeated): what `accounts`,
/// `register` and `report` show is what one ledger holding every account shows.
struct LedgerGroupTests {
    /// The good samples in two ledgers (by file) and all of them in a third.
    static func ledgers(_ workspace: Workspace) throws -> (a: String, b: String, all: String) {
        let (a, b, all) = (workspace.path + "/a", workspace.path + "/b", workspace.path + "/all")
        for (state, files) in [
            (a, ["2026-10-household.csv", "2026-10-gulf.json"]),
            (b, ["2026-10-lyon-bom-crlf.csv", "2026-10-savings.json", "2026-10-zurich-jpy.csv"]),
            (all, ["."]),
        ] {
            let imported = try StatementsRunner.run(
                ["import"] + files.map { "SampleData/good/" + $0 } + ["--state", state, "-q"])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        return (a, b, all)
    }

    @Test func `reads several ledgers as one ledger holding every account`() throws {
        let workspace = try Workspace()
        let (a, b, all) = try Self.ledgers(workspace)
        let register = try StatementsRunner.run(["register", "-s", a, "-s", b, "-f", "json"])
        #expect(register.status == 0, "\(register.stderr)")
        #expect(
            register.stdout
                == (try StatementsRunner.run(["register", "-s", all, "-f", "json"])).stdout)
        #expect(register.stdout.contains("\"account\": \"BH67BMAG00001299123456\""))
        #expect(register.stdout.contains("\"account\": \"CH9300762011623852957\""))
        // Reports, indexes included, byte for byte; the folders in either order.
        let together = workspace.path + "/r-all"
        let grouped = workspace.path + "/r-group"
        #expect(try StatementsRunner.run(["report", "-s", all, "-o", together, "-q"]).status == 0)
        #expect(
            try StatementsRunner.run(["report", "-s", b, "-s", a, "-o", grouped, "-q"]).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: together).sorted()
        #expect(files.contains("2026-10/index.html"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: grouped).sorted() == files)
        for file in files {
            #expect(
                FileManager.default.contents(atPath: together + "/" + file)
                    == FileManager.default.contents(atPath: grouped + "/" + file), "\(file)")
        }
        // Accounts: the same figures (the last import times differ, and the files that
        // stated the bank's balances were named otherwise).
        func accounts(_ states: [String]) throws -> [String] {
            let run = try StatementsRunner.run(
                ["accounts"] + states.flatMap { ["--state", $0] } + ["--format", "json"])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map {
                String($0).replacing(/"lastImport": "[^"]*"/, with: "\"lastImport\": \"\"")
                    .replacing(/"source": "[^"]*"/, with: "\"source\": \"\"")
            }
        }
        #expect(try accounts([a, b]) == accounts([all]))
        #expect(try accounts([a, b]).count > 5)
    }

    @Test func `refuses ledgers that share an account, and a folder that is not there`() throws {
        let workspace = try Workspace()
        let (a, b, _) = try Self.ledgers(workspace)
        _ = try StatementsRunner.run(["import", "SampleData/good/2026-10-gulf.json", "-s", b, "-q"])
        for command in [["accounts"], ["register"], ["report", "-o", workspace.path + "/r"]] {
            let run = try StatementsRunner.run(command + ["--state", a, "--state", b])
            #expect(run.status == 3, "\(command)")
            #expect(
                run.stderr.contains(
                    "account BH67BMAG00001299123456 is in the ledger at '\(a)' too; ledgers read as one must not share an account"
                ), "\(run.stderr)")
        }
        // A shared account is said before a damaged ledger's own error, in either order.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: b + "/transactions"))
        try handle.truncate(atOffset: try handle.seekToEnd() - 10)
        try handle.close()
        for order in [[a, b], [b, a]] {
            let run = try StatementsRunner.run(["accounts", "-s", order[0], "-s", order[1]])
            #expect(run.status == 3)
            #expect(
                run.stderr.contains(
                    "is in the ledger at '\(order[0])' too; ledgers read as one must not share an account"
                ), "\(run.stderr)")
        }
        let missing = try StatementsRunner.run(["report", "-s", a, "-s", workspace.path + "/none"])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("no ledger at '\(workspace.path)/none'"))
    }

    @Test func `names every folder when an account asked for is in none`() throws {
        let workspace = try Workspace()
        let (a, b, _) = try Self.ledgers(workspace)
        let unknown = try StatementsRunner.run(
            ["register", "-s", a, "-s", b, "-a", "AT611904300234573201"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains(
                "no account AT611904300234573201 in the ledger at '\(a)', '\(b)'"))
    }
}
