/// A 128-bit hash of a file's bytes (`ContentHasher`), kept to tell a changed file from an
/// unchanged one. Not a cryptographic hash: it tells a changed file from an unchanged one, not
/// a forgery from the original.
package struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    package let first: UInt64
    package let second: UInt64

    package init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    /// The hash of some bytes.
    package static func of(_ bytes: [UInt8]) -> ContentHash {
        var hasher = ContentHasher()
        bytes.withUnsafeBytes { hasher.feed($0) }
        return hasher.finish()
    }

    /// 32 hexadecimal digits.
    package var description: String {
        String(hex: first, digits: 16) + String(hex: second, digits: 16)
    }

    /// Reads the 32 hexadecimal digits of `description`.
    package init?(hexText: some StringProtocol) {
        let bytes = Array(hexText.utf8)
        guard bytes.count == 32, bytes.allSatisfy({ $0 &- 48 < 10 || ($0 | 0x20) &- 97 < 6 }),
            let first = UInt64(String(decoding: bytes[..<16], as: UTF8.self), radix: 16),
            let second = UInt64(String(decoding: bytes[16...], as: UTF8.self), radix: 16)
        else { return nil }
        self.init(first: first, second: second)
    }
}

/// Computes a `ContentHash` over a byte stream fed in pieces of any size: eight bytes at a
/// time in two lanes with different multipliers, several gigabytes a second, so that hashing
/// an imported file costs a small part of parsing it.
package struct ContentHasher: Sendable {
    private var first: UInt64 = 0x243F_6A88_85A3_08D3
    private var second: UInt64 = 0x1319_8A2E_0370_7344
    private var length: UInt64 = 0
    /// Bytes of a word not yet complete, low byte first, and how many.
    private var pending: UInt64 = 0
    private var pendingCount: UInt64 = 0

    package init() {}

    private mutating func mix(_ word: UInt64) {
        first = ((first ^ word) &* 0x9E37_79B9_7F4A_7C15).rotated(by: 31)
        second = ((second ^ word) &* 0xC2B2_AE3D_27D4_EB4F).rotated(by: 29)
    }

    private mutating func take(_ byte: UInt8) {
        pending |= UInt64(byte) << (8 * pendingCount)
        pendingCount += 1
        if pendingCount == 8 {
            mix(pending)
            (pending, pendingCount) = (0, 0)
        }
    }

    /// Continues the hash over more bytes.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var index = 0
        while pendingCount > 0 && index < bytes.count {
            take(bytes[index])
            index += 1
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            take(bytes[index])
            index += 1
        }
    }

    /// The hash of every byte fed, with their count folded in.
    package func finish() -> ContentHash {
        var hasher = self
        hasher.mix(hasher.pending)
        hasher.mix(hasher.length)
        func avalanche(_ value: UInt64) -> UInt64 {
            var value = value
            value ^= value >> 33
            value &*= 0xFF51_AFD7_ED55_8CCD
            value ^= value >> 33
            value &*= 0xC4CE_B9FE_1A85_EC53
            return value ^ value >> 33
        }
        return ContentHash(
            first: avalanche(hasher.first), second: avalanche(hasher.second ^ hasher.first))
    }
}

extension UInt64 {
    fileprivate func rotated(by count: UInt64) -> UInt64 {
        self << count | self >> (64 - count)
    }
}
