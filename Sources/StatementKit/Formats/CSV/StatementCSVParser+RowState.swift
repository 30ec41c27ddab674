extension StatementCSVParser {
    /// What the parser remembers between rows: the accounts seen so far in the file.
    struct RowState: Sendable {
        struct AccountState: Sendable {
            var account: Account
            var firstLine: Int
            var balance: RunningBalance
            /// How the account's rows began in the part of the file read with this state.
            var start: RunningBalance.Start
            /// Whether a row named another currency than the account's.
            var hasCurrencyConflicts = false
            /// The sum of the account's rows; `nil` after it overflowed.
            var total: Int64? = 0
        }

        /// A balance the preamble declares, as written, and where.
        struct DeclaredBalance: Sendable {
            let text: String
            let line: Int
            let column: Int
        }

        /// The statement's opening and closing balances that the preamble declares.
        var declaredBalances: [Dialect.PreambleItem: DeclaredBalance] = [:]

        var accounts: [AccountState] = []
        var accountSlots = AccountTable<Int>()
        /// What the dialect or the preamble says of the account of every row.
        var fixedAccount: AccountID?
        var fixedName: String?
        var fixedCurrency: Currency?

        init(dialect: Dialect) {
            fixedAccount = dialect.accountID
            fixedName = dialect.accountName
            fixedCurrency = dialect.accountCurrency
        }

        /// The IBANs of the file validated so far, to skip validating them again.
        var validAccounts = AccountTable<Void>()
        /// The slot of the account of the previous valid row.
        var lastSlot: (accountID: AccountID, slot: Int)?

        /// The IBANs of unreadable rows before their account's first valid row.
        var skippedBeforeFirstRow = AccountTable<Void>()
        /// The IBANs warned about for their national check digits.
        var nationalCheckWarnings = AccountTable<Void>()
        /// The transaction ids seen, to find one given to two bookings.
        var transactionIDs = TransactionIDChecker()
        /// How many rows were left out as not booked yet.
        var notBookedCount = 0

        /// Forgets an account's balance after one of its rows could not be read.
        mutating func skipUnreadableRow(of accountID: AccountID) {
            if let slot = accountSlots[accountID] {
                accounts[slot].balance.skipUnreadableRow()
            } else {
                skippedBeforeFirstRow.insert(accountID)
            }
        }
    }
}
