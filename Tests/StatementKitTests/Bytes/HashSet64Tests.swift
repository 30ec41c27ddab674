import Testing

@testable import StatementKit

struct HashSet64Tests {
    /// Random inserts, removals and lookups, against a `Set`: values from a small range (so
    /// that they repeat, and 0 among them) or anywhere, growing the table many times.
    @Test(arguments: 0..<6)
    func `holds what a Set holds`(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        var flat = HashSet64()
        var reference = Set<UInt64>()
        let range: ClosedRange<UInt64> = seed.isMultiple(of: 2) ? 0...300 : 0...UInt64.max
        for step in 0..<20_000 {
            let value = UInt64.random(in: range, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                #expect(flat.insert(value) == reference.insert(value).inserted, "step \(step)")
            case 6..<8:
                flat.remove(value)
                reference.remove(value)
            default:
                #expect(flat.contains(value) == reference.contains(value), "step \(step)")
            }
            #expect(flat.count == reference.count)
        }
        for value in reference { #expect(flat.contains(value)) }
    }
}
