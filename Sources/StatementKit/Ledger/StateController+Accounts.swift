/// The figures of `statements accounts`, from the month records' summaries.
extension StateController {
    /// Every account of the ledger, in the order of their ids, with its figures: its count,
    /// balance and first and last days from its months' summaries (a month of a ledger not
    /// yet upgraded to format 6, which has none, from its transactions).
    ///
    /// The transaction log is checked to be there and as long as committed, not read: `report`
    /// and `check` compare its bytes with their checksums.
    ///
    /// - Complexity: the manifest and the months log; a transaction is read only in a month
    ///   without a summary, and in the month of an account's latest stated balance when
    ///   that day falls between the month's first and last days.
    package func accountSummaries() throws(StorageError) -> [AccountSummary] {
        var manifest = try storage.loadManifest(months: false)
        if manifest.version >= 4 {
            try storage.checkLength(of: .data, committed: manifest.logs.dataBytes)
        }
        // An account with stated balances, or without totals (before format 7): its months.
        let needMonths = manifest.accounts.compactMap { accountID, entry in
            (entry.totals?.assertions ?? 1) > 0 ? accountID : nil
        }
        if needMonths.count * 2 > manifest.accounts.count {
            manifest = try storage.loadManifest()
        } else {
            try storage.loadMonths(of: needMonths, in: &manifest)
        }
        var summaries: [AccountSummary] = []
        summaries.reserveCapacity(manifest.accounts.count)
        for accountID in manifest.accounts.keys.sorted() {
            let entry = manifest.accounts[accountID]!
            if !entry.monthsLoaded, let totals = entry.totals {
                summaries.append(try summary(of: entry, totals))
            } else {
                summaries.append(try summary(of: entry))
            }
        }
        return summaries
    }

    /// The figures of an account without stated balances, from its record's totals.
    private func summary(of entry: LedgerManifest.AccountEntry, _ totals: AccountTotals)
        throws(StorageError) -> AccountSummary
    {
        let opening = entry.openingBalance?.minorUnits ?? 0
        let (balance, overflow) = opening.addingReportingOverflow(totals.sum)
        guard !overflow else {
            throw .unreadable(
                folder: storage.folder,
                reason: "the balance of \(entry.account.id.text) \(MoneyError.overflow)")
        }
        var summary = AccountSummary(
            account: entry.account, transactionCount: totals.count,
            balance: Money(minorUnits: balance, currency: entry.account.currency),
            firstDate: totals.days?.lowerBound, lastDate: totals.days?.upperBound,
            lastImport: entry.lastImport)
        summary.outOfBalance = entry.outOfBalance
        return summary
    }

    /// One account's figures (see `accountSummaries()`).
    private func summary(of entry: LedgerManifest.AccountEntry) throws(StorageError)
        -> AccountSummary
    {
        var figures = AccountFigures(
            opening: entry.openingBalance?.minorUnits ?? 0, stated: entry.assertions.last?.day)
        for month in entry.months.keys.sorted() {
            let length = entry.months[month]!
            if length.hasSummary, let total = length.total {
                guard let days = length.days else { continue }
                try figures.add(month: month, days: days, count: length.count, total: total) {
                    () throws(StorageError) in
                    try storage.transactions(of: entry.account, in: month, length: length)
                }
            } else {
                for transaction in try storage.transactions(
                    of: entry.account, in: month, length: length)
                {
                    try figures.add(transaction)
                }
            }
            guard !figures.overflowed else {
                throw .unreadable(
                    folder: storage.folder,
                    reason: "the balance of \(entry.account.id.text) \(MoneyError.overflow)")
            }
        }
        let currency = entry.account.currency
        var summary = AccountSummary(
            account: entry.account, transactionCount: figures.count,
            balance: Money(minorUnits: figures.balance, currency: currency),
            firstDate: figures.first, lastDate: figures.last, lastImport: entry.lastImport)
        summary.bankBalance = entry.assertions.last.map {
            ($0, Money(minorUnits: figures.atStated, currency: currency))
        }
        summary.outOfBalance = entry.outOfBalance
        return summary
    }
}

/// An account's figures, summed month by month in order.
private struct AccountFigures {
    var balance: Int64
    /// The balance at the end of `stated`, the latest day the bank stated one for.
    var atStated: Int64
    let stated: Day?
    var count = 0
    var first: Day?
    var last: Day?
    var overflowed = false

    init(opening: Int64, stated: Day?) {
        (balance, atStated, self.stated) = (opening, opening, stated)
    }

    /// Adds a month from its summary; `transactions` reads its rows when the stated day
    /// falls within them.
    mutating func add(
        month: Month, days: ClosedRange<Int>, count: Int, total: Int64,
        transactions: () throws(StorageError) -> [Transaction]
    ) throws(StorageError) {
        self.count += count
        if let firstDay = try? Day(year: month.year, month: month.month, day: days.lowerBound) {
            first = min(first ?? firstDay, firstDay)
        }
        if let lastDay = try? Day(year: month.year, month: month.month, day: days.upperBound) {
            last = max(last ?? lastDay, lastDay)
        }
        addToBalance(total)
        guard let stated else { return }
        let statedMonth = Month(stated)
        if month < statedMonth || (month == statedMonth && days.upperBound <= stated.day) {
            atStated &+= total
        } else if month == statedMonth && days.lowerBound <= stated.day {
            for transaction in try transactions() where transaction.date <= stated {
                atStated &+= transaction.amount.minorUnits
            }
        }
    }

    /// Adds one transaction (a month without a summary).
    mutating func add(_ transaction: Transaction) throws(StorageError) {
        count += 1
        first = min(first ?? transaction.date, transaction.date)
        last = max(last ?? transaction.date, transaction.date)
        addToBalance(transaction.amount.minorUnits)
        if let stated, transaction.date <= stated {
            atStated &+= transaction.amount.minorUnits
        }
    }

    private mutating func addToBalance(_ amount: Int64) {
        let (sum, overflow) = balance.addingReportingOverflow(amount)
        balance = sum
        overflowed = overflowed || overflow
    }
}
