import Testing

@testable import StatementKit

struct BalanceChainTests {
    static let point = AmountFormat(decimalMark: UInt8(ascii: "."), thousandsSeparator: nil)

    static func chain(_ rows: [(Int64?, Int64?)]) -> BalanceChain {
        BalanceChain(
            rows: rows.enumerated().map {
                BalanceChain.Row(line: $0 + 2, amount: $1.0, balance: $1.1)
            }
        )
    }

    @Test func `proves file order and the plain sign`() {
        let chain = Self.chain([(100, 100), (-30, 70), (5, 75)])
        #expect(
            chain.provenReading == BalanceChain.Reading(isNewestFirst: false, isOpposite: false))
    }

    @Test func `proves newest first`() {
        let chain = Self.chain([(5, 75), (-30, 70), (100, 100)])
        #expect(chain.provenReading == BalanceChain.Reading(isNewestFirst: true, isOpposite: false))
    }

    @Test func `proves amounts opposite to the balance`() {
        let chain = Self.chain([(-100, 100), (30, 70), (-5, 75)])
        #expect(chain.provenReading == BalanceChain.Reading(isNewestFirst: false, isOpposite: true))
    }

    @Test func `proves nothing when the chain breaks, and finds where`() throws {
        let chain = Self.chain([(100, 100), (-30, 70), (5, 80)])
        #expect(chain.provenReading == nil)
        let broken = try #require(
            chain.firstBreak(of: BalanceChain.Reading(isNewestFirst: false, isOpposite: false)))
        #expect(broken.later.line == 4)
    }

    @Test(
        arguments: [
            ("1,234.56", 12_345_600), ("-12.50", -125_000), ("(45.12)", -451_200),
            ("£2,500.00", 25_000_000), ("+3500.00", 35_000_000), ("\u{2212}1.5", -15_000),
            ("", nil), ("n/a", nil), ("999999999999999", nil),
            ("-99999999999999", -999_999_999_999_990_000),
        ] as [(String, Int64?)])
    func `reads amounts in units of 10⁻⁴`(text: String, value: Int64?) {
        #expect(BalanceChain.scaled(text, Self.point) == value)
    }
}
