import StatementKit

/// Which accounts and months of which ledgers a reading command (`report`, `register`) asks
/// for: `--state` (each must exist; several are read as one ledger), `--account` (each in
/// them), and `--month` or `--from`/`--to`.
struct LedgerSelection {
    static let valueOptions: Set = ["state", "month", "from", "to", "account"]

    let state: LedgerGroup
    /// The accounts asked for; `nil`: every account.
    let accounts: Set<AccountID>?
    /// The months asked for; `nil` when none was (each command has its default).
    let months: Set<Month>?

    init(_ options: Arguments, console: Console) throws(CommandError) {
        months = try Self.months(options)
        for text in options.values("account") where AccountReference.looksLikeAnID(text) {
            // A mistyped id is a usage error before any ledger is read.
            if (try? AccountID(parsing: text)) == nil { _ = try Arguments.accountID(text) }
        }
        let folders = try StateFolder.existingAll(options, console: console)
        state = LedgerGroup(folders: folders)
        var accounts: Set<AccountID>?
        if !options.values("account").isEmpty {
            let known: [Account]
            do { known = try state.accounts() } catch { throw .environment("\(error)") }
            let ledger = folders.map { "'\($0)'" }.joined(separator: ", ")
            for text in options.values("account") {
                accounts = (accounts ?? []).union([
                    try AccountReference.resolve(text, among: known, ledger: ledger)
                ])
            }
        }
        self.accounts = accounts
    }

    /// The statements of the months asked for, or of `defaultMonths` when none were, of the
    /// accounts asked for that are in `shard` (every one when `nil`); `nil` when there are no
    /// months at all (an empty ledger).
    func statements(
        defaultMonths: () throws(StorageError) -> Set<Month>?, shard: Shard? = nil
    ) throws(CommandError) -> [MonthlyStatement]? {
        do throws(StorageError) {
            let chosen: Set<Month>?
            if let months { chosen = months } else { chosen = try defaultMonths() }
            guard let chosen else { return nil }
            var accounts = self.accounts
            if let shard {
                let known: Set<AccountID>
                if let accounts { known = accounts } else { known = try state.accountIDs() }
                accounts = known.filter(shard.contains)
            }
            return try state.monthlyStatements(months: chosen, accounts: accounts)
        } catch {
            throw .environment("\(error)")
        }
    }

    /// The months asked for; `nil` when none was.
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
