/// The no-break spaces that banks write between digit groups and inside IBANs.
enum NoBreakSpace {
    /// The UTF-8 length of a U+00A0 NO-BREAK SPACE or U+202F NARROW NO-BREAK SPACE that starts
    /// at `index` (before `end`), or `nil` when none does; never the first byte of `€` or `£`.
    static func length<Bytes: RandomAccessCollection>(
        in bytes: Bytes, at index: Int, end: Int? = nil
    ) -> Int? where Bytes.Element == UInt8, Bytes.Index == Int {
        let end = end ?? bytes.endIndex
        if index + 1 < end && bytes[index] == 0xC2 && bytes[index + 1] == 0xA0 { return 2 }
        if index + 2 < end && bytes[index] == 0xE2 && bytes[index + 1] == 0x80
            && bytes[index + 2] == 0xAF
        {
            return 3
        }
        return nil
    }

    /// `length(in:at:end:)` over a span.
    static func length(in bytes: Span<UInt8>, at index: Int, end: Int? = nil) -> Int? {
        bytes.withUnsafeBufferPointer { length(in: $0, at: index, end: end) }
    }
}
