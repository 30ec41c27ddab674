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

    @Test func `counts a row dated back into the ends of the days it passes`() throws {
        let day = { (text: String) in try Day(parsing: "2026-03-0\(text)") }
        // 03-01, 03-02, then a booking dated 03-01, then 03-03: in date order the 1st ends at
        // 80.00, which no row of the bank's states, and the 2nd at 70.00, the bank's 80.00
        // with the late booking counted (oldest first; newest first the 2nd is the day of the
        // row out of order, which no row ends).
        for newestFirst in [false, true] {
            var rows: [(day: String, amount: Int64, balance: Int64)] = [
                ("1", -1000, 9000), ("2", -1000, 8000), ("1", -1000, 7000), ("3", -1000, 6000),
            ]
            var chain = RunningBalance(newestFirst: newestFirst)
            // Listed newest first, each balance is still the one after its row.
            if newestFirst { rows.reverse() }
            for (line, row) in rows.enumerated() {
                #expect(
                    chain.add(
                        Self.eur(row.amount), declared: Self.eur(row.balance),
                        day: try day(row.day), line: line + 2) == nil)
            }
            #expect(chain.dayEnds[try day("1")] == nil, "\(newestFirst)")
            #expect(
                chain.dayEnds[try day("2")]?.balance == (newestFirst ? nil : Self.eur(7000)),
                "\(newestFirst)")
            #expect(chain.dayEnds[try day("3")]?.balance == Self.eur(6000), "\(newestFirst)")
        }
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
