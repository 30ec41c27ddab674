import Testing

@testable import StatementKit

struct InlineBytesTests {
    /// Random byte strings of up to 40 bytes, with zero bytes, shared prefixes and strings
    /// that are prefixes of others: `precedes` orders them as the bytes' lexicographic order.
    @Test(arguments: 0..<4)
    func `orders as the bytes do`(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let alphabet: [UInt8] = [0, 1, 0x41, 0x42, 0x7F, 0x80, 0xFF]
        var strings: [[UInt8]] = [[]]
        for _ in 0..<400 {
            var bytes =
                Bool.random(using: &generator)
                ? strings.randomElement(using: &generator)! : []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                bytes.append(
                    seed.isMultiple(of: 2)
                        ? alphabet.randomElement(using: &generator)!
                        : UInt8.random(in: 0...255, using: &generator))
            }
            strings.append(Array(bytes.prefix(InlineBytes.capacity)))
        }
        for left in strings {
            for right in strings.prefix(100) {
                #expect(
                    InlineBytes(left.span).precedes(InlineBytes(right.span))
                        == left.lexicographicallyPrecedes(right), "\(left) \(right)")
            }
        }
    }
}
