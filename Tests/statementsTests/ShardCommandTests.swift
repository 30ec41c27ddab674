import Foundation
import Testing

/// The one-machine recipe for a ledger split by account (`Scripts/shard-local`), end to end:
/// four parts imported at once over the same files give, per account, exactly the ledger
/// and the report files of one unsplit run.
struct ShardCommandTests {
    /// Files of several formats and accounts, IBANs and others.
    static let inputs = ["SampleData/good", "SampleData/formats"]

    /// The files below a folder that a person opens (statements and indexes), without the
    /// hidden records each writer keeps.
    static func visibleFiles(_ folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder)
            .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
    }

    /// Expects two output folders to hold the same visible files, byte for byte.
    static func expectSameReports(
        _ folder: String, as expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let files = try visibleFiles(expected)
        #expect(files.contains("index.html"), sourceLocation: sourceLocation)
        #expect(try visibleFiles(folder) == files, sourceLocation: sourceLocation)
        for file in files {
            #expect(
                FileManager.default.contents(atPath: expected + "/" + file)
                    == FileManager.default.contents(atPath: folder + "/" + file),
                "\(file)", sourceLocation: sourceLocation)
        }
    }

    /// Runs the one-machine recipe over `inputs` in four parts.
    static func runRecipe(_ workspace: Workspace, _ inputs: [String]) throws -> Int32 {
        let recipe = Process()
        recipe.executableURL = URL(fileURLWithPath: "/bin/bash")
        recipe.arguments =
            ["Scripts/shard-local", "4", workspace.path + "/part", workspace.path + "/reports"]
            + inputs
        var environment = ProcessInfo.processInfo.environment
        environment["STATEMENTS"] = StatementsRunner.executable.path
        recipe.environment = environment
        try recipe.run()
        recipe.waitUntilExit()
        return recipe.terminationStatus
    }

    @Test func `four parts in parallel give the ledger and reports of one run, night after night`()
        throws
    {
        let workspace = try Workspace()
        func processWhole(_ inputs: [String]) throws {
            let whole = try StatementsRunner.run(
                ["process"] + inputs + [
                    "--state", workspace.path + "/whole", "--out",
                    workspace.path + "/reports-whole", "-q",
                ])
            // The sample folders are one world: every balance holds (issue #36).
            #expect(whole.status == 0, "\(whole.stderr)")
        }
        try processWhole(Self.inputs)
        #expect(try Self.runRecipe(workspace, Self.inputs) == 0)

        // Every account in exactly one part, and parts really split the accounts.
        var owners: [String: Int] = [:]
        for part in 1...4 {
            let accounts = try StatementsRunner.run(
                ["accounts", "--state", workspace.path + "/part-\(part)", "--format", "json"])
            #expect(accounts.status == 0, "\(accounts.stderr)")
            for line in accounts.stdout.split(separator: "\n") {
                guard let id = line.firstMatch(of: /"id": "([^"]*)"/)?.1 else { continue }
                #expect(owners[String(id)] == nil, "\(id) in two parts")
                owners[String(id)] = part
            }
            // Each part keeps its own record of what it reported.
            #expect(
                FileManager.default.fileExists(
                    atPath: workspace.path + "/reports/.statements-generation.\(part)-of-4"))
        }
        #expect(owners.count >= 8)
        #expect(Set(owners.values).count >= 3)
        // Per account, the same transactions as one run.
        let parts = (1...4).flatMap { ["--state", workspace.path + "/part-\($0)"] }
        func expectSameRegister() throws {
            let register = try StatementsRunner.run(["register"] + parts + ["-f", "json"])
            #expect(register.status == 0, "\(register.stderr)")
            #expect(
                register.stdout
                    == (try StatementsRunner.run(
                        ["register", "--state", workspace.path + "/whole", "-f", "json"])).stdout)
        }
        try expectSameRegister()
        // The same statements and indexes, byte for byte: every index lists every part's
        // accounts.
        try Self.expectSameReports(
            workspace.path + "/reports", as: workspace.path + "/reports-whole")

        // The next night: a file for one account, in one part only; the other parts have
        // nothing new, and the indexes still list every account.
        let night = try workspace.write(
            "night.csv",
            "date,account_iban,amount,beneficiary\n"
                + "2026-12-02,DE89370400440532013000,-4.20,Bakery\n")
        try processWhole(Self.inputs + [night])
        #expect(try Self.runRecipe(workspace, Self.inputs + [night]) == 0)
        try expectSameRegister()
        try Self.expectSameReports(
            workspace.path + "/reports", as: workspace.path + "/reports-whole")
    }

    @Test func `writes one ledger's reports in parts into one folder`() throws {
        let workspace = try Workspace()
        let imported = try StatementsRunner.run(
            ["import"] + Self.inputs + ["--state", workspace.state])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains("rejected"))
        let range = ["--from", "2026-09", "--to", "2026-11"]
        let whole = try StatementsRunner.run(
            ["report", "--state", workspace.state, "--out", workspace.path + "/whole"] + range)
        #expect(whole.status == 0, "\(whole.stderr)")
        var written = 0
        for part in 1...3 {
            let output = try StatementsRunner.run(
                [
                    "report", "--state", workspace.state, "--out", workspace.path + "/parts",
                    "--shard", "\(part)/3", "-f", "json",
                ] + range)
            #expect(output.status == 0, "\(output.stderr)")
            written += output.stdout.matches(of: /\.html"/).count
        }
        #expect(written > 0)
        try Self.expectSameReports(workspace.path + "/parts", as: workspace.path + "/whole")
    }

    @Test func `checks the files in parts, each file in exactly one`() throws {
        func files(_ arguments: [String]) throws -> [String] {
            let output = try StatementsRunner.run(
                ["validate", "SampleData/bad", "SampleData/good", "-f", "json"] + arguments)
            #expect(output.status == 1 || output.status == 0, "\(output.stderr)")
            return output.stdout.matches(of: /"path": "([^"]*)"/).map { String($0.1) }
        }
        let all = try files([])
        #expect(all.count > 40)
        let parts = try (1...3).map { try files(["--shard", "\($0)/3"]) }
        #expect(parts.allSatisfy { !$0.isEmpty })
        #expect(parts.flatMap { $0 }.sorted() == all.sorted())
        let usage = try StatementsRunner.run(["validate", "SampleData/good", "--shard", "0/2"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--shard must be a part and a count like 2/4"))
    }

    @Test func `says what each part left to the others, and rejects the same files`() throws {
        let workspace = try Workspace()
        let run = try StatementsRunner.run([
            "import", "SampleData/good", "SampleData/bad/amount-precision.csv", "--shard", "1/2",
            "--state", workspace.state, "-f", "json",
        ])
        #expect(run.status == 1)
        #expect(run.stdout.contains("\"otherShards\": "))
        let other = try StatementsRunner.run([
            "import", "SampleData/good", "SampleData/bad/amount-precision.csv", "--shard", "2/2",
            "--state", workspace.path + "/two",
        ])
        #expect(other.status == 1)
        #expect(other.stdout.contains("of other shards' accounts left to them"))
        #expect(other.stdout.contains("1 file rejected"))
        let usage = try StatementsRunner.run(["import", "SampleData/good", "--shard", "3/2"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--shard must be a part and a count like 2/4"))
    }
}
