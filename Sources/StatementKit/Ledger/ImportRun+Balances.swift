import Foundation

/// The run's balance assertions: checked, reported, and the accounts that stay out of balance.
extension ImportRun {
    /// The accounts out of balance that the run did not check: they stay so, and a nightly
    /// run says it (and exits 1) every night until a file makes their balances hold.
    func standingOutOfBalance(besides checked: [AccountBalanceReport])
        -> [AccountBalanceReport]
    {
        let reported = Set(checked.map(\.account.id))
        return manifest.accounts.filter {
            $0.value.outOfBalance != nil && !reported.contains($0.key)
        }
        .sorted { $0.key < $1.key }
        .map { _, entry in
            AccountBalanceReport(
                account: entry.account, failures: [], outOfBalance: entry.outOfBalance,
                wasOutOfBalance: entry.outOfBalance)
        }
    }

    // MARK: Balance assertions

    /// What checking the balances of the touched accounts found.
    struct BalanceOutcome {
        var reports: [AccountBalanceReport] = []
        /// Per account out of balance, its failures: the file and line that state each, and
        /// what to say.
        var failures: [AccountID: [(source: String, line: Int, message: DiagnosticMessage)]] = [:]
        /// The accounts whose section changed (assertions, their sums, month totals).
        var changed: Set<AccountID> = []
        /// The accounts whose opening balance or balance state changed: every report of
        /// theirs changes.
        var moved: Set<AccountID> = []
        /// The accounts whose assertions imply a balance beyond a 64-bit amount.
        var overflowing: Set<AccountID> = []
    }

    /// The files that added rows or balances to an account whose assertions imply a balance
    /// beyond a 64-bit amount, and under `--strict` those that touched an account the run
    /// leaves out of balance, each with the failures it states (or, stated elsewhere, one
    /// that names the account); `nil` when there are none.
    func balanceRejections(_ outcome: BalanceOutcome)
        -> [String: [(line: Int, message: DiagnosticMessage)]]?
    {
        var rejections: [String: [(line: Int, message: DiagnosticMessage)]] = [:]
        for (name, accounts) in fileTouches {
            for accountID in accounts.sorted() {
                if outcome.overflowing.contains(accountID) {
                    rejections[name, default: []].append(
                        (0, .balanceOutOfRange(account: accountID)))
                    continue
                }
                guard reading.isStrict, let failures = outcome.failures[accountID],
                    let state = manifest.accounts[accountID]?.outOfBalance
                else { continue }
                let own = failures.filter { $0.source == name }
                rejections[name, default: []] +=
                    own.isEmpty
                    ? [(0, .leavesOutOfBalance(account: accountID, state))]
                    : own.map { ($0.line, $0.message) }
            }
        }
        return rejections.isEmpty ? nil : rejections
    }

