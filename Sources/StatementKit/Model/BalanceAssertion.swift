/// A balance the bank stated for an account: after every booking dated on or before `day`,
/// the account held `balance`. The ledger keeps each one and checks it after every import
/// (`BalanceCheck`), whatever order files arrive in.
///
/// Opening balances hold at the end of the day before the statement's first booking, closing
/// balances at the end of the day the statement gives (or of its last booking's day), running
/// balances after their row, carried to the end of the day by the day's later rows; a file's
/// latest day may be partial, so its running balance holds at the end of the day before,
/// less that day's rows (`BalanceDays.placed`).
package struct BalanceAssertion: Hashable, Sendable, Comparable {
    /// The day at whose end the balance holds.
    package let day: Day
    package let balance: Money
    /// The statement file that stated it, as the user named it.
    package let source: String
    /// The 1-based line of the file that states it.
    package let line: Int
    /// The sum of the account's bookings dated on or before `day` when it was last checked:
    /// a later run works it out again only when it adds bookings on or before that day.
    package var ledgerSum: Int64?

    /// Creates an assertion.
    package init(day: Day, balance: Money, source: String, line: Int, ledgerSum: Int64? = nil) {
        (self.day, self.balance, self.source, self.line) = (day, balance, source, line)
        self.ledgerSum = ledgerSum
    }

    /// Orders by day, then balance, then source: the order checks and the ledger keep.
    package static func < (lhs: BalanceAssertion, rhs: BalanceAssertion) -> Bool {
        (lhs.day, lhs.balance.minorUnits, lhs.source, lhs.line)
            < (rhs.day, rhs.balance.minorUnits, rhs.source, rhs.line)
    }

    /// Whether the two state the same fact (the same balance at the end of the same day),
    /// from whichever file.
    package func states(_ other: BalanceAssertion) -> Bool {
        day == other.day && balance == other.balance
    }

    /// Adds assertions to a sorted list of an account's, keeping one of each fact (the first
    /// in order, so that the result does not depend on the order of imports).
    ///
    /// - Returns: whether the list changed.
    @discardableResult
    package static func merge(_ new: [BalanceAssertion], into list: inout [BalanceAssertion])
        -> Bool
    {
        guard !new.isEmpty else { return false }
        let merged = (list + new).sorted()
        var kept: [BalanceAssertion] = []
        kept.reserveCapacity(merged.count)
        for assertion in merged where kept.last.map({ !$0.states(assertion) }) ?? true {
            kept.append(assertion)
        }
        let place = { (assertion: BalanceAssertion) in
            [assertion.day.ordinal, Int(assertion.balance.minorUnits), assertion.line]
        }
        guard kept.map(place) != list.map(place) || kept.map(\.source) != list.map(\.source)
        else { return false }
        list = kept
        return true
    }
}
