import StatementKit

/// `statements import PATH...`: adds new transactions to the ledger, each exactly once.
enum Import: Command {
    static let name = "import"
    static let summary = "add new transactions to the ledger, each exactly once"

    static let usage = """
        USAGE: statements import PATH... [-s DIR] [-n] [-f text|json] [-q|-v] [--strict]
                                         [-j N] [-p FILE] [-a ID] [--max-diagnostics N]
                                         [--shard K/N] [--wait[=SECONDS]]

        Imports statement files and folders (found as validate finds them; '-' reads standard
        input) into the ledger. Each transaction is stored once, however often a file is
        delivered or exports overlap. A file with any error is rejected whole (its
        diagnostics on stderr, as validate prints them); the other files still import. All
        accepted files become visible together in one atomic commit. Every balance a file
        states is kept as an assertion and checked, with every earlier one, after the rows
        are merged: a balance the ledger does not hold is a BALANCE_ASSERTION error, the rows
        stay, and the account is out of balance until a later import makes it hold.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger); created on first import
          -n, --dry-run              report what would be imported; write nothing
          -f, --format text|json     a summary (default) or one JSON document on stdout
          -q, --quiet                print errors only
          -v, --verbose              print a line per file
        \(ReadOptions.help)
        \(ReadOptions.shardHelp)
        \(StateFolder.waitHelp)
          -h, --help                 show this help

        EXIT STATUS: 0 every file imported or already present, 1 a file was rejected or an
        account the run touched is out of balance, 2 usage error, 3 state folder locked by another run or unwritable, or a path unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments,
            valueOptions: ReadOptions.valueOptions.union(Output.valueOptions)
                .union(["state", "format", "shard"]),
            flagOptions: ReadOptions.flagOptions.union(Output.flagOptions).union([
                "dry-run", "wait",
            ]),
            console: console)
        let format = try options.choice("format", default: ImportReportRenderer.Format.text)
        let output = try Output(options, console: console)
        let read = try ReadOptions(
            options, command: name, ledger: StateFolder.path(options, console: console))
        let state = StateController(storage: try StateFolder.storage(options, console: console))
        let report = try importFiles(
            read, into: state, isDryRun: options.has("dry-run"), output: output, console: console)
        var standardError = console.error
        var standardOutput = console.output
        let renderer = ImportReportRenderer(verbosity: output.verbosity, style: output.style)
        switch format {
        case .text:
            renderer.render(report, diagnostics: &standardError, results: &standardOutput)
        case .json:
            print(renderer.json(report), to: &standardOutput)
        }
        return exitStatus(report)
    }

    /// Imports the files into the ledger, with progress on a terminal: the part of `import`
    /// that `process` shares.
    static func importFiles(
        _ read: ReadOptions, into state: StateController, isDryRun: Bool, output: Output,
        console: Console
    ) throws(CommandError) -> ImportReport {
        let progress = output.progress(console)
        defer { progress?.finish() }
        state.reading = read.settings
        state.reading.progress = progress?.handler
        do throws(StorageError) {
            return try state.importFiles(read.files, dryRun: isDryRun)
        } catch {
            throw .environment("\(error)")
        }
    }

    /// The exit status of an import: 3 for an unreadable path, 1 for a rejected file or an
    /// account the run touched that is out of balance with its bank.
    static func exitStatus(_ report: ImportReport) -> Int32 {
        if report.hasEnvironmentError { return ExitCode.environment }
        return report.rejectedCount > 0 || report.isOutOfBalance
            ? ExitCode.dataError : ExitCode.success
    }
}
