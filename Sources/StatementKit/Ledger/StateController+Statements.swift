import Foundation

/// The monthly statements: read from the ledger one account after another, decoded and built
/// on every core.
extension StateController {
    /// The statements of the given months, for the given accounts (all when `nil`).
    ///
    /// An account gets a statement for each requested month in which it has transactions.
    /// Opening balances are computed from the account's opening balance and every earlier
    /// month, read once in order.
    package func monthlyStatements(months: Set<Month>, accounts: Set<AccountID>? = nil)
        throws(StorageError) -> [MonthlyStatement]
    {
        let manifest = try manifest(with: accounts)
        guard let lastRequested = months.max() else { return [] }
        let work = try statementSteps(
            manifest, months: months, through: lastRequested, accounts: accounts)
        // Decoded and built on every core, an account each.
        let results = ConcurrentResults<Result<[MonthlyStatement], StatementFailure>>(
            count: work.count)
        DispatchQueue.concurrentPerform(iterations: work.count) { index in
            results[index] = Result { () throws(StatementFailure) in
                try Self.statements(of: work[index].entry, from: work[index].steps)
            }
        }
        var statements: [MonthlyStatement] = []
        for (index, result) in results.values.enumerated() {
            let account = work[index].entry.account
            switch result! {
            case .success(var built):
                let entry = work[index].entry
                if entry.months.isEmpty {
                    // Balances and no booking: a statement of the opening balance they imply
                    // for each month asked for that holds one.
                    let opening = entry.openingBalance ?? .zero(account.currency)
                    built = Set(entry.assertions.map { Month($0.day) }).intersection(months)
                        .sorted().map {
                            try! MonthlyStatement(
                                account: account, month: $0, openingBalance: opening,
                                transactions: [])
                        }
                }
                Self.noteDisagreements(of: entry, in: &built)
                statements += built
            case .failure(.changed(let month, let length)):
                throw storage.changed(data: account.id, in: month, length: length)
            case .failure(.decoding(let error, let month, let length)):
                throw storage.damaged(error, account: account, in: month, length: length)
            case .failure(.balance(let error, let month)):
                throw .unreadable(
                    folder: storage.folder,
                    reason: "the balance of \(account.id.text) in \(month) \(error)")
            }
        }
        return statements
    }

    /// Reads, one account after another, the bytes of the months asked for, and the sums of
    /// the months before them, which only move the balance.
    private func statementSteps(
        _ manifest: LedgerManifest, months: Set<Month>, through lastRequested: Month,
        accounts: Set<AccountID>?
    ) throws(StorageError) -> [(entry: LedgerManifest.AccountEntry, steps: [StatementStep])] {
        try manifest.accounts.keys.sorted().filter {
            accounts?.contains($0) ?? true
        }.map { (accountID) throws(StorageError) in
            let entry = manifest.accounts[accountID]!
            var steps: [StatementStep] = []
            for month in entry.months.keys.sorted() where month <= lastRequested {
                let length = entry.months[month]!
                if months.contains(month) {
                    steps.append(
                        .month(
                            month,
                            try storage.uncheckedDataBytes(
                                of: accountID, in: month, length: length),
                            length))
                } else {
                    // An earlier month only moves the opening balance: sum it without decoding.
                    steps.append(
                        .total(
                            try storage.total(of: entry.account, in: month, length: length), month))
                }
            }
            return (entry: entry, steps: steps)
        }
    }

    /// An account's statements from its steps: the balance carried through the months before,
    /// each month asked for decoded (checked against its checksum here, on every core).
    private static func statements(
        of entry: LedgerManifest.AccountEntry, from steps: [StatementStep]
    ) throws(StatementFailure) -> [MonthlyStatement] {
        var balance = entry.openingBalance ?? .zero(entry.account.currency)
        var statements: [MonthlyStatement] = []
        for step in steps {
            switch step {
            case .total(let total, let month):
                do throws(MoneyError) { balance = try balance.adding(total) } catch {
                    throw .balance(error, month)
                }
            case .month(let month, let bytes, let length):
                guard length.holds(data: bytes) else { throw .changed(month, length) }
                let transactions: [Transaction]
                do throws(LedgerRecord.DecodingError) {
                    transactions = try LedgerRecord.decode(
                        bytes, currency: entry.account.currency)
                } catch { throw .decoding(error, month, length) }
                do throws(MoneyError) {
                    let statement = try MonthlyStatement(
                        account: entry.account, month: month, openingBalance: balance,
                        transactions: transactions)
                    statements.append(statement)
                    balance = statement.closingBalance
                } catch { throw .balance(error, month) }
            }
        }
        return statements
    }

    /// Adds to an account's statements the balances its bank stated in their months that the
    /// ledger does not hold, from each assertion's sum of bookings when it was last checked. A
    /// balance stated in a month without bookings goes to the statement of the latest month
    /// before it that has some, so that every disagreement shows in a statement.
    private static func noteDisagreements(
        of entry: LedgerManifest.AccountEntry, in statements: inout [MonthlyStatement]
    ) {
        guard !entry.assertions.isEmpty else { return }
        let opening = entry.openingBalance?.minorUnits ?? 0
        let booked = entry.months.keys.sorted()
        let home = { (day: Day) in booked.last { $0 <= Month(day) } ?? Month(day) }
        for index in statements.indices {
            statements[index].bankDisagreements = entry.assertions.compactMap { assertion in
                guard home(assertion.day) == statements[index].month,
                    let sum = assertion.ledgerSum, opening &+ sum != assertion.balance.minorUnits
                else { return nil }
                return MonthlyStatement.BankDisagreement(
                    day: assertion.day, bank: assertion.balance,
                    ledger: Money(minorUnits: opening &+ sum, currency: assertion.balance.currency))
            }
        }
    }
}

/// What building an account's statements starts from: the sum of an earlier month, which only
/// moves the balance, or the bytes of a month asked for.
private enum StatementStep {
    case total(Money, Month)
    case month(Month, [UInt8], LedgerManifest.MonthLength)
}

/// Why an account's statements could not be built.
private enum StatementFailure: Error {
    case changed(Month, LedgerManifest.MonthLength)
    case decoding(LedgerRecord.DecodingError, Month, LedgerManifest.MonthLength)
    case balance(MoneyError, Month)
}
