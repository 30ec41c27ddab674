/// Scanning the text between markup tags, eight bytes at a time: what the XML and OFX readers
/// use to find where a value or an element's text ends without copying it.
enum MarkupText {
    /// Where a value from `start` ends: at the next `<`, or at the end of `bytes` when none
    /// follows; whether it is plain (no byte of 0x80 or more, no `&`) and whether it holds a
    /// line feed. Eight bytes at a time: in a word, each byte that is `<` (or `&`, or a line
    /// feed) gets its top bit set by `(x - 0x01…) & ~x & 0x80…` over the word XORed with that
    /// byte repeated, exactly for every byte up to the first such one (a borrow can only
    /// mark bytes above it), which is all that is looked at: the bytes before the first `<`.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
        end: Int, isPlain: Bool, hasLineBreak: Bool
    ) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops = ones &* 0x80
        func marks(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let matched = word ^ (ones &* UInt64(byte))
            return (matched &- ones) & ~matched & tops
        }
        var index = start
        var special: UInt64 = 0
        var lineBreaks: UInt64 = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            let word = UInt64(
                littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let opening = marks(word, UInt8(ascii: "<"))
            // The bits below the first `<`'s mark: its own byte's top bit is not among them.
            let before = opening == 0 ? ~0 : (opening & (0 &- opening)) &- 1
            special |= (word & tops | marks(word, UInt8(ascii: "&"))) & before
            lineBreaks |= marks(word, 0x0A) & before
            if opening != 0 {
                return (index + opening.trailingZeroBitCount / 8, special == 0, lineBreaks != 0)
            }
            index += 8
        }
        var (isPlain, hasLineBreak) = (special == 0, lineBreaks != 0)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            if byte >= 0x80 || byte == UInt8(ascii: "&") { isPlain = false }
            if byte == 0x0A { hasLineBreak = true }
            index += 1
        }
        return (index, isPlain, hasLineBreak)
    }
}
