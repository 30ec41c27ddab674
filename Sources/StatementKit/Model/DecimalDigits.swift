/// The decimal digits of a number, written without making a string first: how the ledger's
/// lines and the reports turn integers into digits, thousands of times a second.
enum DecimalDigits {
    /// Calls `body` with the ASCII digits of `value`, zero-padded to at least `minimumCount`
    /// digits (at most 24).
    static func with<Result>(
        _ value: UInt64, minimumCount: Int = 1, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        var rest = value
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { bytes in
            var first = bytes.count
            while rest > 0 || bytes.count - first < minimumCount {
                first -= 1
                bytes[first] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return body(UnsafeRawBufferPointer(rebasing: bytes[first...]))
        }
    }
}

extension [UInt8] {
    /// Appends raw bytes in one copy: `+=` with an `UnsafeRawBufferPointer` goes a byte at a
    /// time, as a raw buffer lends no typed storage.
    mutating func append(bytes: UnsafeRawBufferPointer) {
        bytes.withMemoryRebound(to: UInt8.self) { append(contentsOf: $0) }
    }

    /// Appends a literal's UTF-8 bytes in one copy (`+=` with a string's `utf8` goes through
    /// the generic path of a sequence).
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes in one copy.
    mutating func append(utf8 text: String) {
        text.withUTF8Bytes { append(contentsOf: $0) }
    }
}
