import Foundation
import Testing

@testable import StatementKit
@testable import statements

/// The command line, run in-process through `Statements.run` (starting the binary adds
/// nothing here): help, usage errors and their exit statuses.
struct CommandLineTests {
    /// Runs a command line in-process; returns the exit status, stdout and stderr.
    static func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let (console, output, error) = Console.capturing()
        let status = Statements.run(arguments, console: console)
        return (status, output.text, error.text)
    }

    @Test func `prints the top-level help built from the command table`() {
        let result = Self.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                statements 0.1.0: bank statement files to a validated ledger and monthly statements.

                USAGE: statements <command> [options]

                COMMANDS:
                  validate PATH...   check statement files and folders, like a compiler
                  import PATH...     add new transactions to the ledger, each exactly once
                  accounts           list the ledger's accounts and balances
                  register           list transactions with running balances; writes no files
                  report             write monthly statements as text, CSV and HTML
                  export             write the ledger as an hledger, ledger-cli or beancount journal
                  process PATH...    the nightly job: import, then report the months that changed
                  undo               take back the last import (or process) that changed the ledger
                  forget FILE        take one imported file's transactions back out of the ledger
                  profile FILE       work out a bank export's dialect and print it as a profile
                  check              verify the ledger against its checksums
                  completions        print shell completions (bash, zsh, fish)
                  man                print the manual page (roff)

                Run 'statements <command> --help' for a command's options.
                OPTIONS: -h, --help  show this help;  -V, --version  print the version
                Every command takes --color auto|always|never, and -f json where it prints a
                result (a usage or environment error is then a JSON object on stdout too), and
                --config FILE or --no-config: settings come from the command line, then
                $STATEMENTS_STATE, then the first .statements.json in this folder or a parent (else
                $XDG_CONFIG_HOME/statements/config.json), then the defaults.

                """)
    }

    @Test func `prints each command's help verbatim`() {
        for command in Statements.commands {
            let result = Self.run([command.name, "--help"])
            #expect(result.status == 0)
            #expect(result.stdout == command.usage + "\n")
        }
        #expect(
            Self.run(["check", "--help"]).stdout == """
                USAGE: statements check [-s DIR] [-f text|json]

                Verifies the ledger: the manifest's end line and checksum, and every account-month's
                committed bytes and identity index against the lengths and checksums the manifest
                records, and its recorded sum and first and last day against its rows (reports carry
                balances from month to month by those sums); then whether every account agrees with the
                balances its bank stated (an account out of balance is a BALANCE_ASSERTION error, with
                since when and by how much). Prints each problem with the file it is in. Reads without
                locking or writing. Other commands verify what they rely on and write nothing past damage
                they find: every command the manifest; import, before it commits, the months whose
                statements it changes of the accounts it touches; process the same months of every
                account, and, when its output folder is behind the ledger, every month before it imports;
                report, register and accounts each month whose rows they read. Damage elsewhere is found
                here. To repair a ledger, restore the state folder from a backup, or import the statement
                files into a new ledger (the ledger holds nothing that is not in them).

                OPTIONS:
                  -s, --state DIR         the ledger folder (default: $STATEMENTS_STATE, else
                                          ./ledger)
                  -f, --format text|json  problems on stderr and a summary (default), or one JSON
                                          document on stdout
                  -h, --help              show this help

                EXIT STATUS: 0 the ledger is sound, 1 an account is out of balance with its bank,
                2 usage error, 3 the ledger is damaged, missing or cannot be read.

                """)
    }

    @Test(arguments: [
        ["validate", "-x", "SampleData/good"], ["import", "-z", "2", "x.csv"], ["accounts", "-j"],
        ["check", "-q"],
    ])
    func `takes an unknown short option for a usage error, not a path`(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "statements \(arguments[0]): error: unknown option '\(arguments[1])'"
            ))
        #expect(result.stdout == "")
    }

    @Test func `gives a usage error for --out - with several statements, not an environment error`()
        throws
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cli-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let root = StatementsRunner.packageRoot.path
        #expect(Self.run(["import", root + "/SampleData/good", "--state", folder]).status == 0)
        let result = Self.run([
            "report", "--state", folder, "--out", "-", "--report-format", "text",
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "statements report: error: --out - needs exactly one account, month and --report-format\nUSAGE: statements report"
            ))
    }

    @Test func `refuses an unknown command in two lines, with the nearest one`() {
        let result = Self.run(["valdate"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                statements: error: unknown command 'valdate'; did you mean 'validate'?
                Run 'statements --help' for the list of commands.

                """)
        #expect(
            Self.run(["frobnicate"]).stderr.hasPrefix(
                "statements: error: unknown command 'frobnicate'\n"))
    }

    @Test func `gives a short usage error that names the nearest option`() {
        let result = Self.run(["validate", "--strikt", "SampleData/good"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                statements validate: error: unknown option '--strikt'; did you mean '--strict'?
                USAGE: statements validate PATH... [-f text|json|github] [--strict] [-j N] [-q|-v]
                                                   [-p FILE] [-a ID] [--max-diagnostics N]
                                                   [--shard K/N] [--allow-empty]
                Run 'statements validate --help' for its options.

                """)
        #expect(
            Self.run(["report", "--mont=2026-10"]).stderr.hasPrefix(
                "statements report: error: unknown option '--mont=2026-10'; did you mean '--month'?\n"
            ))
        #expect(
            Self.run(["accounts", "--zzz"]).stderr.hasPrefix(
                "statements accounts: error: unknown option '--zzz'\n"))
    }

    @Test func `says there is no ledger at a mistyped --state, and creates none`() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cli-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in [["accounts"], ["report", "--month", "2026-10"]] {
            let result = Self.run(command + ["--state", folder + "/ledgr"])
            #expect(result.status == 3)
            #expect(
                result.stderr
                    == "statements \(command[0]): error: no ledger at '\(folder)/ledgr' (give --state DIR, or import statement files first)\n"
            )
        }
        let missing = Self.run(["import", folder + "/no-such.csv", "--state", folder + "/ledger"])
        #expect(missing.status == 3)
        #expect(!FileManager.default.fileExists(atPath: folder + "/ledger"))
        let root = StatementsRunner.packageRoot.path
        #expect(Self.run(["import", root + "/SampleData/good", "--state", folder]).status == 0)
        let unknown = Self.run([
            "report", "--state", folder, "--account", "DE02120300000000202051", "--out", "-",
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.hasPrefix(
                "statements report: error: no account DE02120300000000202051 in the ledger at '\(folder)' ('statements accounts' lists them)\n"
            ))
    }

    @Test func `shows a command's help for statements help COMMAND`() {
        let result = Self.run(["help", "validate"])
        #expect(result.status == 0)
        #expect(result.stdout == Validate.usage + "\n")
        #expect(Self.run(["help"]).stdout == Statements.usage + "\n")
        #expect(Self.run(["help", "valdate"]).status == 2)
    }

    @Test(
        arguments: [
            ("valdate", "validate"), ("improt", "import"), ("acounts", "accounts"),
            ("--stric", "--strict"),
            ("--for", "--format"), ("xyz", nil), ("--s", nil),
        ] as [(String, String?)])
    func `suggests a word only when it is near enough`(typed: String, expected: String?) {
        let known = [
            "validate", "import", "accounts", "report", "process", "--strict", "--format",
            "--state",
        ]
        #expect(Suggestion.closest(to: typed, among: known) == expected)
    }
}
