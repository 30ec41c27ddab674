import Foundation
import Testing

/// The one-machine recipe for a ledger split by account (`Scripts/shard-local`), end to end:
/// four parts imported at once over the same files give, per account, exactly the ledger
/// and the report files of one unsplit run.
struct ShardCommandTests {
    /// Files of several formats and accounts, IBANs and others.
    static let inputs = ["SampleData/good", "SampleData/formats"]

    @Test func `four parts in parallel give the ledger and reports of one run`() throws {
        let workspace = try Workspace()
        let whole = try StatementsRunner.run(
            ["process"] + Self.inputs + [
                "--state", workspace.path + "/whole", "--out",
                workspace.path + "/reports-whole", "-q",
            ])
        #expect(whole.status == 0, "\(whole.stderr)")

        let recipe = Process()
        recipe.executableURL = URL(fileURLWithPath: "/bin/bash")
        recipe.arguments =
            ["Scripts/shard-local", "4", workspace.path + "/part", workspace.path + "/reports"]
            + Self.inputs
        var environment = ProcessInfo.processInfo.environment
        environment["STATEMENTS"] = StatementsRunner.executable.path
        recipe.environment = environment
        try recipe.run()
        recipe.waitUntilExit()
        #expect(recipe.terminationStatus == 0)

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
        }
        #expect(owners.count >= 8)
        #expect(Set(owners.values).count >= 3)
        // Per account, the same transactions as one run.
        let parts = (1...4).flatMap { ["--state", workspace.path + "/part-\($0)"] }
        let register = try StatementsRunner.run(["register"] + parts + ["-f", "json"])
        #expect(register.status == 0, "\(register.stderr)")
        #expect(
            register.stdout
                == (try StatementsRunner.run(
                    ["register", "--state", workspace.path + "/whole", "-f", "json"])).stdout)
        // The same report files, byte for byte (the unsplit run's own generation marker aside).
        let files = try FileManager.default.subpathsOfDirectory(
            atPath: workspace.path + "/reports-whole"
        ).filter { !$0.hasSuffix(".statements-generation") }.sorted()
        #expect(files.contains("index.html"))
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: workspace.path + "/reports")
                .sorted() == files)
        for file in files {
            #expect(
                FileManager.default.contents(atPath: workspace.path + "/reports-whole/" + file)
                    == FileManager.default.contents(atPath: workspace.path + "/reports/" + file),
                "\(file)")
        }
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
        let validate = try StatementsRunner.run(["validate", "SampleData/good", "--shard", "1/2"])
        #expect(validate.status == 2)
    }
}
