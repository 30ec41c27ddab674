import Testing

@testable import StatementKit

struct StatementTests {
    static let account = Account(iban: try! IBAN(parsing: "DE89370400440532013000"), currency: .eur)

    static func transaction(_ cents: Int64) -> Transaction {
        Transaction(
            date: try! Day(parsing: "2026-10-01"), amount: Money(minorUnits: cents, currency: .eur),
            beneficiary: "Kiosk")
    }

    @Test func `accepts opening plus transactions equal to closing`() throws {
        let statement = try Statement(
            account: Self.account, openingBalance: Money(minorUnits: 10_000, currency: .eur),
            closingBalance: Money(minorUnits: 8_766, currency: .eur),
            transactions: [Self.transaction(-1_234)])
        #expect(statement.total.minorUnits == -1_234)
    }

    @Test func `rejects a closing balance that does not add up`() {
        #expect(
            throws: ReconciliationError.closingBalanceMismatch(
                declared: Money(minorUnits: 9_000, currency: .eur),
                computed: Money(minorUnits: 8_766, currency: .eur))
        ) {
            try Statement(
                account: Self.account, openingBalance: Money(minorUnits: 10_000, currency: .eur),
                closingBalance: Money(minorUnits: 9_000, currency: .eur),
                transactions: [Self.transaction(-1_234)])
        }
    }

    @Test func `rejects a sum that overflows`() {
        #expect(throws: ReconciliationError.arithmetic(row: 1, .overflow)) {
            try Statement(
                account: Self.account, transactions: [Self.transaction(.max), Self.transaction(1)])
        }
    }
}

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
