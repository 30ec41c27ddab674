/// A map from account-months to values for an import's merging core, which looks up, adds
/// and takes out account-months several times for each staged month (millions of them in a
/// first import at a bank's scale).
///
/// The keys and values are in two arrays, in the order added (taking one out moves the last
/// into its place); a table of 8-byte slots, probed linearly, maps each key to its place: 32
/// bits of the key's hash and the place plus one (0: empty). A `Dictionary` would hold
/// 56-byte entries and run SipHash on every lookup and growth. The hash is the account id's
/// `quickHash` and the month, mixed with a seed made once per process.
struct AccountMonthTable<Value> {
    typealias Key = ImportRun.AccountMonth

    private var slots: [UInt64] = []
    private(set) var keys: [Key] = []
    private var values: [Value] = []

    init() {}

    var count: Int { keys.count }

    /// The value of a key; setting `nil` takes the key out.
    subscript(key: Key) -> Value? {
        get { place(of: key).map { values[$0] } }
        set {
            if let newValue {
                values[place(of: key) { newValue }] = newValue
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value at a place (`place(of:)`), changed in place.
    subscript(place: Int) -> Value {
        get { values[place] }
        _modify { yield &values[place] }
    }

    /// The place of a key's value; `nil` when the table does not hold it.
    func place(of key: Key) -> Int? {
        find(key).place
    }

    /// The place of a key's value, made by `make` the first time.
    mutating func place(of key: Key, making make: () -> Value) -> Int {
        var (slot, place) = find(key)
        if let place { return place }
        // At most three quarters full.
        if (keys.count + 1) * 4 > slots.count * 3 {
            rebuild(capacity: max(1024, slots.count * 2))
            slot = find(key).slot
        }
        slots[slot] = Self.slot(Self.hash(key), place: keys.count)
        keys.append(key)
        values.append(make())
        return keys.count - 1
    }

    /// Takes a key out (`LinearProbing.empty`); the last key and value move into its place.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        let (slot, found) = find(key)
        guard let place = found else { return nil }
        slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            LinearProbing.empty(slot, of: slots) { Self.home($0, mask) }
        }
        let last = keys.count - 1
        if place != last {
            let moved = find(keys[last]).slot
            slots[moved] = (slots[moved] >> 32) << 32 | UInt64(place + 1)
            keys.swapAt(place, last)
            values.swapAt(place, last)
        }
        keys.removeLast()
        return values.removeLast()
    }

    /// Takes out every key whose value `shouldRemove` says, keeping the others in order.
    mutating func removeAll(where shouldRemove: (Value) -> Bool) {
        let keep = values.map { !shouldRemove($0) }
        keys = zip(keys, keep).compactMap { $1 ? $0 : nil }
        values = zip(values, keep).compactMap { $1 ? $0 : nil }
        var capacity = 1024
        while keys.count * 4 > capacity * 3 { capacity *= 2 }
        rebuild(capacity: capacity)
    }

    /// Takes every key out.
    mutating func removeAll() {
        self = AccountMonthTable()
    }

    /// The values with their keys, in the order added.
    var entries: Zip2Sequence<[Key], [Value]> { zip(keys, values) }

    /// The slot that holds a key, with its place; else the empty slot where it would go.
    private func find(_ key: Key) -> (slot: Int, place: Int?) {
        guard !slots.isEmpty else { return (0, nil) }
        let hash = Self.hash(key)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Self.home(hash, mask)
            while true {
                let slot = slots[index]
                if slot == 0 { return (index, nil) }
                let place = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if slot >> 32 == hash >> 32 && keys[place] == key { return (index, place) }
                index = (index + 1) & mask
            }
        }
    }

    /// Makes `capacity` slots (a power of two), placing every key again.
    private mutating func rebuild(capacity: Int) {
        slots = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        slots.withUnsafeMutableBufferPointer { slots in
            for (place, key) in keys.enumerated() {
                let hash = Self.hash(key)
                var index = Self.home(hash, mask)
                while slots[index] != 0 { index = (index + 1) & mask }
                slots[index] = Self.slot(hash, place: place)
            }
        }
    }

    /// A key's slot: the high 32 bits of its hash, and its place plus one.
    private static func slot(_ hash: UInt64, place: Int) -> UInt64 {
        precondition(place < Int(UInt32.max), "fewer than 2^32 account-months in a run")
        return (hash >> 32) << 32 | UInt64(place + 1)
    }

    /// Where a hash (or a slot, which keeps its high 32 bits) is looked for first.
    @inline(__always)
    private static func home(_ hash: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: hash >> 32) & mask
    }

    @inline(__always)
    private static func hash(_ key: Key) -> UInt64 {
        let month = UInt64(key.month.year) << 8 | UInt64(key.month.month)
        var mixed = (key.accountID.quickHash ^ accountMonthSeed) &+ month &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return mixed ^ (mixed >> 29)
    }
}

/// The seed of every `AccountMonthTable`'s hash, made once per process.
private let accountMonthSeed = UInt64.random(in: 1...UInt64.max)
