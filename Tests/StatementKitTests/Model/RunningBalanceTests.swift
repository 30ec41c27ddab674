import Testing

@testable import StatementKit

struct RunningBalanceTests {
    static func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

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
