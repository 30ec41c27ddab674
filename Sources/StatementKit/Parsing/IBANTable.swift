/// A map from IBANs to values for the parser's row loop: the IBANs validated in a file, the
/// slot of each account.
///
/// Open addressing with linear probing on `IBAN.quickHash`: a lookup hashes five machine words
/// instead of running Swift's seeded SipHash, which a `Dictionary` would cost on every row.
struct IBANTable<Value> {
    private var slots: [(iban: IBAN, value: Value)?] = Array(repeating: nil, count: 64)
    private(set) var count = 0

    /// The value stored for the IBAN.
    subscript(iban: IBAN) -> Value? {
        var index = Int(truncatingIfNeeded: iban.quickHash) & (slots.count - 1)
        while let slot = slots[index] {
            if slot.iban == iban { return slot.value }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    /// The IBANs in the table, in no particular order.
    var ibans: [IBAN] { slots.compactMap { $0?.iban } }

    /// Stores a value for the IBAN, replacing any earlier one. Entries are never removed.
    mutating func insert(_ iban: IBAN, _ value: Value) {
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = Array(repeating: nil, count: old.count * 2)
            count = 0
            for case let entry? in old { place(entry.iban, entry.value) }
        }
        place(iban, value)
    }

    /// Stores the value in the IBAN's slot, or in the first free one after it.
    private mutating func place(_ iban: IBAN, _ value: Value) {
        var index = Int(truncatingIfNeeded: iban.quickHash) & (slots.count - 1)
        while let slot = slots[index] {
            if slot.iban == iban {
                slots[index] = (iban, value)
                return
            }
            index = (index + 1) & (slots.count - 1)
        }
        slots[index] = (iban, value)
        count += 1
    }
}

extension IBANTable where Value == Void {
    /// Whether the table holds the IBAN, used as a set.
    func contains(_ iban: IBAN) -> Bool { self[iban] != nil }

    /// Adds the IBAN, used as a set.
    mutating func insert(_ iban: IBAN) { insert(iban, ()) }
}

extension IBANTable: Sendable where Value: Sendable {}
