/// A set of 64-bit hashes (identity and content hashes) in one flat array probed linearly:
/// 8 bytes a slot and no general-purpose hashing of each, where a `Set<UInt64>` runs SipHash
/// on every insert, lookup and growth (an import inserts and looks up a few per row).
///
/// A hash's slot comes from its bits mixed with a seed made once per process, so that no file
/// can be made to crowd one stretch of the table.
struct HashSet64 {
    /// The hashes, 0 in an empty slot; a count that is a power of two, or none yet.
    private var slots: [UInt64] = []
    /// Whether 0 itself is in the set (its slot would look empty).
    private var hasZero = false
    /// How many hashes are in `slots`.
    private var stored = 0

    private static let seed = UInt64.random(in: 1...UInt64.max)

    init() {}

    /// How many hashes the set holds.
    var count: Int { stored + (hasZero ? 1 : 0) }

    func contains(_ hash: UInt64) -> Bool {
        if hash == 0 { return hasZero }
        guard !slots.isEmpty else { return false }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.home(hash, mask)
            while true {
                let slot = slots[index]
                if slot == hash { return true }
                if slot == 0 { return false }
                index = (index + 1) & mask
            }
        }
    }

    /// Adds a hash; whether it was not there before.
    @discardableResult
    mutating func insert(_ hash: UInt64) -> Bool {
        if hash == 0 {
            defer { hasZero = true }
            return !hasZero
        }
        // At most three quarters full, as a `Set`.
        if (stored + 1) * 4 > slots.count * 3 { grow() }
        let inserted = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.home(hash, mask)
            while true {
                let slot = slots[index]
                if slot == hash { return false }
                if slot == 0 {
                    slots[index] = hash
                    return true
                }
                index = (index + 1) & mask
            }
        }
        if inserted { stored += 1 }
        return inserted
    }

    /// Takes a hash out; the hashes after it in its run move back, so that no lookup stops
    /// short of them.
    mutating func remove(_ hash: UInt64) {
        if hash == 0 {
            hasZero = false
            return
        }
        guard !slots.isEmpty else { return }
        let removed = slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var hole = Self.home(hash, mask)
            while slots[hole] != hash {
                if slots[hole] == 0 { return false }
                hole = (hole + 1) & mask
            }
            LinearProbing.empty(hole, of: slots) { Self.home($0, mask) }
            return true
        }
        if removed { stored -= 1 }
    }

    /// Doubles the slots (16 at first), placing every hash again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: max(16, old.count * 2))
        stored = 0
        for hash in old where hash != 0 { insert(hash) }
    }

    @inline(__always)
    private static func home(_ hash: UInt64, _ mask: Int) -> Int {
        // Fibonacci hashing of the seeded bits: the high bits of the product, which every
        // bit of the hash reaches.
        let mixed = (hash ^ seed) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: (mixed >> 32) ^ mixed) & mask
    }
}

/// Tables of 64-bit slots probed linearly, 0 an empty slot (`HashSet64`,
/// `AccountMonthTable`).
enum LinearProbing {
    /// Empties a slot; the slots after it in its run move back, so that no lookup stops
    /// short of them. `home` gives where a slot's value is looked for first.
    static func empty(
        _ slot: Int, of slots: UnsafeMutableBufferPointer<UInt64>, home: (UInt64) -> Int
    ) {
        let mask = slots.count - 1
        var hole = slot
        slots[hole] = 0
        var next = hole
        while true {
            next = (next + 1) & mask
            let moving = slots[next]
            if moving == 0 { return }
            let home = home(moving)
            // Stays where it is when its home lies after the hole, up to it.
            let stays =
                hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if stays { continue }
            slots[hole] = moving
            slots[next] = 0
            hole = next
        }
    }
}
