/// One account's month as an export writes it: the month's statement (its opening balance and
/// transactions with running balances) and the balances the bank stated for it.
package struct AccountMonth: Sendable {
    package let statement: MonthlyStatement
    /// The balances the bank stated for the ends of the month's days, in day order; on the
    /// account's first month, also those of the day before it (when the opening balance holds).
    package let assertions: [BalanceAssertion]
    /// Whether this is the account's first month in the export: its balance before the month
    /// is brought forward here, at the end of the day before the month's first day.
    package let isFirst: Bool

    /// Creates an account-month.
    package init(statement: MonthlyStatement, assertions: [BalanceAssertion], isFirst: Bool) {
        (self.statement, self.assertions, self.isFirst) = (statement, assertions, isFirst)
    }

    /// The day at whose end the opening balance holds: the day before the month's first day.
    package var openingDay: Day { statement.month.dayBefore }
}

/// A ledger read one month at a time, for an export of any size in constant memory: each call
/// reads the bytes of one month of the chosen accounts, and carries each account's balance
/// from month to month (the totals of months left out are added, not decoded).
package final class StatementStream {
    private let storage: StorageController
    private let manifest: LedgerManifest
    /// The accounts chosen, by id.
    private let accountIDs: [AccountID]
    /// The months asked for; `nil`: every month.
    private let requested: Set<Month>?
    /// Each account's balance at the end of `through`, once it started.
    private var balances: [AccountID: (balance: Money, through: Month?)] = [:]

    /// The months with transactions or stated balances of the chosen accounts, among those
    /// asked for, in order.
    package let months: [Month]

    init(
        storage: StorageController, manifest: LedgerManifest, accounts: Set<AccountID>?,
        months requested: Set<Month>?
    ) {
        self.storage = storage
        self.manifest = manifest
        self.requested = requested
        accountIDs = manifest.accounts.keys.filter { accounts?.contains($0) ?? true }.sorted()
        var months: Set<Month> = []
        for accountID in accountIDs {
            months.formUnion(Self.dataMonths(of: manifest.accounts[accountID]!))
        }
        self.months = months.filter { requested?.contains($0) ?? true }.sorted()
    }

    /// The months an account has transactions or stated balances in.
    private static func dataMonths(of entry: LedgerManifest.AccountEntry) -> Set<Month> {
        Set(entry.months.keys).union(entry.assertions.map { Month($0.day) })
    }

    /// The chosen accounts' months of `month` that hold transactions or stated balances, by
    /// account id. Months must be asked for in order.
    ///
    /// - Throws: `StorageError` when the ledger's bytes are damaged or a balance overflows.
    package func accountMonths(in month: Month) throws(StorageError) -> [AccountMonth] {
        var result: [AccountMonth] = []
        for accountID in accountIDs {
            let entry = manifest.accounts[accountID]!
            let length = entry.months[month]
            let assertionDays = entry.assertions.filter { Month($0.day) == month }
            guard length != nil || !assertionDays.isEmpty else { continue }
            let account = entry.account
            let isFirst = balances[accountID] == nil
            var (balance, through) =
                balances[accountID] ?? (entry.openingBalance ?? .zero(account.currency), nil)
            // The months between: their totals only move the balance.
            for (skipped, skippedLength) in entry.months
            where skipped < month && through.map({ skipped > $0 }) ?? true {
                balance = try add(
                    try storage.total(of: account, in: skipped, length: skippedLength), to: balance,
                    account, skipped)
            }
            var transactions: [Transaction] = []
            if let length {
                let bytes = try storage.uncheckedDataBytes(of: accountID, in: month, length: length)
                guard length.holds(data: bytes) else {
                    throw storage.changed(data: accountID, in: month, length: length)
                }
                do throws(LedgerRecord.DecodingError) {
                    transactions = try LedgerRecord.decode(bytes, currency: account.currency)
                } catch {
                    throw storage.damaged(error, account: account, in: month, length: length)
                }
            }
            let statement: MonthlyStatement
            do throws(MoneyError) {
                statement = try MonthlyStatement(
                    account: account, month: month, openingBalance: balance,
                    transactions: transactions)
            } catch { throw overflow(error, account, month) }
            var assertions = assertionDays
            if isFirst {
                let openingDay = month.dayBefore
                assertions = entry.assertions.filter { $0.day == openingDay } + assertions
            }
            balances[accountID] = (statement.closingBalance, month)
            result.append(
                AccountMonth(statement: statement, assertions: assertions, isFirst: isFirst))
        }
        return result
    }

    private func add(_ total: Money, to balance: Money, _ account: Account, _ month: Month)
        throws(StorageError) -> Money
    {
        do throws(MoneyError) { return try balance.adding(total) } catch {
            throw overflow(error, account, month)
        }
    }

    private func overflow(_ error: MoneyError, _ account: Account, _ month: Month) -> StorageError {
        .unreadable(
            folder: storage.folder,
            reason: "the balance of \(account.id.text) in \(month) \(error)")
    }
}

extension StateController {
    /// The ledger's months, of the given accounts (all when `nil`) and months (all when `nil`),
    /// to be read one at a time.
    package func statementStream(months: Set<Month>?, accounts: Set<AccountID>?)
        throws(StorageError) -> StatementStream
    {
        StatementStream(
            storage: storage, manifest: try manifest(with: accounts), accounts: accounts,
            months: months)
    }
}
