/// 64-bit FNV-1a, the hash of `StableHasher` and `Checksum`: its offset basis, its prime, and
/// one step, a byte mixed into a value.
private enum FNV1a {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    @inline(__always)
    static func step(_ value: UInt64, _ byte: UInt8) -> UInt64 { (value ^ UInt64(byte)) &* prime }
}

/// 64-bit FNV-1a, with every field length-prefixed so that `("ab", "c")` and `("a", "bc")` differ.
struct StableHasher {
    private(set) var value = FNV1a.offsetBasis

    private mutating func byte(_ byte: UInt8) {
        value = FNV1a.step(value, byte)
    }

    /// Feeds the number's eight bytes, least significant first.
    mutating func combine(_ number: UInt64) {
        // A zero byte only multiplies by the prime (`x ^ 0 == x`), so the zero bytes above the
        // highest set one (most of them: lengths, flags, dates) are one multiplication by a
        // power of the prime: the same value, fewer steps.
        var rest = number
        var fed = 0
        while rest != 0 {
            byte(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
            fed += 1
        }
        value = value &* Self.primePowers[8 - fed]
    }

    /// The FNV prime to the powers 0 through 8, modulo 2⁶⁴.
    private static let primePowers: [UInt64] = (0...8).map { power in
        (0..<power).reduce(1) { product, _ in product &* FNV1a.prime }
    }

    /// Feeds the bytes' count and the bytes; no bytes for `nil`.
    @inline(__always)
    mutating func combine(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else { return combine(UInt64(0)) }
        combine(UInt64(bytes.count))
        for value in bytes { byte(value) }
    }

    /// Feeds the bytes' count and the bytes.
    @inline(__always)
    mutating func combine(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBytes { combine($0) }
    }
}

/// A running 64-bit FNV-1a checksum of a byte stream, continued as the stream grows: the
/// checksum of a file's committed bytes after an append is the old checksum fed the new bytes.
package struct Checksum: Hashable, Sendable {
    /// The checksum of no bytes.
    package static let empty = Checksum(value: FNV1a.offsetBasis)

    package private(set) var value: UInt64

    package init(value: UInt64) {
        self.value = value
    }

    /// Continues the checksum over more bytes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var value = self.value
        for byte in bytes { value = FNV1a.step(value, byte) }
        self.value = value
    }

    /// Continues the checksum over more bytes.
    package mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Continues the checksum over more bytes.
    package mutating func feed(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The checksum of some bytes.
    package static func of(_ bytes: [UInt8]) -> Checksum {
        var checksum = Checksum.empty
        checksum.feed(bytes)
        return checksum
    }

    /// The checksum of a text's UTF-8.
    package static func of(_ text: Substring.UTF8View) -> Checksum {
        var checksum = Checksum.empty
        for byte in text { checksum.value = FNV1a.step(checksum.value, byte) }
        return checksum
    }

    /// The checksum as 16 hexadecimal digits.
    package var hexText: String { String(hex: value, digits: 16) }

    /// Reads 16 hexadecimal digits.
    package init?(hexText: some StringProtocol) {
        guard hexText.utf8.count == 16, let value = UInt64(hexText, radix: 16) else { return nil }
        self.value = value
    }
}
