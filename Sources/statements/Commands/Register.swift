import StatementKit

/// `statements register`: the ledger's transactions with running balances, on the terminal.
enum Register: Command {
    static let name = "register"
    static let summary = "list transactions with running balances; writes no files"

    static let usage = """
        USAGE: statements register [-s DIR]... [-a ID]... [-m YYYY-MM | --from YYYY-MM --to YYYY-MM]
                                   [--match TEXT] [-f text|csv|json]

        Lists the ledger's transactions by date, each with its account's balance after it, as
        a table as wide as $COLUMNS (default 100; long texts cut with …), CSV or JSON. The
        balance is the account's, whatever --match leaves out. Reads the ledger without
        locking or writing it.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger); repeated, several ledgers read as one
                                     (no account may be in two)
          -a, --account ID|NAME      only this account (an IBAN, scheme:value or the
                                     account's name); may be repeated
          -m, --month YYYY-MM        only this month (default: every month)
          --from/--to YYYY-MM        a range of months, both included
          --match TEXT               only transactions whose beneficiary, description,
                                     reference or transaction id contains TEXT (any case)
          -f, --format text|csv|json  a table (default), CSV or a JSON array
          -h, --help                 show this help

        EXIT STATUS: 0 success, 2 usage error, 3 the ledger cannot be read.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: LedgerSelection.valueOptions.union(["match", "format"]),
            flagOptions: [], console: console)
        try options.expectNoPaths(name)
        let format = try options.choice("format", default: RegisterRenderer.Format.text)
        let selection = try LedgerSelection(options, console: console)
        let state = selection.state
        let statements =
            try selection.statements(defaultMonths: { () throws(StorageError) in
                try state.allMonths()
            }) ?? []
        var standardOutput = console.output
        RegisterRenderer(format: format, width: terminalWidth(console)).render(
            StatementKit.Register(statements, matching: options.value("match")),
            into: &standardOutput)
        return ExitCode.success
    }

    /// The width of the table: `$COLUMNS` when it is a positive number (as `ls` reads it),
    /// else 100.
    static func terminalWidth(_ console: Console) -> Int {
        guard let columns = console.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0
        else { return TextStatementRenderer.maximumWidth }
        return columns
    }
}
