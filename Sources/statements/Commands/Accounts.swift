import StatementKit

/// `statements accounts`: the ledger's accounts with their balances; never writes.
enum Accounts: Command {
    static let name = "accounts"
    static let summary = "list the ledger's accounts and balances"

    static let usage = """
        USAGE: statements accounts [-s DIR]... [-f text|json]

        Lists the ledger's accounts: IBAN or account id, name, kind, currency, transaction count, balance
        (opening balance plus every transaction), first and last date, last import.
        Reads the ledger without locking or writing it.

        OPTIONS:
          -s, --state DIR         the ledger folder (default: $STATEMENTS_STATE, else
                                  ./ledger); repeated, several ledgers read as one (no
                                  account may be in two)
          -f, --format text|json  an aligned table as wide as $COLUMNS (default 100), or
                                  a JSON array
          -h, --help              show this help

        EXIT STATUS: 0 success, 2 usage error, 3 the ledger cannot be read.
        """

    static func run(_ arguments: [String], console: Console) throws(CommandError) -> Int32 {
        let options = try Arguments(
            arguments, valueOptions: ["state", "format"], flagOptions: [], console: console)
        guard options.positionals.isEmpty else {
            throw .usage("accounts takes no PATH")
        }
        let format = try options.choice(
            "format", default: AccountsRenderer.Format.text)
        var standardOutput = console.output
        let folders = try StateFolder.existingAll(options, console: console)
        do {
            let summaries = try LedgerGroup(folders: folders).accountSummaries()
            AccountsRenderer(format: format, width: Register.terminalWidth(console)).render(
                summaries, into: &standardOutput)
            return ExitCode.success
        } catch {
            throw .environment("\(error)")
        }
    }
}
