import Testing

@testable import StatementKit

/// The word-at-a-time scans of `Bytes/` against a byte-by-byte reading of the same buffers.
struct ByteScanTests {
    /// Buffers of bytes near LF and CR (and their high-bit twins), of every length to 40, with
    /// each start offset.
    static func buffers() -> [[UInt8]] {
        var generator = SeededGenerator(seed: 47)
        let alphabet: [UInt8] = [0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x41, 0x8A, 0x8D, 0xFF]
        return (0..<2_000).map { _ in
            let length = Int.random(in: 0...40, using: &generator)
            let lineBreaks = Bool.random(using: &generator)
            return (0..<length).map { _ in
                let byte = alphabet.randomElement(using: &generator)!
                return lineBreaks || (byte != 0x0A && byte != 0x0D) ? byte : 0x41
            }
        }
    }

    @Test func `finds the first line break where a byte loop does`() {
        for bytes in Self.buffers() {
            for start in 0...bytes.count {
                let expected = bytes[start...].firstIndex { $0 == 0x0A || $0 == 0x0D }
                #expect(bytes.firstLineBreak(from: start) == expected)
            }
        }
    }

    @Test func `finds the first byte that is not ASCII where a byte loop does`() {
        for bytes in Self.buffers() + [Array(repeating: 0x41, count: 100) + [0x80]] {
            for start in 0...bytes.count {
                let expected = bytes[start...].firstIndex { $0 >= 0x80 } ?? bytes.count
                #expect(bytes.firstNonASCII(from: start) == expected)
            }
        }
    }
}
