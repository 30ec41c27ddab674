import Testing

@testable import StatementKit

struct ShardTests {
    @Test(arguments: ["1/1", "2/4", "4/4", "10000/10000"])
    func `reads a part and a count`(text: String) throws {
        let shard = try #require(Shard(parsing: text))
        #expect(shard.description == text)
    }

    @Test(arguments: [
        "0/4", "5/4", "2/0", "2", "2/4/8", "a/4", "+2/4", "-1/4", " 2/4", "1/10001", "",
    ])
    func `refuses anything else`(text: String) {
        #expect(Shard(parsing: text) == nil)
    }

    @Test func `puts every account in exactly one part, the same one every time`() throws {
        // Pinned: a change of the hash would move accounts between the state folders of a
        // split ledger. Computed independently (FNV-1a of the length-prefixed id bytes).
        for (text, parts) in [
            ("DE89370400440532013000", [2, 1, 4, 4]), ("BH67BMAG00001299123456", [2, 1, 2, 14]),
            ("card:amex/1004", [1, 2, 3, 7]),
        ] {
            let account = try AccountID(parsing: text)
            #expect([2, 3, 4, 16].map { Shard.number(of: account, count: $0) } == parts, "\(text)")
        }
        var generator = SeededGenerator(seed: 3)
        var sizes = [Int](repeating: 0, count: 4)
        for _ in 0..<4_000 {
            let account = try AccountID(
                parsing: "name:acct-\(UInt32.random(in: 0...UInt32.max, using: &generator))")
            let owners = (1...4).filter { Shard(parsing: "\($0)/4")!.contains(account) }
            #expect(owners.count == 1)
            sizes[owners[0] - 1] += 1
        }
        // Roughly even: each part holds 1,000 ± 150 of 4,000 accounts.
        #expect(sizes.allSatisfy { abs($0 - 1_000) < 150 }, "\(sizes)")
    }
}
