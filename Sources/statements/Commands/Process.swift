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
        let options = try Arguments(
            arguments,
            valueOptions: ReadOptions.valueOptions.union(ReportOptions.valueOptions)
                .union(Output.valueOptions).union(["state", "archive", "reject", "shard"]),
            flagOptions: ReadOptions.flagOptions.union(Output.flagOptions).union([
                "dry-run", "wait",
            ]).union(ReportOptions.flagOptions),
            console: console)
        let report = try ReportOptions(options, console: console)
        let output = try Output(options, console: console)
        var read = try ReadOptions(
            options, command: name, ledger: StateFolder.path(options, console: console))
        let isDryRun = options.has("dry-run")
        if let folder = options.value("archive") {
            if options.value("shard") != nil {
                throw .usage(
                    "--archive cannot be given with --shard: a part keeps only its accounts' rows, and the other parts still need the whole files (archive them once every part has run)"
                )
            }
            if let refusal = InboxArchive.refusal(of: folder, for: read.files) {
                throw .usage(refusal)
            }
        }
        try checkRejectFolder(options, read.files)
        let state = StateController(storage: try StateFolder.storage(options, console: console))
        if !isDryRun {
            do throws(StorageError) {
                try state.verifyForReports(
                    reportedGeneration: report.controller.reportedGeneration())
            } catch {
                throw .environment("\(error)")
            }
        }
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
        var months: Set<Month>
        let statements: [MonthlyStatement]
        let restoration = ReportRestoration(report.controller)
        do throws(StorageError) {
            months = try state.monthsToReport(
                after: imported, reportedGeneration: report.controller.reportedGeneration())
            months.formUnion(try restoration.months(state))
            // A part reports its own accounts (all its ledger holds, when every import of it
            // was of that part).
            let accounts = try report.shard.map { shard throws(StorageError) in
                try state.accountIDs().filter(shard.contains)
            }
            statements =
                isDryRun ? [] : try state.monthlyStatements(months: months, accounts: accounts)
        } catch {
            throw .environment("\(error)")
        }
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
        var archived: [ArchivedFile] = []
        var archiveFailed = false
        if let folder = options.value("archive") {
            for outcome in InboxArchive.archive(read.files, report: imported, into: folder) {
                switch outcome {
                case .archived(let file): archived.append(file)
                case .left(let path, let reason):
                    print(
                        "statements process: note: \(Diagnostic.sanitized(path)) stays in the inbox: \(reason); the next run reads it again",
                        to: &standardError)
                case .failed(let error):
                    print("statements process: error: \(error)", to: &standardError)
                    archiveFailed = true
                }
            }
        }
        let quarantined = quarantine(
            options.value("reject"), read.files, imported, errors: &standardError)
        archiveFailed = archiveFailed || quarantined?.failed == true
        switch report.summaryFormat {
        case .text:
            if let folder = options.value("archive") {
                publishRenderer.renderArchived(
                    archived, folder: folder, isDryRun: isDryRun, into: &standardOutput)
            }
            if let folder = options.value("reject"), let quarantined {
                publishRenderer.renderQuarantined(
                    quarantined.moved, folder: folder, isDryRun: isDryRun, into: &standardOutput)
            }
            if isDryRun {
                if output.verbosity > .quiet {
                    print(
                        publishRenderer.dryRunSummary(folder: report.folder, months: months),
                        to: &standardOutput)
                }
            } else {
                publishRenderer.render(
                    published, folder: report.folder, months: writtenMonths, into: &standardOutput)
            }
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
        return archiveFailed ? ExitCode.environment : status
    }

}
