/// A map from IBANs to values for the parser's row loop: the IBANs validated in a file, the
/// slot of each account.
///
/// Open addressing with linear probing on `AccountID.quickHash`: a lookup hashes five machine words
/// instead of running Swift's seeded SipHash, which a `Dictionary` would cost on every row.
struct AccountTable<Value> {
    private var slots: [(accountID: AccountID, value: Value)?] = Array(repeating: nil, count: 64)
    private(set) var count = 0

    /// The value stored for the AccountID.
    subscript(accountID: AccountID) -> Value? {
        var index = Int(truncatingIfNeeded: accountID.quickHash) & (slots.count - 1)
        while let slot = slots[index] {
            if slot.accountID == accountID { return slot.value }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// The IBANs in the table, in no particular order.
    var accountIDs: [AccountID] { slots.compactMap { $0?.accountID } }

    /// Stores a value for the AccountID, replacing any earlier one. Entries are never removed.
    mutating func insert(_ accountID: AccountID, _ value: Value) {
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = Array(repeating: nil, count: old.count * 2)
            count = 0
            for case let entry? in old { place(entry.accountID, entry.value) }
        }
        place(accountID, value)
    }

    /// Stores the value in the AccountID's slot, or in the first free one after it.
    private mutating func place(_ accountID: AccountID, _ value: Value) {
        var index = Int(truncatingIfNeeded: accountID.quickHash) & (slots.count - 1)
        while let slot = slots[index] {
            if slot.accountID == accountID {
                slots[index] = (accountID, value)
                return
            }
            index = (index + 1) & (slots.count - 1)
        }
        slots[index] = (accountID, value)
        count += 1
    }
}

extension AccountTable where Value == Void {
    /// Whether the table holds the AccountID, used as a set.
    func contains(_ accountID: AccountID) -> Bool { self[accountID] != nil }

    /// Adds the AccountID, used as a set.
    mutating func insert(_ accountID: AccountID) { insert(accountID, ()) }
}

extension AccountTable: Sendable where Value: Sendable {}
