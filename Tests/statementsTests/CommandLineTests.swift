import Foundation
import Testing

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
                  report             write monthly statements as text, CSV and HTML
                  process PATH...    the nightly job: import, then report the months that changed
                  profile FILE       work out a bank export's dialect and print it as a profile
                  check              verify the ledger against its checksums

                Run 'statements <command> --help' for a command's options.
                OPTIONS: -h, --help  show this help;  --version  print the version

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
                USAGE: statements check [--state DIR]

                Verifies the ledger: the manifest's end line and checksum, and every month file's
                committed bytes and identity index against the lengths and checksums the manifest
                records. Prints each problem with the file it is in. Reads without locking or
                writing. Every other command refuses to write to a ledger found damaged; to repair
                one, restore the state folder from a backup, or import the statement files into a
                new ledger (the ledger holds nothing that is not in them).

                OPTIONS:
                  --state DIR  the ledger folder (default: $STATEMENTS_STATE, else ./ledger)
                  -h, --help   show this help

                EXIT STATUS: 0 the ledger is sound, 2 usage error, 3 the ledger is damaged or cannot
                be read.

                """)
    }

    @Test(arguments: [
        ["validate", "-q", "SampleData/good"], ["import", "-j", "2", "x.csv"], ["accounts", "-s"],
    ])
    func `takes an unknown short option for a usage error, not a path`(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "statements \(arguments[0]): error: unknown option '\(arguments[1])'\n\nUSAGE: statements \(arguments[0])"
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
        let result = Self.run(["report", "--state", folder, "--out", "-", "--format", "text"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "statements report: error: --out - needs exactly one account, month and format\n\nUSAGE: statements report"
            ))
    }

    @Test func `refuses an unknown command with the help`() {
        let result = Self.run(["valdate"])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "statements: error: unknown command 'valdate'\n\nstatements 0.1.0"))
    }
}
