/// One of `count` parts of a ledger split by account, so that imports can run on several
/// machines: an account belongs to the part its id hashes to, by a stable hash (64-bit FNV-1a
/// of the id's bytes, the same on every machine and in every run), so every account lives in
/// exactly one part. Parts are numbered from 1, as in `--shard 2/4`.
package struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// The part, from 1 to `count`.
    package let number: Int
    package let count: Int

    /// The most parts a ledger is split into.
    package static let maximumCount = 10_000

    /// Reads `K/N`, such as `2/4`: part K of N, 1 ≤ K ≤ N ≤ `maximumCount`.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.allSatisfy { $0 &- 48 < 10 } }),
            let number = Int(parts[0]), let count = Int(parts[1]),
            1 <= number, number <= count, count <= Self.maximumCount
        else { return nil }
        self.number = number
        self.count = count
    }

    /// Whether the account belongs to this part.
    package func contains(_ accountID: AccountID) -> Bool {
        Self.number(of: accountID, count: count) == number
    }

    /// Whether a statement file belongs to this part of a check split by file (`validate
    /// --shard`), by its name as found.
    package func contains(file name: String) -> Bool {
        Self.number(of: name.utf8.span, count: count) == number
    }

    /// The part of `count` an account belongs to.
    package static func number(of accountID: AccountID, count: Int) -> Int {
        accountID.withBytes { number(of: $0, count: count) }
    }

    private static func number(of bytes: Span<UInt8>, count: Int) -> Int {
        var hasher = StableHasher()
        hasher.combine(bytes)
        return Int(hasher.value % UInt64(count)) + 1
    }

    package var description: String { "\(number)/\(count)" }
}
