extension [UInt8] {
    /// The offset of the first byte from `start` on that is not ASCII, or the count: 32,
    /// then eight bytes at a time.
    func firstNonASCII(from start: Int) -> Int {
        withUnsafeBytes { $0.firstNonASCII(from: start) }
    }

    /// The offset of the first LF or CR from `start` on, or `nil` when there is none: eight
    /// bytes at a time. (In a word, a byte equal to LF makes `word ^ 0x0A…` have a zero byte,
    /// which the "has zero byte" test flags; a flag above a true zero byte may be false, so
    /// the lowest flag is exact.)
    func firstLineBreak(from start: Int) -> Int? {
        withUnsafeBytes { raw in
            let (ones, highs): (UInt64, UInt64) = (0x0101_0101_0101_0101, 0x8080_8080_8080_8080)
            var index = start
            while index + 8 <= raw.count {
                let word = UInt64(
                    littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let (lf, cr) = (word ^ (ones &* 0x0A), word ^ (ones &* 0x0D))
                let flags = ((lf &- ones) & ~lf | (cr &- ones) & ~cr) & highs
                if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
                index += 8
            }
            while index < raw.count {
                if raw[index] == 0x0A || raw[index] == 0x0D { return index }
                index += 1
            }
            return nil
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The offset of the first byte from `start` on that is not ASCII, or the count: 32,
    /// then eight bytes at a time.
    func firstNonASCII(from start: Int) -> Int {
        let raw = self
        var index = start
        let word = { (at: Int) in raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        while index + 32 <= raw.count,
            (word(index) | word(index + 8) | word(index + 16) | word(index + 24))
                & 0x8080_8080_8080_8080 == 0
        {
            index += 32
        }
        while index + 8 <= raw.count,
            raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080
                == 0
        {
            index += 8
        }
        while index < raw.count, raw[index] < 0x80 { index += 1 }
        return index
    }
}
