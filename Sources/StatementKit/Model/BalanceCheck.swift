/// Whether an account's ledger agrees with every balance its bank stated, and where not.
///
/// The earliest assertion anchors the account: the opening balance is that balance minus the
/// bookings up to its day, so it follows from the statements, not from the order they were
/// imported in. Every other assertion is then compared with the opening balance plus the
/// bookings up to its day.
package struct BalanceCheck: Hashable, Sendable {
    /// One assertion the ledger does not hold, first of a run of failing ones with the same
    /// difference.
    package struct Failure: Hashable, Sendable {
        package let assertion: BalanceAssertion
        /// The ledger's balance at the end of the assertion's day.
        package let ledger: Money
        /// The last day before it at whose end a bank balance holds; `nil` when none does.
        package let lastHolding: Day?
        /// How many later assertions fail by the same difference.
        package let repeats: Int

        /// The ledger's balance minus the bank's.
        package var difference: Money {
            Money(
                minorUnits: ledger.minorUnits &- assertion.balance.minorUnits,
                currency: ledger.currency)
        }
    }

    /// The opening balance the assertions imply; `nil` without assertions.
    package let opening: Money?
    /// The failing assertions, a run of the same difference reported once.
    package let failures: [Failure]
    /// The latest assertion, and the ledger's balance at the end of its day.
    package let latest: (assertion: BalanceAssertion, ledger: Money)?
    /// Whether the opening balance, a balance or a difference the assertions imply is beyond
    /// the range of a 64-bit amount: the files that stated them cannot be kept.
    package let overflows: Bool

    /// The day from which the account is out of balance, and by how much now (the difference
    /// at the latest failing assertion); `nil` when every assertion holds.
    package var outOfBalance: OutOfBalance? {
        guard let first = failures.first, let last = failures.last else { return nil }
        return OutOfBalance(since: first.assertion.day, difference: last.difference)
    }

    /// Checks sorted assertions against the ledger.
    ///
    /// - Parameters:
    ///   - sums: for each assertion, the sum of the account's bookings dated on or before its
    ///     day (without any opening balance).
    package init(assertions: [BalanceAssertion], sums: [Int64]) {
        precondition(assertions.count == sums.count)
        guard let anchor = assertions.first else {
            (opening, failures, latest, overflows) = (nil, [], nil, false)
            return
        }
        let currency = anchor.balance.currency
        var (openingUnits, overflows) = anchor.balance.minorUnits.subtractingReportingOverflow(
            sums[0])
        var failures: [Failure] = []
        var lastHolding: Day?
        var run: (index: Int, difference: Int64)?
        var ledger = anchor.balance
        for (assertion, sum) in zip(assertions, sums) {
            let (units, sumOverflows) = openingUnits.addingReportingOverflow(sum)
            ledger = Money(minorUnits: units, currency: currency)
            let (difference, differenceOverflows) = ledger.minorUnits
                .subtractingReportingOverflow(assertion.balance.minorUnits)
            overflows = overflows || sumOverflows || differenceOverflows
            guard difference != 0 else {
                lastHolding = assertion.day
                run = nil
                continue
            }
            if let current = run, current.difference == difference {
                let first = failures[current.index]
                failures[current.index] = Failure(
                    assertion: first.assertion, ledger: first.ledger,
                    lastHolding: first.lastHolding, repeats: first.repeats + 1)
                continue
            }
            run = (failures.count, difference)
            failures.append(
                Failure(
                    assertion: assertion, ledger: ledger,
                    lastHolding: lastHolding.flatMap { $0 < assertion.day ? $0 : nil },
                    repeats: 0))
        }
        opening = Money(minorUnits: openingUnits, currency: currency)
        self.overflows = overflows
        self.failures = failures
        latest = (assertions.last!, ledger)
    }

    package static func == (lhs: BalanceCheck, rhs: BalanceCheck) -> Bool {
        lhs.opening == rhs.opening && lhs.failures == rhs.failures
            && lhs.latest?.assertion == rhs.latest?.assertion
            && lhs.latest?.ledger == rhs.latest?.ledger
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(opening)
        hasher.combine(failures)
    }
}

/// An account out of balance: since the end of which day, and by how much (the ledger's
/// balance minus the bank's).
package struct OutOfBalance: Hashable, Sendable {
    package let since: Day
    package let difference: Money

    /// Creates the state.
    package init(since: Day, difference: Money) {
        (self.since, self.difference) = (since, difference)
    }
}
