/// Up to 40 bytes kept inline, without a heap allocation: the electronic form of an `IBAN`
/// and the canonical text of an `AccountID`, so that millions of rows are read without
/// allocating per row. The one place their bytes are copied in and lent out.
struct InlineBytes: Sendable {
    /// The most bytes it holds.
    static let capacity = 40

    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// How many bytes it holds.
    let count: Int

    /// Copies `bytes`, at most `capacity` of them.
    init(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= Self.capacity)
        count = bytes.count
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
    }

    /// Takes words whose first `count` bytes (in memory order) were filled in place, as
    /// `IBAN(parsing:)` fills them while it reads.
    init(words: (UInt64, UInt64, UInt64, UInt64, UInt64), count: Int) {
        precondition(count <= Self.capacity)
        self.words = words
        self.count = count
    }

    /// Calls `body` with the bytes held.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: words) {
            try body(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
        }
    }

    /// A cheap, unseeded hash of the stored words, for tables; not for persistence.
    var quickHash: UInt64 {
        var hash = UInt64(count)
        for word in [words.0, words.1, words.2, words.3, words.4] {
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        return hash
    }
}

extension InlineBytes: Hashable {
    static func == (lhs: InlineBytes, rhs: InlineBytes) -> Bool {
        lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
            && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
            && lhs.words.4 == rhs.words.4
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
        hasher.combine(words.4)
    }
}

extension InlineBytes: Comparable {
    /// Byte by byte, as the texts sort.
    static func < (lhs: InlineBytes, rhs: InlineBytes) -> Bool {
        lhs.withBytes { l in rhs.withBytes { r in l.lexicographicallyPrecedes(r) } }
    }
}
