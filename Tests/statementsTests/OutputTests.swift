import Foundation
import Testing

/// What the commands print for the people who run them: summaries, `-q`/`-v`, short flags,
/// standard input, colour and progress on a terminal, JSON summaries, `--max-diagnostics`.
@Suite struct OutputTests {
    static let good =
        "date,account_iban,amount,beneficiary\n2026-10-02,DE89370400440532013000,12.50,Shop\n"

    /// Runs `statements` on a pseudo-terminal (`script`), as a user at a terminal would; its
    /// stdout and stderr both arrive in the one output.
    static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:])
        throws -> StatementsRunner.Output
    {
        let command = ([StatementsRunner.executable.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = StatementsRunner.packageRoot
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        env["TERM"] = "xterm"
        env.merge(environment) { $1 }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return StatementsRunner.Output(
            status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
            stderr: "")
    }

    @Test func `says a nightly no-op plainly, lists files only when verbose, nothing when quiet`()
        throws
    {
        let workspace = try Workspace()
        let run = [
            "process", "SampleData/good", "-s", workspace.state, "-o", workspace.path + "/r",
        ]
        let first = try StatementsRunner.run(run)
        #expect(first.status == 0)
        #expect(
            first.stdout == """
                added 25 new transactions from 5 files, 0 already present
                wrote 20 report files (0 unchanged) to \(workspace.path)/r/ (2026-10)

                """)
        let again = try StatementsRunner.run(run + ["-v"])
        #expect(again.stdout.split(separator: "\n").count == 7)
        #expect(
            again.stdout.contains(
                "already present  SampleData/good/2026-10-savings.json: 2 transactions"
                    + " (unchanged since imported, not read again)\n"))
        #expect(again.stdout.hasSuffix("no report files to write\n"))
        let quiet = try StatementsRunner.run(run + ["--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "")
        #expect(quiet.stderr == "")
        let both = try StatementsRunner.run(run + ["-q", "-v"])
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("statements process: error: give --quiet or --verbose"))
    }

    @Test func `takes the short forms of the common options`() throws {
        let workspace = try Workspace()
        let json = try StatementsRunner.run(["validate", "-j1", "-f", "json", "SampleData/good"])
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix("{\n  \"files\": ["))
        let imported = try StatementsRunner.run([
            "import", "-n", "-s", workspace.state, "-a", "DE89370400440532013000",
            "SampleData/exports/eu-revolut/eu-revolut.csv",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("would add 5 new transactions from 1 file"))
        #expect(!FileManager.default.fileExists(atPath: workspace.state))
        _ = try StatementsRunner.run(["import", "-s", workspace.state, "SampleData/good"])
        let report = try StatementsRunner.run([
            "report", "-s", workspace.state, "-m", "2026-10", "-a", "NL91ABNA0417164300",
            "--report-format", "csv", "-o", "-",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.hasPrefix("date,"))
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state, "-f", "json"])
        #expect(accounts.stdout.hasPrefix("["))
    }

    @Test func `reads standard input as '-', named by --stdin-name`() throws {
        let workspace = try Workspace()
        let bad = try String(
            contentsOfFile: StatementsRunner.packageRoot.path
                + "/SampleData/bad/amount-precision.csv", encoding: .utf8)
        let validation = try StatementsRunner.run(["validate", "-"], input: bad)
        #expect(validation.status == 1)
        #expect(validation.stderr.hasPrefix("<stdin>:3:35: error: [AMOUNT_PRECISION]"))
        let named = try StatementsRunner.run(
            ["validate", "--stdin-name", "oct.csv", "-", "-f", "json"], input: bad)
        #expect(named.stdout.contains("\"file\": \"oct.csv\", \"line\": 3, \"column\": 35"))
        // The name's extension says the format where the content does not: JSON by name.
        let json = try String(
            contentsOfFile: StatementsRunner.packageRoot.path
                + "/SampleData/good/2026-10-savings.json", encoding: .utf8)
        let imported = try StatementsRunner.run(
            ["import", "-", "-s", workspace.state, "-v"], input: json)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported  <stdin>: 2 new transactions"))
        let twice = try StatementsRunner.run(["validate", "-", "-"], input: json)
        #expect(twice.status == 2)
        // Nothing of the copy is left behind.
        let temporary = try FileManager.default.contentsOfDirectory(
            atPath: FileManager.default.temporaryDirectory.path)
        #expect(!temporary.contains { $0.hasPrefix("statements-stdin-") })
    }

    @Test func `shows at most --max-diagnostics per file, and counts every code`() throws {
        let workspace = try Workspace()
        var text = "date,account_iban,amount,beneficiary\n"
        for day in 1...150 {
            let date = day % 28 + 1
            text += "2026-10-\(date < 10 ? "0" : "")\(date),DE89370400440532013000,1.234,Shop\n"
        }
        text += "2026-13-01,DE89370400440532013000,1.00,Shop\n"
        let file = try workspace.write("bad.csv", text)
        let standard = try StatementsRunner.run(["validate", file])
        #expect(standard.stderr.split(separator: "\n").count == 101)
        #expect(
            standard.stderr.hasSuffix(
                "note: 51 more diagnostics not shown (--max-diagnostics 0 shows all)\n"))
        #expect(
            standard.stdout == """
                151 errors in 1 of 1 file (151 rows checked)
                  150 × AMOUNT_PRECISION, 1 × DATE_INVALID

                """)
        let all = try StatementsRunner.run(["validate", "--max-diagnostics", "0", file])
        #expect(all.stderr.split(separator: "\n").count == 151)
        let five = try StatementsRunner.run(["validate", "--max-diagnostics=5", "-f", "json", file])
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(five.stdout.utf8)) as? [String: Any])
        #expect((document["diagnostics"] as? [Any])?.count == 5)
        let imported = try StatementsRunner.run([
            "import", file, "-s", workspace.state, "--max-diagnostics", "2",
        ])
        #expect(imported.status == 1)
        #expect(imported.stderr.split(separator: "\n").count == 3)
        #expect(imported.stdout.hasSuffix("  150 × AMOUNT_PRECISION, 1 × DATE_INVALID\n"))
        let negative = try StatementsRunner.run(["validate", "--max-diagnostics", "-1", file])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--max-diagnostics must be a number of 0 or more"))
    }

    @Test func `colours diagnostics on a terminal unless NO_COLOR or --color never`() throws {
        let file = "SampleData/bad/amount-precision.csv"
        let red = "\u{1B}[1;31merror:\u{1B}[0m"
        #expect(try Self.runOnTerminal(["validate", file]).stdout.contains(red))
        #expect(
            !(try Self.runOnTerminal(["validate", file], environment: ["NO_COLOR": "1"]).stdout
                .contains("\u{1B}[1")))
        #expect(
            !(try Self.runOnTerminal(["validate", "--color", "never", file]).stdout.contains(red)))
        // Not a terminal: plain, unless asked.
        #expect(!(try StatementsRunner.run(["validate", file]).stderr.contains("\u{1B}")))
        #expect(
            try StatementsRunner.run(["validate", "--color=always", file]).stderr.contains(red))
        #expect(try StatementsRunner.run(["validate", "--color", "blue", file]).status == 2)
    }

    @Test func `draws progress on a terminal only, and erases it`() throws {
        let workspace = try Workspace()
        let terminal = try Self.runOnTerminal([
            "process", "SampleData/good", "-s", workspace.state, "-o", workspace.path + "/r",
        ])
        #expect(terminal.status == 0)
        let erase = "\r\u{1B}[K"
        #expect(terminal.stdout.contains(erase + "reading 0 of 5 files"))
        #expect(terminal.stdout.contains(erase + "saving the ledger (6 account-months)"))
        #expect(terminal.stdout.contains(erase + "writing reports 0 of 18 files"))
        // Each drawing is erased before the summary lines.
        #expect(terminal.stdout.contains(erase + "added 25 new transactions"))
        #expect(terminal.stdout.contains(erase + "wrote 20 report files"))
        let piped = try StatementsRunner.run([
            "validate", "SampleData/good", "SampleData/formats",
        ])
        #expect(!piped.stderr.contains("\r"))
        let quiet = try Self.runOnTerminal(["validate", "-q", "SampleData/good"])
        #expect(quiet.stdout == "")
    }

    @Test func `writes a JSON summary of import and process`() throws {
        let workspace = try Workspace()
        let imported = try StatementsRunner.run([
            "import", "SampleData/good/2026-10-savings.json", "SampleData/bad/date-invalid.csv",
            "-s", workspace.state, "-f", "json",
        ])
        #expect(imported.status == 1)
        let document = try #require(
            JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.map { $0["outcome"] as? String } == ["imported", "rejected"])
        #expect(files[0]["new"] as? Int == 2)
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["new"] as? Int == 2)
        #expect(summary["rejected"] as? Int == 1)
        #expect(summary["codes"] as? [String: Int] == ["DATE_INVALID": 1])
        #expect((document["diagnostics"] as? [[String: Any]])?.first?["line"] as? Int == 3)

        let processed = try StatementsRunner.run([
            "process", "SampleData/good", "-s", workspace.state, "-o", workspace.path + "/r",
            "--format", "json", "--report-format", "csv",
        ])
        #expect(processed.status == 0, "\(processed.stderr)")
        let run = try #require(
            JSONSerialization.jsonObject(with: Data(processed.stdout.utf8)) as? [String: Any])
        let importPart = try #require(run["import"] as? [String: Any])
        #expect((importPart["summary"] as? [String: Any])?["new"] as? Int == 23)
        let reports = try #require(run["reports"] as? [String: Any])
        #expect(reports["months"] as? [String] == ["2026-10"])
        #expect((reports["written"] as? [String])?.count == 6)
        #expect(run["archived"] as? [Any] != nil)
        let old = try StatementsRunner.run([
            "process", "SampleData/good", "-s", workspace.state, "--format", "html",
        ])
        #expect(old.status == 2)
        #expect(old.stderr.contains("the statements' formats are --report-format html"))
    }

    @Test func `says what process would do in a dry run, and does nothing`() throws {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "process", "SampleData/good", "-s", workspace.state, "-o", workspace.path + "/r",
            "--dry-run", "--archive", workspace.path + "/archive",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                would add 25 new transactions from 5 files, 0 already present
                would archive 5 files to \(workspace.path)/archive/
                would write the statements of 1 month (2026-10) to \(workspace.path)/r/

                """)
        for folder in ["/ledger", "/r", "/archive"] {
            #expect(!FileManager.default.fileExists(atPath: workspace.path + folder))
        }
    }

    @Test func `moves committed files to --archive, and only those, safely when run again`()
        throws
    {
        let workspace = try Workspace()
        let inbox = workspace.path + "/inbox"
        try FileManager.default.createDirectory(
            atPath: inbox + "/bank", withIntermediateDirectories: true)
        _ = try workspace.write("inbox/bank/a.csv", Self.good)
        let bad = try String(
            contentsOfFile: StatementsRunner.packageRoot.path + "/SampleData/bad/date-invalid.csv",
            encoding: .utf8)
        _ = try workspace.write("inbox/bad.csv", bad)
        let archive = workspace.path + "/archive"
        let run = [
            "process", inbox, "-s", workspace.state, "-o", workspace.path + "/r", "--archive",
            archive,
        ]
        let first = try StatementsRunner.run(run + ["-v"])
        #expect(first.status == 1)
        #expect(first.stdout.contains("archived  \(inbox)/bank/a.csv -> \(archive)/bank/a.csv\n"))
        #expect(first.stdout.contains("archived 1 file to \(archive)/\n"))
        let manager = FileManager.default
        #expect(manager.fileExists(atPath: archive + "/bank/a.csv"))
        #expect(!manager.fileExists(atPath: inbox + "/bank/a.csv"))
        #expect(manager.fileExists(atPath: inbox + "/bad.csv"))
        // A run killed after linking into the archive and before unlinking from the inbox:
        // the next run adds nothing and only removes the inbox copy.
        try manager.removeItem(atPath: inbox + "/bad.csv")
        _ = try workspace.write("inbox/bank/a.csv", Self.good)
        let again = try StatementsRunner.run(run)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("nothing new: the 1 transaction of 1 file is in the ledger"))
        #expect(!manager.fileExists(atPath: inbox + "/bank/a.csv"))
        #expect(try manager.contentsOfDirectory(atPath: archive + "/bank") == ["a.csv"])
        // Another file under a name the archive holds already gets the next free name.
        _ = try workspace.write(
            "inbox/bank/a.csv", Self.good.replacingOccurrences(of: "12.50", with: "7.00"))
        let other = try StatementsRunner.run(run)
        #expect(other.status == 0)
        #expect(
            try manager.contentsOfDirectory(atPath: archive + "/bank").sorted() == [
                "a-2.csv", "a.csv",
            ])
        let accounts = try StatementsRunner.run(["accounts", "-s", workspace.state])
        #expect(accounts.stdout.contains("19.50"))
    }

    @Test func `rejects a file with warnings under --strict in import too, the same on one core`()
        throws
    {
        let workspace = try Workspace()
        let file = "SampleData/bad/column-unknown.csv"
        let strict = try StatementsRunner.run(["import", "--strict", file, "-s", workspace.state])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("error: [COLUMN_UNKNOWN]"))
        let lenient = try StatementsRunner.run(["import", "-j", "1", file, "-s", workspace.state])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("warning: [COLUMN_UNKNOWN]"))
        let zero = try StatementsRunner.run(["import", "-j", "0", file])
        #expect(zero.status == 2)
    }

    @Test func `names the system's reason when an output folder cannot be made`() throws {
        let workspace = try Workspace()
        _ = try StatementsRunner.run(["import", "SampleData/good", "-s", workspace.state])
        let blocker = try workspace.write("blocker", "")
        let output = try StatementsRunner.run([
            "report", "-s", workspace.state, "-o", blocker + "/reports",
        ])
        #expect(output.status == 3)
        #expect(
            output.stderr
                == "statements report: error: cannot create folder \(blocker)/reports: Not a directory\n"
        )
    }
}
