/// Up to 40 bytes held inline, without a heap allocation, with their count: the text of an
/// IBAN or an account id, so that millions of rows are read without allocating per row.
/// Equal and hashed as five words and the count.
struct InlineBytes: Sendable {
    /// The most bytes it holds.
    static let capacity = 40

    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// The number of bytes.
    let count: Int

    /// Copies `bytes`, at most `capacity` of them.
    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
    }

    /// Calls `body` with the bytes.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) {
            try body(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
        }
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
        lhs.count == rhs.count && lhs.storage.0 == rhs.storage.0 && lhs.storage.1 == rhs.storage.1
            && lhs.storage.2 == rhs.storage.2 && lhs.storage.3 == rhs.storage.3
            && lhs.storage.4 == rhs.storage.4
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0)
        hasher.combine(storage.1)
        hasher.combine(storage.2)
        hasher.combine(storage.3)
        hasher.combine(storage.4)
    }
}
