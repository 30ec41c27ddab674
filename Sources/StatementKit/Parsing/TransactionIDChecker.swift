/// Finds rows of one file that give one transaction id to two different bookings.
///
/// A transaction id is the bank's promise of a unique booking, and the ledger keeps one
/// transaction per id. Two rows with the same id are the same booking listed twice when their
/// amount and currency agree and their dates are at most `sameBookingDays` apart (banks re-date
/// a booking across a month end); any other pair means the column is not unique, and reading on
/// would drop a booking, so it is an error naming both lines.
struct TransactionIDChecker {
    /// How far apart two listings of one booking may be dated.
    static let sameBookingDays = 31

    private struct FirstListing {
        let line: Int
        let amount: Money
        let date: Day
    }

    /// The first listing of each id, by a stable hash of the account and the id.
    private var first: [UInt64: FirstListing] = [:]

    /// Records a row; returns the reason when its id was given to another booking before.
    mutating func check(_ transaction: Transaction, account: IBAN, line: Int) -> String? {
        guard let id = transaction.transactionID else { return nil }
        let key = TransactionIdentity(account: account, transactionID: id).hash
        guard let earlier = first[key] else {
            first[key] = FirstListing(line: line, amount: transaction.amount, date: transaction.date)
            return nil
        }
        let days = abs(transaction.date.ordinal - earlier.date.ordinal)
        guard earlier.amount != transaction.amount || days > Self.sameBookingDays else {
            return nil
        }
        return "transaction id \(Diagnostic.quote(id)) is also on line \(earlier.line), for \(earlier.amount.decimalText) \(earlier.amount.currency.code) on \(earlier.date); here \(transaction.amount.decimalText) \(transaction.amount.currency.code) on \(transaction.date). If the bank does not keep this column unique, map it as reference instead"
    }
}
