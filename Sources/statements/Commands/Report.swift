import StatementKit

/// `statements report`: monthly statements from the ledger as text, CSV and HTML.
enum Report: Command {
    static let name = "report"
    static let summary = "write monthly statements as text, CSV and HTML"

    static let usage = """
        USAGE: statements report [-s DIR] [-m YYYY-MM | --from YYYY-MM --to YYYY-MM]
                                 [-a ID]... [--report-format FORMAT]... [-o DIR] [--locale ID]
                                 [-f text|json] [-q|-v]

        Writes one statement per account and month with transactions, as
        OUT/YYYY-MM/ACCOUNT.txt, .csv and .html, and OUT/YYYY-MM/index.html linking a month's
        statements when HTML is written. Files whose content would not change are left alone.
        Reads the ledger without locking or writing it.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger)
          -m, --month YYYY-MM        the month (default: the latest month with transactions)
          --from/--to YYYY-MM        a range of months, both included
          -a, --account ID           only this account (an IBAN or scheme:value); may be
                                     repeated
        \(ReportOptions.help)
                                     ('-o -' writes the one statement of a single account
                                     and report format to stdout)
          -q, --quiet                print errors only
          -v, --verbose              print a line per file written
          -h, --help                 show this help

        EXIT STATUS: 0 success, 2 usage error, 3 the ledger or output folder cannot be used.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments,
            valueOptions: ReportOptions.valueOptions.union([
                "state", "month", "from", "to", "account",
            ]),
            flagOptions: Output.flagOptions)
        try options.expectNoPaths(name)
        let report = try ReportOptions(options)
        let output = try Output(options, console: console)
        var accounts: Set<AccountID>?
        for text in options.values("account") {
            accounts = (accounts ?? []).union([try Arguments.accountID(text)])
        }
        let requested = try months(options)
        var standardError = console.error
        let folder = try StateFolder.existing(options, console: console)
        let state = StateController(storage: StorageController(folder: folder))
        if let accounts {
            let known: Set<AccountID>
            do { known = try state.accountIDs() } catch { throw .environment("\(error)") }
            if let unknown = accounts.subtracting(known).min() {
                throw .usage(
                    "no account \(unknown.text) in the ledger at '\(folder)' ('statements accounts' lists them)"
                )
            }
        }
        let statements: [MonthlyStatement]
        do throws(StorageError) {
            let latest = requested == nil ? try state.latestMonth().map { [$0] as Set } : nil
            guard let months = requested ?? latest else {
                print("statements report: the ledger has no transactions yet", to: &standardError)
                return ExitCode.success
            }
            statements = try state.monthlyStatements(months: months, accounts: accounts)
        } catch {
            throw .environment("\(error)")
        }
        if statements.isEmpty {
            print("statements report: no transactions in the months asked for", to: &standardError)
        }
        guard report.folder == "-" else {
            let published = try report.publish(statements, output: output, console: console)
            let renderer = PublishReportRenderer(verbosity: output.verbosity)
            let months = Set(statements.map(\.month))
            var standardOutput = console.output
            switch report.summaryFormat {
            case .text:
                renderer.render(
                    published, folder: report.folder, months: months, into: &standardOutput)
            case .json:
                print(
                    renderer.json(published, folder: report.folder, months: months),
                    to: &standardOutput)
            }
            return ExitCode.success
        }
        guard statements.count == 1, report.formats.count == 1 else {
            throw .usage("--out - needs exactly one account, month and --report-format")
        }
        var standardOutput = console.output
        let controller = ReportController(
            folder: "-", formats: report.formats, locale: report.locale)
        standardOutput.write(controller.render(statements[0], as: report.formats[0]))
        return ExitCode.success
    }

    /// The months asked for; `nil` when none was: then the latest month with transactions.
    private static func months(_ options: Arguments) throws(CommandError) -> Set<Month>? {
        func month(_ option: String) throws(CommandError) -> Month? {
            guard let text = options.value(option) else { return nil }
            guard let month = Month(parsing: text) else {
                throw .usage("--\(option) must be a month like 2026-10, not '\(text)'")
            }
            return month
        }
        let single = try month("month")
        let from = try month("from")
        let to = try month("to")
        switch (single, from, to) {
        case (let month?, nil, nil): return [month]
        case (nil, let first?, let last?):
            guard first <= last else {
                throw .usage("--from must not be after --to")
            }
            var months: Set<Month> = []
            var month: Month? = first
            while let current = month, current <= last {
                months.insert(current)
                month = current.next
            }
            return months
        case (nil, nil, nil): return nil
        default:
            throw .usage("give either --month, or both --from and --to")
        }
    }
}
