import StatementKit

/// `statements export`: the ledger as an hledger or ledger-cli journal or a beancount file.
enum Export: Command {
    static let name = "export"
    static let summary = "write the ledger as an hledger, ledger-cli or beancount journal"

    static let usage = """
        USAGE: statements export [-s DIR]... [-f hledger|ledger|beancount] [-a ID]...
                                 [-m YYYY-MM | --from YYYY-MM --to YYYY-MM] [-o JOURNAL]

        Writes the ledger as a plain-text accounting journal: per account an account named
        Assets:Bank:ID (Liabilities:Bank:ID for a card) with an opening entry from
        Equity:Opening-Balances, an entry per transaction (payee: the beneficiary; narration:
        the description, else the reference) against Expenses:Unknown or Income:Unknown, and
        a balance assertion wherever the bank stated a balance the ledger holds (one it does
        not hold is written as a comment, and counted on stderr). Written month by month:
        memory does not grow with the ledger. Reads the ledger without locking or writing it.

        OPTIONS:
          -s, --state DIR            the ledger folder (default: $STATEMENTS_STATE, else
                                     ./ledger); repeated, several ledgers read as one
                                     (no account may be in two)
          -f, --format F             hledger (default), ledger (ledger-cli) or beancount
          -a, --account ID           only this account (an IBAN or scheme:value); may be
                                     repeated
          -m, --month YYYY-MM        only this month, opening with the balance before it
                                     (default: every month)
          --from/--to YYYY-MM        a range of months, both included
          -o, --out JOURNAL          the file to write, replaced whole at the end (default:
                                     '-', standard output)
          -h, --help                 show this help

        EXIT STATUS: 0 success, 2 usage error, 3 the ledger cannot be read or the file
        cannot be written.
        """

    /// How many bytes are gathered before they are written out.
    private static let bufferLimit = 1 << 20

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: LedgerSelection.valueOptions.union(["format", "out"]),
            flagOptions: [], console: console)
        try options.expectNoPaths(name)
        let format = try options.choice("format", default: LedgerExportRenderer.Format.hledger)
        let selection = try LedgerSelection(options, console: console)
        let path = options.value("out") ?? "-"
        guard !path.isEmpty else { throw .usage("--out needs a file name, or '-'") }
        var standardOutput = console.output
        var standardError = console.error
        do throws(StorageError) {
            let streams = try selection.state.statementStreams(
                months: selection.months, accounts: selection.accounts)
            let months = Set(streams.flatMap(\.months)).sorted()
            let file = path == "-" ? nil : try StreamedFile(path: path)
            let write = { (bytes: inout [UInt8]) throws(StorageError) in
                if let file {
                    try file.write(bytes)
                } else {
                    standardOutput.write(String(decoding: bytes, as: UTF8.self))
                }
                bytes.removeAll(keepingCapacity: true)
            }
            let renderer = LedgerExportRenderer(format: format)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(bufferLimit + bufferLimit / 4)
            renderer.appendPrelude(firstMonth: months.first, to: &bytes)
            var tally = LedgerExportRenderer.Tally()
            var names: [String: AccountID] = [:]
            for month in months {
                var accountMonths: [AccountMonth] = []
                for stream in streams { accountMonths += try stream.accountMonths(in: month) }
                if streams.count > 1 {
                    accountMonths.sort { $0.statement.account.id < $1.statement.account.id }
                }
                for accountMonth in accountMonths {
                    if accountMonth.isFirst {
                        let account = accountMonth.statement.account
                        if let other = names.updateValue(account.id, forKey: account.exportName) {
                            throw .unreadable(
                                folder: path,
                                reason:
                                    "accounts \(other.text) and \(account.id.text) would both be \(account.exportName)"
                            )
                        }
                    }
                    renderer.append(accountMonth, to: &bytes, tally: &tally)
                    if bytes.count >= bufferLimit { try write(&bytes) }
                }
            }
            try write(&bytes)
            try file?.commit()
            if months.isEmpty {
                print(
                    "statements export: no transactions in the ledger or months asked for",
                    to: &standardError)
            }
            if tally.disagreeing > 0 {
                print(
                    "statements export: \(tally.disagreeing.counted("balance")) the bank stated, which the ledger does not hold, written as comments rather than assertions ('statements accounts' shows where the ledger differs)",
                    to: &standardError)
            }
        } catch {
            throw .environment("\(error)")
        }
        return ExitCode.success
    }
}
