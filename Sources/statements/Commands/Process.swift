import StatementKit

/// `statements process PATH...`: the nightly job: import, then report the changed months.
enum Process: Command {
    static let name = "process"
    static let summary = "the nightly job: import, then report the months that changed"

    static let usage = """
        USAGE: statements process PATH... [-s DIR] [-o DIR] [--archive DIR] [--reject DIR]
                                  [-n] [-q|-v] [-f text|json] [--report-format text|csv|html]...
                                  [--locale ID] [--strict] [-j N] [-p FILE] [-a ID]
                                  [--max-diagnostics N] [--shard K/N] [--bom] [--wait[=SECONDS]]

        Imports the files as 'statements import' does, then writes the statements of every
        month the import changed (the months it added to, and later months of those accounts,
        whose opening balances moved), as 'statements report' does. Files whose content would
        not change keep their bytes and modification time. OUT/.statements-generation records
        which state of the ledger the reports reflect; when it is missing or behind (a new
        output folder, or a run killed before its reports were written), every month is
        written again; so is every month with a report file that is missing or changed since
        process wrote it (OUT/.statements-files records each file's size, time and hash: a
        nightly run stats each file and reads none that is unchanged). With --shard, the
        parts of a ledger split by account may process into one output folder, at once or
        one after another: each keeps its own records (OUT/.statements-generation.K-of-N,
        OUT/.statements-files.K-of-N), and the month indexes list every part's accounts once
        every part has written.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger)
          --archive DIR              after the import is committed, move every file imported
                                     or already present into DIR (paths below the folder
                                     named kept); rejected files, and files that changed
                                     since they were read, stay. DIR must not be an input
                                     folder or inside one; not with --shard
          --reject DIR               move every file rejected for its content into DIR
                                     (paths kept, as --archive), with its diagnostics
                                     beside it in NAME.diagnostics.txt. Without it, a
                                     rejected file stays, and later runs that find the
                                     same bytes say "still rejected since" without
                                     reading it again
          -n, --dry-run              say what would be imported and which months' reports
                                     would be written; write and move nothing
        \(ReportOptions.help)
          -q, --quiet                print errors only
          -v, --verbose              print a line per file read, written or moved
        \(ReadOptions.help)
        \(ReadOptions.shardHelp)
        \(StateFolder.waitHelp)
          -h, --help                 show this help

        EXIT STATUS: as import: 0 success, 1 a file was rejected (the rest is imported and
        reported), 2 usage error, 3 state, output or archive folder unusable, or a path
        unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try parse(arguments, console: console)
        let report = try ReportOptions(options, console: console)
        let output = try Output(options, console: console)
        var read = try ReadOptions(
            options, command: name, ledger: StateFolder.path(options, console: console))
        let isDryRun = options.has("dry-run")
        try checkArchiveFolder(options, read.files)
        try checkRejectFolder(options, read.files)
        let state = StateController(storage: try StateFolder.storage(options, console: console))
        if !isDryRun { try verifyForReports(state, report) }
        read.settings.reportsChangedMonths = true
        let imported = try Import.importFiles(
            read, into: state, isDryRun: isDryRun, output: output, console: console)
        var standardError = console.error
        var standardOutput = console.output
        let importRenderer = ImportReportRenderer(verbosity: output.verbosity, style: output.style)
        if report.summaryFormat == .text {
            // What the import did is said before anything else can fail.
            importRenderer.render(imported, diagnostics: &standardError, results: &standardOutput)
        }
        let restoration = ReportRestoration(report.controller)
        let (months, statements) = try statementsToReport(
            state, after: imported, report: report, restoration: restoration, isDryRun: isDryRun)
        if output.verbosity > .quiet, !restoration.damagedMonths.isEmpty {
            let list = restoration.damagedMonths.sorted().map(\.isoText).joined(separator: ", ")
            print(
                "statements process: note: report files of \(list) are missing or were changed since written; writing them again",
                to: &standardError)
        }
        let publishRenderer = PublishReportRenderer(verbosity: output.verbosity)
        let published =
            isDryRun
            ? []
            : try report.publish(
                statements, generation: imported.generations.after,
                accountMonths: { (accounts) throws(StorageError) in
                    try state.accountMonths(of: accounts)
                }, record: restoration.record, output: output, console: console)
        if !isDryRun && statements.isEmpty && restoration.isRefreshed {
            do throws(StorageError) {
                try report.controller.saveRecord(restoration.record)
            } catch {
                throw .environment("\(error)")
            }
        }
        let writtenMonths = Set(statements.map(\.month))
        // Files leave the inbox once their months are reported: a run that fails before
        // that leaves them for the next.
        let (archived, archiveFailed) = archive(
            options.value("archive"), read.files, imported, errors: &standardError)
        let quarantined = quarantine(
            options.value("reject"), read.files, imported, errors: &standardError)
        let failed = archiveFailed || quarantined?.failed == true
        switch report.summaryFormat {
        case .text:
            renderText(
                publishRenderer, archived: options.value("archive").map { (archived, $0) },
                quarantined: options.value("reject").flatMap { folder in
                    quarantined.map { ($0.moved, folder) }
                }, published: published, months: isDryRun ? months : writtenMonths,
                report: report, output: output, isDryRun: isDryRun, into: &standardOutput)
        case .json:
            print(
                publishRenderer.processJSON(
                    imported: importRenderer.json(imported), archived: archived,
                    quarantined: quarantined?.moved,
                    reports: publishRenderer.json(
                        published, folder: report.folder,
                        months: isDryRun ? months : writtenMonths)),
                to: &standardOutput)
        }
        let status = Import.exitStatus(imported)
        return failed ? ExitCode.environment : status
    }

    /// The command line's options.
    private static func parse(_ arguments: [String], console: Console) throws(CommandError)
        -> Arguments
    {
        try Arguments(
            arguments,
            valueOptions: ReadOptions.valueOptions.union(ReportOptions.valueOptions)
                .union(Output.valueOptions).union(["state", "archive", "reject", "shard"]),
            flagOptions: ReadOptions.flagOptions.union(Output.flagOptions).union([
                "dry-run", "wait",
            ]).union(ReportOptions.flagOptions),
            console: console)
    }

    /// Refuses `--archive` with `--shard`, and an archive folder the files cannot go to.
    private static func checkArchiveFolder(_ options: Arguments, _ files: StatementFiles)
        throws(CommandError)
    {
        if let folder = options.value("archive") {
            if options.value("shard") != nil {
                throw .usage(
                    "--archive cannot be given with --shard: a part keeps only its accounts' rows, and the other parts still need the whole files (archive them once every part has run)"
                )
            }
            if let refusal = InboxArchive.refusal(of: folder, for: files) {
                throw .usage(refusal)
            }
        }
    }

    /// Checks that the ledger and the output folder's reports agree before anything is
    /// imported (see `StateController.verifyForReports`).
    private static func verifyForReports(_ state: StateController, _ report: ReportOptions)
        throws(CommandError)
    {
        do throws(StorageError) {
            try state.verifyForReports(reportedGeneration: report.controller.reportedGeneration())
        } catch {
            throw .environment("\(error)")
        }
    }

    /// Says what was archived, quarantined and written (or, in a dry run, would be written
    /// for `months`).
    private static func renderText(
        _ renderer: PublishReportRenderer, archived: ([ArchivedFile], folder: String)?,
        quarantined: ([ArchivedFile], folder: String)?, published: [PublishedFile],
        months: Set<Month>, report: ReportOptions, output: Output, isDryRun: Bool,
        into standardOutput: inout some TextOutputStream
    ) {
        if let (files, folder) = archived {
            renderer.renderArchived(
                files, folder: folder, isDryRun: isDryRun, into: &standardOutput)
        }
        if let (files, folder) = quarantined {
            renderer.renderQuarantined(
                files, folder: folder, isDryRun: isDryRun, into: &standardOutput)
        }
        if isDryRun {
            if output.verbosity > .quiet {
                print(
                    renderer.dryRunSummary(folder: report.folder, months: months),
                    to: &standardOutput)
            }
        } else {
            renderer.render(published, folder: report.folder, months: months, into: &standardOutput)
        }
    }

    /// The months whose reports the import changed or that are missing, and (unless a dry
    /// run) their statements, of the part's accounts when `--shard` is given.
    private static func statementsToReport(
        _ state: StateController, after imported: ImportReport, report: ReportOptions,
        restoration: ReportRestoration, isDryRun: Bool
    ) throws(CommandError) -> (months: Set<Month>, statements: [MonthlyStatement]) {
        do throws(StorageError) {
            var months = try state.monthsToReport(
                after: imported, reportedGeneration: report.controller.reportedGeneration())
            months.formUnion(try restoration.months(state))
            // A part reports its own accounts (all its ledger holds, when every import of it
            // was of that part).
            let accounts = try report.shard.map { shard throws(StorageError) in
                try state.accountIDs().filter(shard.contains)
            }
            let statements =
                isDryRun ? [] : try state.monthlyStatements(months: months, accounts: accounts)
            return (months, statements)
        } catch {
            throw .environment("\(error)")
        }
    }

    /// Moves the files whose months are reported out of the inbox into `folder` (a run that
    /// fails before that leaves them for the next); returns them, and whether any move failed.
    private static func archive(
        _ folder: String?, _ files: StatementFiles, _ imported: ImportReport,
        errors standardError: inout some TextOutputStream
    ) -> (archived: [ArchivedFile], failed: Bool) {
        var archived: [ArchivedFile] = []
        var failed = false
        guard let folder else { return ([], false) }
        for outcome in InboxArchive.archive(files, report: imported, into: folder) {
            switch outcome {
            case .archived(let file): archived.append(file)
            case .left(let path, let reason):
                print(
                    "statements process: note: \(Diagnostic.sanitized(path)) stays in the inbox: \(reason); the next run reads it again",
                    to: &standardError)
            case .failed(let error):
                print("statements process: error: \(error)", to: &standardError)
                failed = true
            }
        }
        return (archived, failed)
    }

}
