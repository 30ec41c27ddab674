import StatementKit

/// `statements process PATH...`: the nightly job: import, then report the changed months.
enum Process: Command {
    static let name = "process"
    static let summary = "the nightly job: import, then report the months that changed"

    static let usage = """
        USAGE: statements process PATH... [--state DIR] [--profile FILE] [--account ID]
                                  [--out DIR] [--format text|csv|html]... [--locale ID]

        Imports the files as 'statements import' does, then writes the statements of every
        month the import changed (the months it added to, and later months of those accounts,
        whose opening balances moved), as 'statements report' does. Files whose content would
        not change keep their bytes and modification time. OUT/.statements-generation records
        which state of the ledger the reports reflect; when it is missing or behind (a new
        output folder, or a run killed before its reports were written), every month is
        written again.

        OPTIONS:
          --state DIR      the ledger folder (default: $STATEMENTS_STATE, else ./ledger)
          --profile FILE   read every CSV file in this bank dialect (as in validate)
          --account ID     the account of CSV files that do not name their own (as in
                           validate)
          --out DIR        the output folder (default: ./reports)
          --format FORMAT  text, csv or html; may be repeated (default: all three)
          --locale ID      how amounts and dates are written (default: en_US)
          -h, --help       show this help

        EXIT STATUS: as import: 0 success, 1 a file was rejected (the rest is imported and
        reported), 2 usage error, 3 state or output folder unusable, or a path unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments,
            valueOptions: ReportOptions.valueOptions.union(["state", "profile", "account"]),
            flagOptions: [])
        let files = try options.statementFiles(of: "process")
        let report = try ReportOptions(options)
        var standardError = console.error
        var standardOutput = console.output
        let state = StateController(storage: StorageController(folder: StateFolder.path(options)))
        let imported: ImportReport
        do throws(StorageError) {
            imported = try state.importFiles(files)
        } catch {
            throw .environment("\(error)")
        }
        // What the import did is said before anything else can fail.
        ImportReportRenderer().render(
            imported, diagnostics: &standardError, results: &standardOutput)
        let statements: [MonthlyStatement]
        do throws(StorageError) {
            let months = try state.monthsToReport(
                after: imported, reportedGeneration: report.controller.reportedGeneration())
            statements = try state.monthlyStatements(months: months)
        } catch {
            throw .environment("\(error)")
        }
        _ = try report.publish(
            statements, generation: imported.generations.after, console: console)
        if imported.hasEnvironmentError { return ExitCode.environment }
        return imported.rejectedCount > 0 ? ExitCode.dataError : ExitCode.success
    }
}
