/// One account's statement as a file delivers it: its transactions and, when declared,
/// the balances before and after them.
package struct Statement: Hashable, Sendable {
    /// The account the statement is for.
    package let account: Account
    /// The balance before the first transaction, when the file declares it.
    package let openingBalance: Money?
    /// The balance after the last transaction, when the file declares it.
    package let closingBalance: Money?
    /// The transactions in the order of the file.
    package let transactions: [Transaction]

    /// Creates a statement after checking it against its declared balances.
    ///
    /// - Throws: `ReconciliationError` when a currency differs from the account's, the sum
    ///   overflows, or, when both balances are declared, opening balance plus the
    ///   transactions is not the closing balance.
    package init(
        account: Account, openingBalance: Money? = nil, closingBalance: Money? = nil,
        transactions: [Transaction]
    ) throws(ReconciliationError) {
        var running = openingBalance ?? .zero(account.currency)
        for (index, transaction) in transactions.enumerated() {
            do {
                running = try running.adding(transaction.amount)
            } catch {
                throw .arithmetic(row: index, error)
            }
        }
        if let closingBalance, openingBalance != nil {
            guard closingBalance.currency == account.currency else {
                throw .arithmetic(
                    row: nil, .currencyMismatch(account.currency.code, closingBalance.currency.code)
                )
            }
            guard closingBalance == running else {
                throw .closingBalanceMismatch(declared: closingBalance, computed: running)
            }
        }
        self.account = account
        self.openingBalance = openingBalance
        self.closingBalance = closingBalance
        self.transactions = transactions
    }

    /// The sum of all transaction amounts.
    package var total: Money {
        // The initializer proved the sum fits.
        transactions.reduce(.zero(account.currency)) { try! $0.adding($1.amount) }
    }
}

/// Why a statement's numbers do not add up.
package enum ReconciliationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A running sum overflowed or mixed currencies; `row` is the 0-based transaction.
    case arithmetic(row: Int?, MoneyError)
    /// Opening balance plus the transactions differs from the declared closing balance.
    case closingBalanceMismatch(declared: Money, computed: Money)
    /// A row's running balance differs from the previous balance plus its amount.
    case runningBalanceMismatch(declared: Money, computed: Money)

    package var description: String {
        switch self {
        case .arithmetic(_, let error): "\(error)"
        case .closingBalanceMismatch(let declared, let computed):
            "closing balance \(declared.decimalText) differs from opening balance plus transactions, \(computed.decimalText)"
        case .runningBalanceMismatch(let declared, let computed):
            "balance \(declared.decimalText) differs from the previous balance plus this amount, \(computed.decimalText)"
        }
    }
}
