import Testing

@testable import StatementKit

struct AccountMonthTableTests {
    /// Random sets, removals, lookups and clear-outs, against a `Dictionary`: keys from a few
    /// accounts and months (so that they repeat) or from many, growing the table many times.
    @Test(arguments: 0..<6)
    func `holds what a Dictionary holds`(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let accounts = try (0..<(seed.isMultiple(of: 2) ? 7 : 3000)).map { number in
            AccountID(try IBAN(parsing: BoundedReadingTests.iban(number)))
        }
        var table = AccountMonthTable<Int>()
        var reference: [ImportRun.AccountMonth: Int] = [:]
        for step in 0..<20_000 {
            let key = ImportRun.AccountMonth(
                accountID: accounts.randomElement(using: &generator)!,
                month: Month(
                    year: 2024 + Int.random(in: 0..<3, using: &generator),
                    month: Int.random(in: 1...12, using: &generator))!)
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<50:
                table[key] = step
                reference[key] = step
            case 50..<60:
                let place = table.place(of: key) { -step }
                if reference[key] == nil { reference[key] = -step }
                #expect(table[place] == reference[key], "step \(step)")
                table[place] += 1
                reference[key]! += 1
            case 60..<85:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            case 85..<99:
                #expect(table[key] == reference[key], "step \(step)")
            default:
                table.removeAll { $0 % 3 == 0 }
                reference = reference.filter { $0.value % 3 != 0 }
            }
            #expect(table.count == reference.count)
        }
        #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0, $1) }) == reference)
        for (key, value) in reference { #expect(table[key] == value) }
    }
}
