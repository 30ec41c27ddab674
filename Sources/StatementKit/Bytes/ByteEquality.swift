import Foundation

extension UnsafeRawBufferPointer {
    /// Whether these bytes are the same as `other`'s, compared by length and then with
    /// `memcmp` (the generic `elementsEqual` walks an iterator a byte at a time).
    func hasSameBytes(as other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return other.withUnsafeBytes { memcmp(baseAddress!, $0.baseAddress!, count) == 0 }
    }

    /// Whether these bytes, ASCII letters taken in upper case, are `upper`'s (which is upper
    /// case already): a debit/credit word compared without making its text.
    func equalsUppercased(_ upper: [UInt8]) -> Bool {
        guard count == upper.count else { return false }
        for index in 0..<count {
            let byte = self[index]
            guard upper[index] == (byte &- UInt8(ascii: "a") < 26 ? byte - 32 : byte) else {
                return false
            }
        }
        return true
    }
}
