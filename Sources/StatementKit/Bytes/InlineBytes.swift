/// Up to 40 bytes held inline, without a heap allocation, with their count: the text of an
/// IBAN or an account id, so that millions of rows are read without allocating per row.
/// Equal and hashed as five words and the count.
struct InlineBytes: Sendable {
    /// The most bytes it holds.
    static let capacity = 40

    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// The number of bytes, in one byte: 41 bytes in all, so that an account id and a month
    /// together take 48 (a run at a bank's scale keys millions of account-months).
    private var storedCount: UInt8 = 0

    /// The number of bytes.
    var count: Int { Int(storedCount) }

    /// No bytes yet.
    init() {}

    /// Copies `bytes`, at most `capacity` of them.
    @inline(__always)
    init(_ bytes: Span<UInt8>) {
        precondition(bytes.count <= Self.capacity)
        storedCount = UInt8(bytes.count)
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
        }
    }

    /// Adds a byte after the others; there must be room for it.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(count < Self.capacity)
        let index = count
        withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
        storedCount += 1
    }

    /// Calls `body` with the bytes.
    @inline(__always)
    func withBytes<R, E: Error>(_ body: (Span<UInt8>) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes(of: storage) { (raw) throws(E) in
            try raw[0..<count].withSpan(body)
        }
    }

    /// Whether the bytes come before `other`'s in lexicographic order: the words compared
    /// as big-endian numbers (the bytes past the count are 0), then the counts, where the
    /// byte loop of a span took most of the time of sorting a run's accounts.
    @inline(__always)
    func precedes(_ other: InlineBytes) -> Bool {
        let (l, r) = (storage, other.storage)
        if l.0 != r.0 { return UInt64(bigEndian: l.0) < UInt64(bigEndian: r.0) }
        if l.1 != r.1 { return UInt64(bigEndian: l.1) < UInt64(bigEndian: r.1) }
        if l.2 != r.2 { return UInt64(bigEndian: l.2) < UInt64(bigEndian: r.2) }
        if l.3 != r.3 { return UInt64(bigEndian: l.3) < UInt64(bigEndian: r.3) }
        if l.4 != r.4 { return UInt64(bigEndian: l.4) < UInt64(bigEndian: r.4) }
        return storedCount < other.storedCount
    }

    /// A cheap, unseeded hash of the stored words, for tables; not for persistence.
    var quickHash: UInt64 {
        var hash = UInt64(count)
        for word in [storage.0, storage.1, storage.2, storage.3, storage.4] {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        return hash
    }
}

extension InlineBytes: Hashable {
    @inline(__always)
    static func == (lhs: InlineBytes, rhs: InlineBytes) -> Bool {
        lhs.storedCount == rhs.storedCount && lhs.storage.0 == rhs.storage.0
            && lhs.storage.1 == rhs.storage.1 && lhs.storage.2 == rhs.storage.2
            && lhs.storage.3 == rhs.storage.3 && lhs.storage.4 == rhs.storage.4
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0)
        hasher.combine(storage.1)
        hasher.combine(storage.2)
        hasher.combine(storage.3)
        hasher.combine(storage.4)
    }
}
