import Testing

@testable import StatementKit

struct RunningBalanceTests {
    static func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

    @Test func `ends a newest-first day from a balance on a later-listed row of it`() throws {
        var chain = RunningBalance(newestFirst: true)
        let day = { (text: String) in try Day(parsing: text) }
        // The 15th's newest row states nothing; the row before it states 85.00: the day
        // ends at 85.00 − 1.00.
        #expect(
            chain.add(Self.eur(-100), declared: nil, day: try day("2026-10-15"), line: 2) == nil)
        #expect(
            chain.add(Self.eur(-500), declared: Self.eur(8500), day: try day("2026-10-15"), line: 3)
                == nil)
        #expect(
            chain.add(Self.eur(-1000), declared: nil, day: try day("2026-10-14"), line: 4) == nil)
        #expect(chain.dayEnds[try day("2026-10-15")]?.balance == Self.eur(8400))
        // The 14th ends with the balance before the 15th's rows, which the chain now knows.
        #expect(chain.dayEnds[try day("2026-10-14")] == nil)
    }

    @Test func `anchors on the first declared balance and follows the chain`() {
        var chain = RunningBalance()
        #expect(chain.add(Self.eur(-100), declared: Self.eur(900)) == nil)
        #expect(chain.add(Self.eur(-50), declared: Self.eur(850)) == nil)
        #expect(chain.add(Self.eur(25), declared: nil) == nil)
        #expect(chain.add(Self.eur(25), declared: Self.eur(900)) == nil)
    }

    @Test func `reports only the first break`() {
        var chain = RunningBalance(opening: Self.eur(1000))
        #expect(
            chain.add(Self.eur(-100), declared: Self.eur(901))
                == .runningBalanceMismatch(declared: Self.eur(901), computed: Self.eur(900)))
        #expect(chain.isBroken)
        #expect(chain.add(Self.eur(-100), declared: Self.eur(1)) == nil)
    }

    @Test func `re-anchors after an unreadable row`() {
        var chain = RunningBalance(opening: Self.eur(1000))
        chain.skipUnreadableRow()
        #expect(chain.add(Self.eur(-100), declared: Self.eur(500)) == nil)
        #expect(chain.add(Self.eur(-100), declared: Self.eur(400)) == nil)
    }
}
