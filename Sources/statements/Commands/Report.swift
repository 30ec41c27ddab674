import StatementKit

/// `statements report`: monthly statements from the ledger as text, CSV and HTML.
enum Report: Command {
    static let name = "report"
    static let summary = "write monthly statements as text, CSV and HTML"

    static let usage = """
        USAGE: statements report [-s DIR]... [-m YYYY-MM | --from YYYY-MM --to YYYY-MM]
                                 [-a ID]... [--report-format text|csv|html]... [-o DIR] [--locale ID]
                                 [--bom] [-f text|json] [-q|-v] [--shard K/N]

        Writes one statement per account and month with transactions, as
        OUT/YYYY-MM/ACCOUNT.txt, .csv and .html, and OUT/YYYY-MM/index.html linking a month's
        statements when HTML is written. Files whose content would not change are left alone.
        Reads the ledger without locking or writing it.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger); repeated, several ledgers read as one
                                     (no account may be in two)
          -m, --month YYYY-MM        the month (default: the latest month with transactions)
          --from/--to YYYY-MM        a range of months, both included
          -a, --account ID|NAME      only this account (an IBAN, scheme:value or the
                                     account's name); may be repeated
        \(ReportOptions.help)
                                     ('-o -' writes the one statement of a single account
                                     and report format to stdout)
          --shard K/N                only the accounts of part K of N (by a stable hash of
                                     the account id), for reports written on several
                                     machines; the month indexes list every part's
                                     accounts once every part has written
          -q, --quiet                print errors only
          -v, --verbose              print a line per file written
          -h, --help                 show this help

        EXIT STATUS: 0 success, 2 usage error, 3 the ledger or output folder cannot be used.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments,
            valueOptions: ReportOptions.valueOptions.union(LedgerSelection.valueOptions)
                .union(["shard"]),
            flagOptions: Output.flagOptions.union(ReportOptions.flagOptions), console: console)
        try options.expectNoPaths(name)
        let report = try ReportOptions(options, console: console)
        let output = try Output(options, console: console)
        var standardError = console.error
        let selection = try LedgerSelection(options, console: console)
        let state = selection.state
        // Without a month: the latest month with transactions.
        guard
            let statements = try selection.statements(
                defaultMonths: { () throws(StorageError) in try state.latestMonth().map { [$0] } },
                shard: report.shard)
        else {
            print("statements report: the ledger has no transactions yet", to: &standardError)
            return ExitCode.success
        }
        if statements.isEmpty {
            print("statements report: no transactions in the months asked for", to: &standardError)
        }
        guard report.folder == "-" else {
            let published = try report.publish(
                statements,
                accountMonths: { (accounts) throws(StorageError) in
                    try state.accountMonths(of: accounts)
                }, output: output, console: console)
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
            folder: "-", formats: report.formats, locale: report.locale,
            csvByteOrderMark: report.csvByteOrderMark)
        standardOutput.write(controller.render(statements[0], as: report.formats[0]))
        return ExitCode.success
    }

}
