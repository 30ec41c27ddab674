/// One account's statement for one month: the value all three report renderers draw.
package struct MonthlyStatement: Hashable, Sendable {
    /// One transaction with the balance after it.
    package struct Entry: Hashable, Sendable {
        package let transaction: Transaction
        package let balance: Money
    }

    package let account: Account
    package let month: Month
    /// The balance before the month's first transaction.
    package let openingBalance: Money
    /// The month's transactions in booking-day order (the ledger's order within a day).
    package let entries: [Entry]
    /// The sum of the credits.
    package let totalIn: Money
    /// The sum of the debits, negative or zero.
    package let totalOut: Money
    /// The balances the bank stated for the ends of days of the month that the ledger does
    /// not hold, in day order.
    package var bankDisagreements: [BankDisagreement] = []

    /// A balance the bank stated at the end of a day, and the ledger's there.
    package struct BankDisagreement: Hashable, Sendable {
        package let day: Day
        package let bank: Money
        package let ledger: Money

        /// The ledger's balance minus the bank's.
        package var difference: Money {
            Money(minorUnits: ledger.minorUnits &- bank.minorUnits, currency: ledger.currency)
        }

        /// Creates a disagreement.
        package init(day: Day, bank: Money, ledger: Money) {
            (self.day, self.bank, self.ledger) = (day, bank, ledger)
        }
    }

    /// The balance after the month's last transaction.
    package var closingBalance: Money { entries.last?.balance ?? openingBalance }

    /// Builds a month's statement from its opening balance and transactions.
    ///
    /// - Parameter transactions: the month's transactions in ledger order; they are sorted by
    ///   day, keeping that order within a day.
    /// - Throws: `MoneyError` when a sum leaves the 64-bit range or a currency differs.
    package init(account: Account, month: Month, openingBalance: Money, transactions: [Transaction])
        throws(MoneyError)
    {
        // Ledgers hold most months in day order already: those need no sort.
        let isInDayOrder = transactions.indices.dropFirst().allSatisfy {
            transactions[$0 - 1].date <= transactions[$0].date
        }
        let ordered =
            isInDayOrder
            ? transactions
            : transactions.enumerated().sorted {
                ($0.element.date, $0.offset) < ($1.element.date, $1.offset)
            }.map(\.element)
        var balance = openingBalance
        var totalIn = Money.zero(account.currency)
        var totalOut = Money.zero(account.currency)
        var entries: [Entry] = []
        entries.reserveCapacity(ordered.count)
        for transaction in ordered {
            balance = try balance.adding(transaction.amount)
            if transaction.amount.minorUnits >= 0 {
                totalIn = try totalIn.adding(transaction.amount)
            } else {
                totalOut = try totalOut.adding(transaction.amount)
            }
            entries.append(Entry(transaction: transaction, balance: balance))
        }
        self.account = account
        self.month = month
        self.openingBalance = openingBalance
        self.entries = entries
        self.totalIn = totalIn
        self.totalOut = totalOut
    }

    /// The balance at the end of each day that has transactions, in day order.
    package var dailyBalances: [(day: Day, balance: Money)] {
        var result: [(Day, Money)] = []
        // By index: the date and balance alone, not a copy of each entry and its texts.
        for index in entries.indices {
            let (date, balance) = (entries[index].transaction.date, entries[index].balance)
            if result.last?.0 == date {
                result[result.count - 1].1 = balance
            } else {
                result.append((date, balance))
            }
        }
        return result
    }
}
