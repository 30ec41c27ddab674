/// The transactions of some accounts and months, each with its account's balance after it:
/// what `statements register` lists, a view of the ledger that writes no files.
package struct Register: Hashable, Sendable {
    /// One transaction and the balance of its account after it.
    package struct Row: Hashable, Sendable {
        package let account: Account
        package let transaction: Transaction
        /// The account's balance after the transaction, whatever the filter left out.
        package let balance: Money
    }

    /// The rows by date, then account, in ledger order within a day.
    package let rows: [Row]
    /// Whether the rows come from more than one account.
    package let hasSeveralAccounts: Bool

    /// Lists the statements' transactions whose beneficiary, description, reference or
    /// transaction id contains `text` (ignoring case), or all of them.
    package init(_ statements: [MonthlyStatement], matching text: String? = nil) {
        let needle = text.map { $0.lowercased() }
        var rows: [Row] = []
        for statement in statements {
            for entry in statement.entries {
                let transaction = entry.transaction
                if let needle {
                    let fields = [
                        transaction.beneficiary, transaction.description,
                        transaction.reference, transaction.transactionID,
                    ]
                    guard fields.contains(where: { $0?.lowercased().contains(needle) == true })
                    else { continue }
                }
                rows.append(
                    Row(
                        account: statement.account, transaction: transaction, balance: entry.balance
                    ))
            }
        }
        // Stable: the statements come by month and account, their entries in ledger order.
        self.rows = rows.enumerated().sorted {
            ($0.element.transaction.date, $0.element.account.id, $0.offset)
                < ($1.element.transaction.date, $1.element.account.id, $1.offset)
        }.map(\.element)
        hasSeveralAccounts = Set(statements.map(\.account.id)).count > 1
    }
}
