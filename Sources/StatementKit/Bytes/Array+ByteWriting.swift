/// The byte writer of the reports and the ledger's lines: appends to a `[UInt8]` in one copy
/// each, where the generic paths of `+=` would go a byte at a time. With `DecimalDigits`,
/// `ScratchWriter` and `ByteTexts`, the pointer code the fast paths of every layer share.
extension [UInt8] {
    /// Appends raw bytes in one copy: `+=` with an `UnsafeRawBufferPointer` goes a byte at a
    /// time, as a raw buffer lends no typed storage.
    mutating func append(bytes: UnsafeRawBufferPointer) {
        bytes.withMemoryRebound(to: UInt8.self) { append(contentsOf: $0) }
    }

    /// Appends the bytes of a span in one copy.
    @inline(__always)
    mutating func append(_ bytes: Span<UInt8>) {
        bytes.withUnsafeBytes { append(bytes: $0) }
    }

    /// Appends a literal's UTF-8 bytes in one copy (`+=` with a string's `utf8` goes through
    /// the generic path of a sequence).
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes in one copy.
    mutating func append(utf8 text: String) {
        text.withUTF8Bytes { append($0) }
    }

    /// Appends an integer's 8 bytes, least significant first.
    mutating func append(littleEndian value: UInt64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(bytes: $0) }
    }

    /// Appends `count` spaces, copied from a line of them.
    mutating func appendSpaces(_ count: Int) {
        var rest = count
        while rest > 0 {
            let part = Swift.min(rest, spaceLine.count)
            append(contentsOf: spaceLine[..<part])
            rest -= part
        }
    }
}

/// A line of spaces that `appendSpaces` copies from.
private let spaceLine = [UInt8](repeating: UInt8(ascii: " "), count: 128)
