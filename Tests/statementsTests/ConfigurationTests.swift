import Foundation
import Testing

/// The configuration file and the locale from the environment (issue #36, item 6): where the
/// file is found, what it may say, and the precedence flags > environment > file > defaults.
@Suite struct ConfigurationTests {
    static let savings = StatementsRunner.packageRoot.path + "/SampleData/good/2026-10-savings.json"

    /// Imports the savings sample from `folder` and returns the state folders that exist after.
    static func ledgers(
        in folder: String, _ arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> [String] {
        let output = try StatementsRunner.run(
            ["import", savings, "-q"] + arguments, environment: environment, in: folder)
        #expect(output.status == 0, "\(output.stderr)")
        return try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { FileManager.default.fileExists(atPath: folder + "/" + $0 + "/manifest") }
            .sorted()
    }

    /// A fresh folder with a `.statements.json` holding `settings`.
    static func project(_ settings: String) throws -> Workspace {
        let workspace = try Workspace()
        _ = try workspace.write(".statements.json", settings)
        return workspace
    }

    @Test func `the state folder: flag over environment over file over default`() throws {
        let bare = try Workspace()
        #expect(try Self.ledgers(in: bare.path) == ["ledger"])
        let file = try Self.project(#"{"state": "from-file"}"#)
        #expect(try Self.ledgers(in: file.path) == ["from-file"])
        let environment = try Self.project(#"{"state": "from-file"}"#)
        #expect(
            try Self.ledgers(
                in: environment.path, environment: ["STATEMENTS_STATE": "from-environment"])
                == ["from-environment"])
        let flag = try Self.project(#"{"state": "from-file"}"#)
        #expect(
            try Self.ledgers(
                in: flag.path, ["--state", "from-flag"],
                environment: ["STATEMENTS_STATE": "from-environment"]) == ["from-flag"])
    }

    @Test func `the file is found in a parent folder, and its paths are relative to it`() throws {
        let workspace = try Self.project(
            #"{"state": "books/ledger", "out": "books/reports", "reportFormats": ["csv"]}"#)
        let inner = workspace.path + "/inbox/2026"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let output = try StatementsRunner.run(["process", Self.savings], in: inner)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: workspace.path + "/books/ledger/manifest"))
        let reports = try FileManager.default.contentsOfDirectory(
            atPath: workspace.path + "/books/reports/2026-10")
        #expect(reports == ["NL91ABNA0417164300.csv"])
        // Every reading command finds the same ledger.
        let accounts = try StatementsRunner.run(["accounts"], in: inner)
        #expect(accounts.stdout.contains("Holiday savings"), "\(accounts.stderr)")
    }

    @Test func `--config, STATEMENTS_CONFIG, the user's file and --no-config`() throws {
        let workspace = try Workspace()
        let home = workspace.path + "/xdg"
        try FileManager.default.createDirectory(
            atPath: home + "/statements", withIntermediateDirectories: true)
        _ = try workspace.write("xdg/statements/config.json", #"{"state": "user"}"#)
        _ = try workspace.write("named.json", #"{"state": "named"}"#)
        _ = try workspace.write("given.json", #"{"state": "given"}"#)
        let xdg = ["XDG_CONFIG_HOME": home]
        // Paths of the user's file are relative to its folder.
        #expect(try Self.ledgers(in: workspace.path, environment: xdg) == [])
        #expect(FileManager.default.fileExists(atPath: home + "/statements/user/manifest"))
        let named = xdg.merging(["STATEMENTS_CONFIG": workspace.path + "/named.json"]) { $1 }
        #expect(try Self.ledgers(in: workspace.path, environment: named) == ["named"])
        #expect(
            try Self.ledgers(in: workspace.path, ["--config", "given.json"], environment: named)
                .contains("given"))
        let none = try Workspace()
        #expect(
            try Self.ledgers(in: none.path, ["--no-config"], environment: named) == ["ledger"])
        // A project's file wins over the user's.
        _ = try none.write(".statements.json", #"{"state": "project"}"#)
        #expect(try Self.ledgers(in: none.path, environment: xdg).contains("project"))
        let missing = try StatementsRunner.run(
            ["accounts", "--config", "nowhere.json"], in: workspace.path)
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("cannot read the configuration file 'nowhere.json'"))
    }

    @Test func `an unknown key or a wrong value is an error at its line and column`() throws {
        let workspace = try Self.project(
            """
            {
              "state": "ledger",
              "stat": "x"
            }
            """)
        let output = try StatementsRunner.run(["accounts"], in: workspace.path)
        #expect(output.status == 2)
        #expect(
            output.stderr.hasPrefix(
                "statements accounts: error: \(workspace.path)/.statements.json:3:3: unknown key \"stat\"; did you mean 'state'?"
            ))
        #expect(!output.stderr.contains("USAGE:"))
        let json = try StatementsRunner.run(["accounts", "-f", "json"], in: workspace.path)
        #expect(json.stdout.contains(#""code": "CONFIGURATION""#))
        _ = try workspace.write(".statements.json", "{\n  \"jobs\": \"four\"\n}\n")
        let wrong = try StatementsRunner.run(["validate", Self.savings], in: workspace.path)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains(".statements.json:2:3: \"jobs\" must be a number"))
        _ = try workspace.write(".statements.json", "{\"strict\": true,}")
        let syntax = try StatementsRunner.run(["validate", Self.savings], in: workspace.path)
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains(".statements.json:1:"))
    }

    @Test func `the file's other settings apply to the commands that take them`() throws {
        let workspace = try Self.project(
            #"{"strict": true, "maxDiagnostics": 1, "color": "never"}"#)
        let file = try workspace.write(
            "odd.csv",
            "date,account_iban,amount,beneficiary,colour\n2026-10-01,DE89370400440532013000,1.00,A,x\n"
        )
        let strict = try StatementsRunner.run(["validate", file], in: workspace.path)
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stderr.contains("error: [COLUMN_UNKNOWN]"))
        // accounts takes none of them, and is not troubled by them.
        let imported = try StatementsRunner.run(["import", Self.savings], in: workspace.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let accounts = try StatementsRunner.run(["accounts"], in: workspace.path)
        #expect(accounts.status == 0, "\(accounts.stderr)")
    }

    /// The first lines of the text statement of the savings sample, written with `arguments`.
    static func statementHeader(
        _ arguments: [String] = [], environment: [String: String], settings: String? = nil
    ) throws -> String {
        let workspace = try settings.map(Self.project) ?? Workspace()
        let output = try StatementsRunner.run(
            ["process", savings, "--report-format", "text", "-q"] + arguments,
            environment: environment, in: workspace.path)
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(
            contentsOfFile: workspace.path + "/reports/2026-10/NL91ABNA0417164300.txt",
            encoding: .utf8)
        return String(text.split(separator: "\n")[3])
    }

    @Test func `the locale comes from LC_ALL, LC_MONETARY or LANG when not given`() throws {
        let english = "Opening balance  €5,000.00"
        let german = "Anfangssaldo  5.000,00\u{A0}€"
        #expect(try Self.statementHeader(environment: [:]) == english)
        #expect(try Self.statementHeader(environment: ["LANG": "de_DE.UTF-8"]) == german)
        #expect(try Self.statementHeader(environment: ["LANG": "C.UTF-8"]) == english)
        #expect(try Self.statementHeader(environment: ["LANG": "POSIX"]) == english)
        #expect(
            try Self.statementHeader(environment: ["LANG": "en_US.UTF-8", "LC_MONETARY": "de_DE"])
                == german)
        #expect(
            try Self.statementHeader(environment: ["LC_ALL": "en_US", "LC_MONETARY": "de_DE"])
                == english)
        // The file's locale over the environment's, the flag's over the file's.
        let file = #"{"locale": "de_DE"}"#
        #expect(
            try Self.statementHeader(environment: ["LANG": "en_US.UTF-8"], settings: file)
                == german)
        #expect(
            try Self.statementHeader(["--locale", "en_US"], environment: [:], settings: file)
                == english)
    }
}
