/// A balance a statement file states, as its reader found it: an opening or closing balance
/// of one statement, or a running balance at the end of a day. `StatementFileReader` places
/// opening and closing balances at a day from the statement's rows (`BalanceDays`).
package struct StatedBalance: Hashable, Sendable {
    /// Where in the statement the balance holds.
    package enum Point: Hashable, Sendable {
        /// Before the statement's first booking of the account.
        case opening
        /// After its last booking of the account.
        case closing
        /// At the end of a day.
        case endOfDay(Day)
    }

    /// The account, as the statement describes it.
    package let account: Account
    package let point: Point
    package let balance: Money
    /// The 1-based line that states it.
    package let line: Int
    /// The line on which its statement starts: the statement's rows are those from there to
    /// the next statement's start.
    package let statementLine: Int
    /// The day the statement gives the balance, used when it has no booking of the account.
    package let statedDay: Day?

    /// Creates a stated balance.
    package init(
        account: Account, point: Point, balance: Money, line: Int, statementLine: Int = 1,
        statedDay: Day? = nil
    ) {
        self.account = account
        self.point = point
        self.balance = balance
        self.line = line
        self.statementLine = statementLine
        self.statedDay = statedDay
    }

    /// The day at whose end the balance holds, once placed.
    package var day: Day? {
        if case .endOfDay(let day) = point { day } else { nil }
    }
}
