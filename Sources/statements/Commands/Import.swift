import StatementKit

/// `statements import PATH...`: adds new transactions to the ledger, each exactly once.
enum Import: Command {
    static let name = "import"
    static let summary = "add new transactions to the ledger, each exactly once"

    static let usage = """
        USAGE: statements import PATH... [--state DIR] [--profile FILE] [--account ID]
                                         [--dry-run]

        Imports statement files (CSV and JSON) and folders into the ledger. Each transaction is
        stored once, however often a file is delivered or exports overlap. A file with any error
        is rejected whole (its diagnostics on stderr, as validate prints them); the other files
        still import. All accepted files become visible together in one atomic commit.

        OPTIONS:
          --state DIR     the ledger folder (default: $STATEMENTS_STATE, else ./ledger);
                          created on first import
          --dry-run       report what would be imported; write nothing
          --profile FILE  read every CSV file in this bank dialect (as in validate)
          --account ID    the account of CSV files that do not name their own (as in
                          validate)
          -h, --help      show this help

        EXIT STATUS: 0 every file imported or already present, 1 a file was rejected,
        2 usage error, 3 state folder locked by another run or unwritable, or a path unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["state", "profile", "account"], flagOptions: ["dry-run"])
        let files = try options.statementFiles(of: "import")
        var standardError = console.error
        var standardOutput = console.output
        let state = StateController(storage: StorageController(folder: StateFolder.path(options)))
        let report: ImportReport
        do {
            report = try state.importFiles(files, dryRun: options.has("dry-run"))
        } catch {
            throw .environment("\(error)")
        }
        ImportReportRenderer().render(report, diagnostics: &standardError, results: &standardOutput)
        if report.hasEnvironmentError { return ExitCode.environment }
        return report.rejectedCount > 0 ? ExitCode.dataError : ExitCode.success
    }
}
