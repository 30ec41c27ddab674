import Foundation

/// The element names a markup reader has met, each numbered once: so that a parser compares
/// numbers, not strings, and a name is copied once per file rather than once per element.
/// The names given at creation are numbered first, in order, for the parser to look for.
///
/// The table holds at most `maximumCount` names (real statements use a few hundred), so that a
/// hostile file cannot make it grow without bound.
struct NameTable {
    static var maximumCount: Int { 4096 }

    /// The names' bytes, one after another; name `n` is `bytes[starts[n]..<starts[n + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    /// Whether each name is ASCII.
    private var isASCII: [Bool] = []
    /// Open addressing over the names' hashes: a name's number, or -1.
    private var slots = [Int32](repeating: -1, count: 8192)
    /// The name that followed each name the last time: documents repeat their sequence of
    /// elements, so the guess is checked before the name is hashed.
    private var successors = [Int32](repeating: -1, count: NameTable.maximumCount)
    private var previous = 0

    var count: Int { starts.count - 1 }

    init(_ known: [String]) {
        for name in known {
            _ = Array(name.utf8).withUnsafeBufferPointer { number(of: $0) }
        }
    }

    /// The name with that number.
    func name(_ number: Int) -> String {
        String(decoding: bytes[starts[number]..<starts[number + 1]], as: UTF8.self)
    }

    /// Whether `bytes[offset...]` starts with the name with that number, which is ASCII.
    func isASCIIName(_ number: Int, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        let (start, end) = (starts[number], starts[number + 1])
        guard bytes.count - offset >= end - start, isASCII[number] else { return false }
        return Self.equal(self.bytes, start, bytes, offset, count: end - start)
    }

    /// Where the name with that number ends when it stands at `offset` in `bytes`, is ASCII,
    /// not empty, and `>` follows it; `nil` otherwise.
    func end(of number: Int, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = offset + length(number)
        guard end > offset, end < bytes.count, bytes[end] == UInt8(ascii: ">"),
            isASCIIName(number, at: offset, in: bytes)
        else { return nil }
        return end
    }

    /// The name that followed the previous one last time, which the next one most likely is.
    var likelyNext: Int? {
        let guess = Int(successors[previous])
        return guess >= 0 ? guess : nil
    }

    /// Notes that the next name was `likelyNext`, found without `number(of:)`.
    mutating func noteLikelyNext(_ number: Int) {
        previous = number
    }

    /// The length of the name with that number, in bytes.
    func length(_ number: Int) -> Int { starts[number + 1] - starts[number] }

    /// Whether the name with that number is `name`.
    func isName(_ number: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let (start, end) = (starts[number], starts[number + 1])
        guard end - start == name.count else { return false }
        return Self.equal(bytes, start, name, 0, count: name.count)
    }

    /// Whether `count` bytes of `stored` from `start` are those of `other` from `offset`.
    @inline(__always)
    private static func equal(
        _ stored: [UInt8], _ start: Int, _ other: UnsafeBufferPointer<UInt8>, _ offset: Int,
        count: Int
    ) -> Bool {
        stored.withUnsafeBufferPointer {
            guard count > 0, let mine = $0.baseAddress, let theirs = other.baseAddress else {
                return count == 0
            }
            return memcmp(mine + start, theirs + offset, count) == 0
        }
    }

    /// The number of the name, given one if it is new; `nil` when the table is full.
    mutating func number(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        let guess = Int(successors[previous])
        if guess >= 0 && isName(guess, name) {
            previous = guess
            return guess
        }
        let slot = find(name)
        var number = Int(slots[slot])
        if number < 0 {
            guard count < Self.maximumCount else { return nil }
            number = count
            slots[slot] = Int32(number)
            bytes.append(contentsOf: name)
            starts.append(bytes.count)
            isASCII.append(!name.contains { $0 >= 0x80 })
        }
        successors[previous] = Int32(number)
        previous = number
        return number
    }

    /// The slot holding the name, or the empty one where it would go.
    private func find(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        // FNV-1a: names are short, and the table is the reader's own (no untrusted keys
        // reach a shared table, and a full one refuses new names).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
        while true {
            let number = Int(slots[slot])
            if number < 0 || isName(number, name) { return slot }
            slot = (slot + 1) & mask
        }
    }
}

/// The names a parser looks for, numbered first in its reader's `NameTable` in the order of
/// `all` (each type keeps `allCases` in it, so that a lookup allocates nothing).
protocol KnownNames: CaseIterable {
    static var all: [Self] { get }
    /// The spellings of `all`, made once (`all.map(\.spelling)`).
    static var names: [String] { get }
    /// The name as the format spells it.
    var spelling: String { get }
}

extension KnownNames {
    /// The name of a number in the reader's name table; `nil` for one not looked for.
    static func numbered(_ number: Int) -> Self? {
        number < all.count ? all[number] : nil
    }
}
