/// Several ledgers read as one: the state folders of entities kept apart, or of shards of one
/// ledger, whose accounts never overlap. It answers the read-only queries of `accounts`,
/// `report` and `register` over all of them, in the order one ledger holding every account
/// would; it never locks or writes.
package final class LedgerGroup {
    private let ledgers: [(folder: String, state: StateController)]

    /// Creates a group over existing state folders, in the order given.
    package init(folders: [String]) {
        ledgers = folders.map { ($0, StateController(storage: StorageController(folder: $0))) }
    }

    /// Which ledger holds each account.
    ///
    /// - Throws: `StorageError.unreadable` when two ledgers hold one account (the first
    ///   shared one by id, so that the message is the same every run): read as one, its
    ///   transactions would count twice.
    private func owners() throws(StorageError) -> [AccountID: Int] {
        var owners: [AccountID: Int] = [:]
        for (index, ledger) in ledgers.enumerated() {
            for accountID in try ledger.state.accountIDs().sorted() {
                if let other = owners[accountID] {
                    throw .unreadable(
                        folder: ledger.folder,
                        reason:
                            "account \(accountID.text) is in the ledger at '\(ledgers[other].folder)' too; ledgers read as one must not share an account"
                    )
                }
                owners[accountID] = index
            }
        }
        return owners
    }

    /// The ids of every ledger's accounts.
    package func accountIDs() throws(StorageError) -> Set<AccountID> {
        Set(try owners().keys)
    }

    /// Every ledger's accounts, by id.
    package func accounts() throws(StorageError) -> [Account] {
        _ = try owners()
        var accounts: [Account] = []
        for ledger in ledgers { accounts += try ledger.state.accounts() }
        return accounts.sorted { $0.id < $1.id }
    }

    /// The latest month with transactions in any ledger.
    package func latestMonth() throws(StorageError) -> Month? {
        var latest: Month?
        for ledger in ledgers {
            if let month = try ledger.state.latestMonth() { latest = max(latest ?? month, month) }
        }
        return latest
    }

    /// Every month with transactions in any ledger.
    package func allMonths() throws(StorageError) -> Set<Month> {
        var months: Set<Month> = []
        for ledger in ledgers { months.formUnion(try ledger.state.allMonths()) }
        return months
    }

    /// The months with transactions of each of the given accounts (all when `nil`), for the
    /// links between statements.
    package func accountMonths(of accounts: Set<AccountID>? = nil) throws(StorageError)
        -> [AccountID: [Month]]
    {
        _ = try owners()
        var months: [AccountID: [Month]] = [:]
        for ledger in ledgers {
            months.merge(try ledger.state.accountMonths(of: accounts)) { first, _ in first }
        }
        return months
    }

    /// The statements of the given months, for the given accounts (all when `nil`), by
    /// account and month, as `StateController.monthlyStatements` gives them.
    package func monthlyStatements(months: Set<Month>, accounts: Set<AccountID>? = nil)
        throws(StorageError) -> [MonthlyStatement]
    {
        _ = try owners()
        var statements: [MonthlyStatement] = []
        for ledger in ledgers {
            statements += try ledger.state.monthlyStatements(months: months, accounts: accounts)
        }
        return statements.sorted { ($0.account.id, $0.month) < ($1.account.id, $1.month) }
    }

    /// Every account of every ledger with its figures, by account.
    ///
    /// A single ledger has no other to share an account with, so its account records are
    /// read once (at a bank's scale, 100,000 of them), and its figures come in id order.
    package func accountSummaries() throws(StorageError) -> [AccountSummary] {
        if ledgers.count == 1, let only = ledgers.first { return try only.state.accountSummaries() }
        _ = try owners()
        var summaries: [AccountSummary] = []
        for ledger in ledgers { summaries += try ledger.state.accountSummaries() }
        return summaries.sorted { $0.account.id < $1.account.id }
    }

    /// Each ledger's months of the given accounts (all when `nil`) and months (all when
    /// `nil`), to be read one month at a time (`StatementStream`).
    package func statementStreams(months: Set<Month>?, accounts: Set<AccountID>? = nil)
        throws(StorageError) -> [StatementStream]
    {
        _ = try owners()
        var streams: [StatementStream] = []
        for ledger in ledgers {
            streams.append(try ledger.state.statementStream(months: months, accounts: accounts))
        }
        return streams
    }
}
