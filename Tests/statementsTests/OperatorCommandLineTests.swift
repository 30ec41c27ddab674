import Foundation
import Testing

/// What an operator running `statements` from a script notices (issue #36, items 7 and 8):
/// JSON on every command, fatal errors included; `--color` everywhere; bundled short flags;
/// `-V`; summaries that say what happened; accounts named by their names; `COLUMNS`; one
/// label for an account without a name.
@Suite struct OperatorCommandLineTests {
    /// A ledger of `SampleData/good`.
    static func ledger() throws -> Workspace {
        let workspace = try Workspace()
        let output = try StatementsRunner.run([
            "import", "SampleData/good", "-s", workspace.state, "-q",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        return workspace
    }

    /// The one JSON object `output` holds on stdout.
    static func object(_ output: StatementsRunner.Output) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
        return try #require(value as? [String: Any], "\(output.stdout)")
    }

    @Test func `a usage or environment error with -f json is one JSON object on stdout`() throws {
        let workspace = try Workspace()
        let cases: [([String], Int32, String)] = [
            (["import", "-f", "json", "--bogus", "x"], 2, "unknown option '--bogus'"),
            (["process", "x", "--format=json", "-m", "x"], 2, "unknown option '-m'"),
            (["report", "-fjson", "-m", "2026-13", "-s", workspace.path], 2, "--month must be"),
            (["accounts", "-f", "json", "-s", workspace.path + "/none"], 3, "no ledger at"),
            (["register", "-qf", "json"], 2, "unknown option '-q'"),
            (["check", "--format", "json", "-s", workspace.path + "/none"], 3, "no ledger at"),
            (["vaildate", "-f", "json"], 2, "unknown command 'vaildate'; did you mean"),
        ]
        for (arguments, status, message) in cases {
            let output = try StatementsRunner.run(arguments)
            #expect(output.status == status, "\(arguments)")
            let object = try Self.object(output)
            #expect(object["exitStatus"] as? Int == Int(status), "\(arguments)")
            #expect(object["code"] as? String == (status == 2 ? "USAGE" : "ENVIRONMENT"))
            let text = try #require(object["message"] as? String)
            #expect(text.contains(message), "\(text)")
            // The person at the terminal still reads it on stderr.
            #expect(output.stderr.contains(message))
            #expect(output.stdout.split(separator: "\n").count == 1)
        }
        // A held lock (exit 3) too.
        let state = workspace.path + "/ledger"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let lock = open(state, O_RDONLY | O_DIRECTORY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let locked = try StatementsRunner.run(["import", "SampleData/good", "-s", state, "-fjson"])
        #expect(locked.status == 3)
        #expect(try Self.object(locked)["exitStatus"] as? Int == 3)
    }

    @Test func `profile -f json prints JSON whatever the file`() throws {
        for file in [
            "SampleData/formats/ofx2-savings.ofx", "SampleData/good/2026-10-household.csv",
        ] {
            let output = try StatementsRunner.run(["profile", file, "-f", "json"])
            #expect(output.status == 0, "\(output.stderr)")
            _ = try Self.object(output)
        }
        let bank = try StatementsRunner.run([
            "profile", "-fjson", "SampleData/formats/ofx2-savings.ofx",
        ])
        #expect(try Self.object(bank)["profileNeeded"] as? Bool == false)
    }

    @Test func `check prints its findings as JSON`() throws {
        let workspace = try Self.ledger()
        let sound = try StatementsRunner.run(["check", "-s", workspace.state, "-f", "json"])
        #expect(sound.status == 0, "\(sound.stderr)")
        let object = try Self.object(sound)
        #expect(object["sound"] as? Bool == true)
        #expect(object["accountMonthsChecked"] as? Int == 6)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
        #expect(object["exitStatus"] as? Int == 0)
        #expect(sound.stderr == "")
        // Damage: a committed byte changed.
        let handle = try #require(FileHandle(forUpdatingAtPath: workspace.state + "/transactions"))
        try handle.seek(toOffset: 0)
        handle.write(Data("#".utf8))
        try handle.close()
        let damaged = try StatementsRunner.run(["check", "-s", workspace.state, "-fjson"])
        #expect(damaged.status == 3)
        let report = try Self.object(damaged)
        #expect(report["sound"] as? Bool == false)
        #expect((report["problems"] as? [String])?.isEmpty == false)
        #expect(report["exitStatus"] as? Int == 3)
    }

    @Test func `every command takes --color`() throws {
        let workspace = try Self.ledger()
        let state = workspace.state
        let commands: [[String]] = [
            ["accounts", "-s", state], ["register", "-s", state], ["check", "-s", state],
            ["report", "-s", state, "-o", workspace.path + "/reports", "-q"],
            ["validate", "SampleData/good", "-q"], ["completions", "bash"], ["man"],
            ["profile", "SampleData/good/2026-10-household.csv"],
        ]
        for command in commands {
            for choice in ["never", "always"] {
                let output = try StatementsRunner.run(command + ["--color", choice])
                #expect(output.status == 0, "\(command): \(output.stderr)")
            }
        }
        let wrong = try StatementsRunner.run(["accounts", "-s", state, "--color=sometimes"])
        #expect(wrong.status == 2)
        #expect(
            wrong.stderr.contains("--color must be one of auto, always, never, not 'sometimes'"))
    }

    @Test func `short flags bundle as POSIX utilities take them`() throws {
        let workspace = try Self.ledger()
        let dryRunVerbose = try StatementsRunner.run([
            "import", "-nv", "-s", workspace.state, "SampleData/good",
        ])
        #expect(dryRunVerbose.status == 0, "\(dryRunVerbose.stderr)")
        #expect(dryRunVerbose.stdout.contains("already present  SampleData/good/2026-10-gulf.json"))
        let twice = try StatementsRunner.run(["validate", "-vv", "SampleData/good"])
        #expect(twice.status == 0)
        let both = try StatementsRunner.run(["validate", "-qv", "SampleData/good"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give --quiet or --verbose, not both"))
        #expect(!both.stderr.contains("takes no value"))
        // A letter that takes a value ends the word: `-qj2` is `-q -j 2`; `-qj 2` too.
        for arguments in [["-qj2"], ["-qj", "2"], ["-q", "-fjson"]] {
            let output = try StatementsRunner.run(["validate", "SampleData/good"] + arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
        }
        let unknown = try StatementsRunner.run(["validate", "-qx", "SampleData/good"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown option '-x' (in '-qx')"))
    }

    @Test func `-V prints the version, and accounts --help lists its short options`() throws {
        let version = try StatementsRunner.run(["-V"])
        #expect(version.status == 0)
        #expect(version.stdout == (try StatementsRunner.run(["--version"])).stdout)
        #expect(version.stdout.hasPrefix("statements "))
        let help = try StatementsRunner.run(["accounts", "--help"])
        #expect(help.stdout.contains("  -s, --state DIR"))
        #expect(help.stdout.contains("  -f, --format text|json"))
    }

    @Test func `summaries say what happened when files are rejected or nothing is archived`() throws
    {
        let workspace = try Workspace()
        let rejected = try StatementsRunner.run([
            "process", "SampleData/bad/iban-checksum.csv", "-s", workspace.state, "-o",
            workspace.path + "/reports", "--archive", workspace.path + "/archive",
        ])
        #expect(rejected.status == 1)
        #expect(rejected.stdout.contains("nothing imported: 1 file rejected\n"))
        #expect(!rejected.stdout.contains("0 transactions of 0 files"))
        #expect(!rejected.stdout.contains("archived 0 files"))
        let partly = try StatementsRunner.run([
            "import", "SampleData/bad/iban-checksum.csv", "SampleData/good/2026-10-savings.json",
            "-s", workspace.state,
        ])
        #expect(partly.status == 1)
        #expect(
            partly.stdout.contains(
                "added 2 new transactions from 1 file, 0 already present, 1 file rejected"))
    }

    @Test func `--account takes an account's name as well as its id`() throws {
        let workspace = try Self.ledger()
        let byName = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "Household", "-f", "csv",
        ])
        let byID = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "DE89370400440532013000", "-f", "csv",
        ])
        #expect(byName.status == 0, "\(byName.stderr)")
        #expect(byName.stdout == byID.stdout)
        #expect(byName.stdout.components(separatedBy: "\r\n").count == 13)
        let anyCase = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "household",
        ])
        #expect(anyCase.status == 0)
        let missing = try StatementsRunner.run(["register", "-s", workspace.state, "-a", "Housee"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no account named 'Housee' in the ledger at"))
        #expect(!missing.stderr.contains("IBAN registry"))
        let report = try StatementsRunner.run([
            "report", "-s", workspace.state, "-a", "Holiday savings", "-o", "-",
            "--report-format", "text",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("NL91 ABNA 0417 1643 00"))
        // A mistyped IBAN still says what is wrong with it.
        let typo = try StatementsRunner.run(["register", "-s", workspace.state, "-a", "DE00 1234"])
        #expect(typo.status == 2)
        #expect(!typo.stderr.contains("no account named"))
        // import and process: the account of a file without its own, by name.
        let file = try workspace.write(
            "bare.csv", "date,amount,beneficiary\n2026-11-02,-4.50,Bakery Blum\n")
        let imported = try StatementsRunner.run([
            "import", file, "-s", workspace.state, "-a", "Household",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let after = try StatementsRunner.run([
            "register", "-s", workspace.state, "-a", "DE89370400440532013000", "-m", "2026-11",
        ])
        #expect(after.stdout.contains("Bakery Blum"))
        let unknown = try StatementsRunner.run([
            "import", file, "-s", workspace.state, "-a", "Hosehold",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no account named 'Hosehold' in the ledger at"))
    }

    @Test func `register fits the table to COLUMNS`() throws {
        let workspace = try Self.ledger()
        for columns in [90, 100, 140] {
            let output = try StatementsRunner.run(
                ["register", "-s", workspace.state], environment: ["COLUMNS": "\(columns)"])
            #expect(output.status == 0)
            let widths = output.stdout.split(separator: "\n").map(\.count)
            #expect(widths.max() ?? 0 <= columns, "\(columns)")
            if columns == 90 { #expect(widths.max() ?? 0 > 80) }
        }
        let wide = try StatementsRunner.run(
            ["register", "-s", workspace.state], environment: ["COLUMNS": "140"])
        let narrow = try StatementsRunner.run(
            ["register", "-s", workspace.state], environment: ["COLUMNS": "100"])
        #expect(wide.stdout != narrow.stdout)
    }

    @Test func `an account without a name is labelled by its id everywhere`() throws {
        let workspace = try Self.ledger()
        let label = "CH93 0076 2011 6238 5295 7"
        let accounts = try StatementsRunner.run(
            ["accounts", "-s", workspace.state], environment: ["COLUMNS": "140"])
        let row = try #require(
            accounts.stdout.split(separator: "\n").first { $0.hasPrefix("CH93") })
        let cells = row.components(separatedBy: "  ").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        .filter { !$0.isEmpty }
        #expect(cells.prefix(3) == [label, label, "checking"], "\(row)")
        let register = try StatementsRunner.run(
            ["register", "-s", workspace.state, "-m", "2026-10"], environment: ["COLUMNS": "200"])
        // Cut to the column's 20 places, as every account's is.
        #expect(register.stdout.contains("  CH93 0076 2011 6238…  "))
        #expect(!register.stdout.contains("CH9300762011623852957"))
        let reports = workspace.path + "/reports"
        let report = try StatementsRunner.run(["report", "-s", workspace.state, "-o", reports])
        #expect(report.status == 0)
        let text = try String(
            contentsOfFile: reports + "/2026-10/CH9300762011623852957.txt", encoding: .utf8)
        #expect(text.hasPrefix("\(label) · "))
        let html = try String(
            contentsOfFile: reports + "/2026-10/CH9300762011623852957.html", encoding: .utf8)
        // In a name's style, its short last group kept with the one before it.
        #expect(
            html.contains(
                "<h1><span class=\"id\">CH93 0076 2011 6238 <span class=\"nobr\">5295 7</span></span> · "
            ))
    }
}
