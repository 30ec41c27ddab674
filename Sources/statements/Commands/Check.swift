import StatementKit

/// `statements check`: verifies a whole ledger against its checksums; never writes.
enum Check: Command {
    static let name = "check"
    static let summary = "verify the ledger against its checksums"

    static let usage = """
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
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["state", "format"], flagOptions: [], console: console)
        guard options.positionals.isEmpty else {
            throw .usage("check takes no PATH")
        }
        let format = try options.choice("format", default: LedgerCheckRenderer.Format.text)
        var standardOutput = console.output
        var standardError = console.error
        let storage = StorageController(
            folder: try StateFolder.existing(StateFolder.path(options, console: console)))
        var outcome = LedgerCheckRenderer.Outcome(folder: storage.folder)
        let status: Int32
        do {
            let (problems, months) = try storage.check()
            outcome.problems = problems.map { "\($0)" }
            outcome.monthsChecked = months
            if problems.isEmpty {
                outcome.outOfBalance = try StateController(storage: storage)
                    .accountsOutOfBalance().map { ($0, $1) }
            }
            status =
                !problems.isEmpty
                ? ExitCode.environment
                : outcome.outOfBalance.isEmpty ? ExitCode.success : ExitCode.dataError
        } catch {
            throw .environment("\(error)")
        }
        LedgerCheckRenderer(format: format).render(
            outcome, exitStatus: status, diagnostics: &standardError, results: &standardOutput)
        return status
    }
}
