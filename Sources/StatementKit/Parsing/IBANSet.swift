/// The IBANs a parser has validated in one file, so that a repeated one is not validated again.
///
/// Open addressing with linear probing on `IBAN.quickHash`: a lookup hashes five machine words
/// instead of running Swift's seeded SipHash, which the row loop would otherwise pay per row.
struct IBANSet {
    private var slots: [IBAN?] = Array(repeating: nil, count: 64)
    private(set) var count = 0

    /// Whether the set holds the IBAN.
    func contains(_ iban: IBAN) -> Bool {
        var index = Int(truncatingIfNeeded: iban.quickHash) & (slots.count - 1)
        while let slot = slots[index] {
            if slot == iban { return true }
            index = (index + 1) & (slots.count - 1)
        }
        return false
    }

    /// Adds the IBAN if it is not there yet.
    mutating func insert(_ iban: IBAN) {
        guard !contains(iban) else { return }
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = Array(repeating: nil, count: old.count * 2)
            count = 0
            for case let iban? in old { place(iban) }
        }
        place(iban)
    }

    private mutating func place(_ iban: IBAN) {
        var index = Int(truncatingIfNeeded: iban.quickHash) & (slots.count - 1)
        while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
        slots[index] = iban
        count += 1
    }
}
