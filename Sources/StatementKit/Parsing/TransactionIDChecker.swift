/// Finds rows of one file that give one transaction id to two different bookings.
///
/// A transaction id is the bank's promise of a unique booking, and the ledger keeps one
/// transaction per id. Two rows with the same id are the same booking listed twice when their
/// amount and currency agree and their dates are at most `sameBookingDays` apart (banks re-date
/// a booking across a month end); any other pair means the column is not unique, and reading on
/// would drop a booking, so it is an error naming both lines.
struct TransactionIDChecker: Sendable {
    /// How far apart two listings of one booking may be dated.
    static let sameBookingDays = 31

    private struct FirstListing: Sendable {
        let line: Int
        let amount: Money
        let date: Day
    }

    /// The first listing of each id, by a stable hash of the account and the id.
    private var first: [UInt64: FirstListing] = [:]

    /// Records a row; returns the reason when its id was given to another booking before.
    mutating func check(_ transaction: Transaction, account: IBAN, line: Int) -> String? {
        guard let id = transaction.transactionID else { return nil }
        return check(
            id: id, amount: transaction.amount, date: transaction.date, account: account,
            line: line)
    }

    /// Records a row's id, amount and date; returns the reason when the id was given to
    /// another booking before.
    mutating func check(id: String, amount: Money, date: Day, account: IBAN, line: Int)
        -> String?
    {
        let key = TransactionIdentity(account: account, transactionID: id).hash
        guard let earlier = first[key] else {
            first[key] = FirstListing(line: line, amount: amount, date: date)
            return nil
        }
        let days = abs(date.ordinal - earlier.date.ordinal)
        guard earlier.amount != amount || days > Self.sameBookingDays else { return nil }
        return
            "transaction id \(Diagnostic.quote(id)) is also on line \(earlier.line), for \(earlier.amount.decimalText) \(earlier.amount.currency.code) on \(earlier.date); here \(amount.decimalText) \(amount.currency.code) on \(date). If the bank does not keep this column unique, map it as reference instead"
    }

    /// Whether another checker of a later part of the same file saw an id this one saw.
    func sharesAnID(with other: TransactionIDChecker) -> Bool {
        let (smaller, larger) =
            first.count <= other.first.count ? (first, other.first) : (other.first, first)
        return smaller.keys.contains { larger[$0] != nil }
    }

    /// Takes in the ids of a later part of the same file that shares none with this one.
    mutating func absorb(_ later: TransactionIDChecker) {
        first.merge(later.first) { earlier, _ in earlier }
    }
}
