/// Finds rows of one file that give one transaction id to two different bookings.
///
/// A transaction id is the bank's promise of a unique booking, and the ledger keeps one
/// transaction per id. Two rows with the same id are the same booking listed twice when their
/// amount and currency agree and their dates are at most `sameBookingDays` apart (banks re-date
/// a booking across a month end); any other pair means the column is not unique, and reading on
/// would drop a booking, so it is an error naming both lines.
///
/// Every id of the file is remembered, in 24 bytes: an open-addressing table keyed by the
/// stable hash of account and id (no per-entry allocation, no seeded hashing). A row's
/// currency is its account's within a file (another is `CURRENCY_CONFLICT` first), so only
/// the minor units are kept.
///
/// The readers of the banks' formats (camt.053, MT940, OFX) keep one per statement, so that
/// memory follows the largest statement, not the file; the same id in two statements of a
/// file is the import's to judge (the ledger finds an id already there with another amount).
struct TransactionIDChecker: Sendable {
    /// How far apart two listings of one booking may be dated.
    static let sameBookingDays = 31

    private struct FirstListing: Sendable {
        var key: UInt64 = 0
        var line: UInt32 = 0
        var dayOrdinal: Int32 = 0
        var minorUnits: Int64 = 0
    }

    /// The first listing of each id; a key of 0 marks an empty slot.
    private var slots = [FirstListing](repeating: FirstListing(), count: 64)
    private var count = 0

    /// Records a row; returns the conflict when its id was given to another booking before.
    mutating func check(_ transaction: Transaction, account: AccountID, line: Int)
        -> DiagnosticMessage?
    {
        guard let id = transaction.transactionID else { return nil }
        return check(
            id: id, amount: transaction.amount, date: transaction.date, account: account,
            line: line)
    }

    /// Records a row's id, amount and date; returns the conflict when the id was given to
    /// another booking before.
    mutating func check(id: String, amount: Money, date: Day, account: AccountID, line: Int)
        -> DiagnosticMessage?
    {
        check(
            key: TransactionIdentity(account: account, transactionID: id).hash, id: id,
            amount: amount, date: date, line: line)
    }

    /// Records a row by the identity hash of its account and id (`TransactionIdentity`);
    /// returns the conflict when the id was given to another booking before. The id's text
    /// is made only for the message.
    mutating func check(
        key hash: UInt64, id: @autoclosure () -> String, amount: Money, date: Day, line: Int
    ) -> DiagnosticMessage? {
        let key = max(1, hash)
        let listing = FirstListing(
            key: key, line: UInt32(clamping: line), dayOrdinal: Int32(date.ordinal),
            minorUnits: amount.minorUnits)
        guard let earlier = insert(listing) else { return nil }
        let days = abs(date.ordinal - Int(earlier.dayOrdinal))
        guard earlier.minorUnits != amount.minorUnits || days > Self.sameBookingDays else {
            return nil
        }
        return .transactionID(
            id(), earlierLine: Int(earlier.line),
            earlier: Money(minorUnits: earlier.minorUnits, currency: amount.currency),
            earlierDay: Day(ordinal: Int(earlier.dayOrdinal)), here: amount, day: date)
    }

    /// Stores a first listing; returns the one already stored under its key instead, if any.
    private mutating func insert(_ listing: FirstListing) -> FirstListing? {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: listing.key) & mask
        while slots[index].key != 0 {
            if slots[index].key == listing.key { return slots[index] }
            index = (index + 1) & mask
        }
        slots[index] = listing
        count += 1
        return nil
    }

    private mutating func grow() {
        let old = slots
        slots = [FirstListing](repeating: FirstListing(), count: old.count * 2)
        count = 0
        for listing in old where listing.key != 0 { _ = insert(listing) }
    }

    /// Whether another checker of a later part of the same file saw an id this one saw.
    func sharesAnID(with other: TransactionIDChecker) -> Bool {
        let (smaller, larger) = count <= other.count ? (self, other) : (other, self)
        return smaller.slots.contains { $0.key != 0 && larger.contains($0.key) }
    }

    private func contains(_ key: UInt64) -> Bool {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key) & mask
        while slots[index].key != 0 {
            if slots[index].key == key { return true }
            index = (index + 1) & mask
        }
        return false
    }

    /// Takes in the ids of a later part of the same file that shares none with this one.
    mutating func absorb(_ later: TransactionIDChecker) {
        for listing in later.slots where listing.key != 0 { _ = insert(listing) }
    }
}
