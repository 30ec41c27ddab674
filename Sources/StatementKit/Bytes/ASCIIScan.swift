extension [UInt8] {
    /// The offset of the first byte from `start` on that is not ASCII, or the count: 32,
    /// then eight bytes at a time.
    func firstNonASCII(from start: Int) -> Int {
        withUnsafeBytes { raw in
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
}