    /// Adds the balances the run's files stated to their accounts and checks every assertion
    /// of each account the run touched against the ledger (`BalanceCheck`), setting each
    /// account's opening balance and balance state.
    ///
    /// - Complexity: the months of an account from the earliest the run added rows to, and
    ///   the totals of the months before it; an assertion checked before keeps the sum of the
    ///   bookings up to its day unless the run added bookings on or before it.
    func checkBalances(grown: [AccountMonth]) throws(StorageError) -> BalanceOutcome {
        var earliest: [AccountID: Day] = [:]
        for key in grown {
            let first = try! Day(year: key.month.year, month: key.month.month, day: 1)
            earliest[key.accountID] = min(earliest[key.accountID] ?? first, first)
        }
        var outcome = BalanceOutcome()
        // Failures are said at most `--max-diagnostics` times per file, as its own are.
        var said: [String: Int] = [:]
        let limit = reading.diagnosticLimit == 0 ? Int.max : reading.diagnosticLimit
        let accountIDs = Set(earliest.keys).union(statedAssertions.keys)
        try loadMonths(of: accountIDs)
        for accountID in accountIDs.sorted() {
            var entry = manifest.accounts[accountID]!
            let added = BalanceAssertion.merge(
                statedAssertions[accountID] ?? [], into: &entry.assertions)
            guard !entry.assertions.isEmpty else { continue }
            let before = entry
            try fillSums(&entry, from: earliest[accountID])
            let check = BalanceCheck(
                assertions: entry.assertions, sums: entry.assertions.map { $0.ledgerSum! })
            if check.overflows { outcome.overflowing.insert(accountID) }
            entry.openingBalance = check.opening
            entry.outOfBalance = check.outOfBalance
            // The turnover counts the opening balance's magnitude.
            let magnitude = { (money: Money?) in Int64(money?.minorUnits.magnitude ?? 0) }
            let (turnover, overflow) = ((entry.turnover ?? 0) - magnitude(before.openingBalance))
                .addingReportingOverflow(magnitude(check.opening))
            entry.turnover = overflow ? .max : turnover
            manifest.accounts[accountID] = entry
            if added || entry != before { outcome.changed.insert(accountID) }
            if before.openingBalance != entry.openingBalance
                || before.outOfBalance != entry.outOfBalance
            {
                outcome.moved.insert(accountID)
            }
            let failures = check.failures.map { failure in
                (
                    source: failure.assertion.source, line: failure.assertion.line,
                    message: DiagnosticMessage.balanceAssertion(failure, account: accountID)
                )
            }
            if !failures.isEmpty { outcome.failures[accountID] = failures }
            let shown = failures.filter { failure in
                said[failure.source, default: 0] += 1
                return said[failure.source]! <= limit
            }
            outcome.reports.append(
                AccountBalanceReport(
                    account: entry.account,
                    failures: shown.map { failure in
                        Diagnostic(
                            file: failure.source, line: failure.line, column: 1,
                            severity: .error, code: failure.message.code,
                            message: failure.message.text)
                    },
                    outOfBalance: entry.outOfBalance,
                    wasOutOfBalance: committed.accounts[accountID]?.outOfBalance))
        }
        return outcome
    }

    /// Works out, for each assertion without one or on or after `from`, the sum of the
    /// account's bookings dated on or before its day: the totals of the months before its
    /// month, and its month's bookings up to its day.
    private func fillSums(_ entry: inout LedgerManifest.AccountEntry, from: Day?)
        throws(StorageError)
    {
        let needed = entry.assertions.indices.filter { index in
            let assertion = entry.assertions[index]
            return assertion.ledgerSum == nil || from.map { assertion.day >= $0 } ?? false
        }
        guard let last = needed.last else { return }
        let lastMonth = Month(entry.assertions[last].day)
        // The sum of the months before each month, up to the last one needed.
        var before: [Month: Int64] = [:]
        var running: Int64 = 0
        for month in entry.months.keys.sorted() where month <= lastMonth {
            before[month] = running
            var length = entry.months[month]!
            if length.total == nil {
                // A month of format 4: its total, worked out once and kept.
                length.total = try storage.total(of: entry.account, in: month, length: length)
                    .minorUnits
                entry.months[month] = length
            }
            running &+= length.total!
        }
        var days: [Month: [(day: Day, sum: Int64)]] = [:]
        for index in needed {
            let day = entry.assertions[index].day
            let month = Month(day)
            let sumBefore =
                before[month]
                ?? entry.months.filter { $0.key < month }.values.reduce(0) {
                    $0 &+ $1.total!
                }
            var partial: Int64 = 0
            if let length = entry.months[month] {
                if days[month] == nil {
                    // The month's bookings summed by day, in order.
                    var sums: [Day: Int64] = [:]
                    for transaction in try storage.transactions(
                        of: entry.account, in: month, length: length)
                    {
                        sums[transaction.date, default: 0] &+= transaction.amount.minorUnits
                    }
                    var cumulative: Int64 = 0
                    days[month] = sums.keys.sorted().map { day in
                        cumulative &+= sums[day]!
                        return (day, cumulative)
                    }
                }
                partial = days[month]!.last { $0.day <= day }?.sum ?? 0
            }
            entry.assertions[index].ledgerSum = sumBefore &+ partial
        }
    }
}
