import StatementKit

/// `statements process PATH...`: the nightly job: import, then report the changed months.
enum Process: Command {
    static let name = "process"
    static let summary = "the nightly job: import, then report the months that changed"

    static let usage = """
        USAGE: statements process PATH... [--state DIR] [--profile FILE] [--out DIR]
                                  [--format text|csv|html]... [--locale ID]

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
          --out DIR        the output folder (default: ./reports)
          --format FORMAT  text, csv or html; may be repeated (default: all three)
          --locale ID      how amounts and dates are written (default: en_US)
          -h, --help       show this help

        EXIT STATUS: as import: 0 success, 1 a file was rejected (the rest is imported and
        reported), 2 usage error, 3 state or output folder unusable, or a path unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ReportOptions.valueOptions.union(["state", "profile"]),
            flagOptions: [])
        let files = try options.statementFiles(of: "process")
        let report = try ReportOptions(options)
        var standardError = console.error
        var standardOutput = console.output
        let state = StateController(storage: StorageController(folder: StateFolder.path(options)))
        let imported: ImportReport
        let statements: [MonthlyStatement]
        let generation: Int
        do {
            // Reports that reflect the ledger as it was before this run's import need only the
            // months it changes; after a run that died before its reports were written, or an
            // import by another run, every month is redone. Both generations are read under
            // the import's lock, so that no other run's import can slip between them.
            imported = try state.importFiles(files)
            let reportsAreCurrent =
                report.controller.reportedGeneration() == imported.generations.before
            generation = imported.generations.after
            let months = reportsAreCurrent ? imported.changedMonths : try state.allMonths()
            statements = try state.monthlyStatements(months: months)
        } catch {
            throw .environment("\(error)")
        }
        ImportReportRenderer().render(
            imported, diagnostics: &standardError, results: &standardOutput)
        _ = try report.publish(statements, generation: generation, console: console)
        if imported.hasEnvironmentError { return ExitCode.environment }
        return imported.rejectedCount > 0 ? ExitCode.dataError : ExitCode.success
    }
}
