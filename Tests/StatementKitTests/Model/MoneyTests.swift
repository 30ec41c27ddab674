import Testing

@testable import StatementKit

struct MoneyParsingTests {
    static let jpy = Currency(code: "JPY")!
    static let bhd = Currency(code: "BHD")!

    @Test(
        arguments: [
            ("-1234.56", -123_456), ("12", 1200), ("0.1", 10), ("+7.05", 705), ("-0", 0),
            ("0.00", 0),
            ("92233720368547758.07", Int64.max), ("-92233720368547758.07", -Int64.max),
        ] as [(String, Int64)])
    func `reads euro decimals exactly`(text: String, minorUnits: Int64) throws {
        #expect(try Money(parsing: text, currency: .eur).minorUnits == minorUnits)
    }

    @Test func `rejects a third decimal for euros`() {
        #expect(throws: AmountError.tooManyDecimals(allowed: 2)) {
            try Money(parsing: "1.005", currency: .eur)
        }
    }

    @Test func `rejects the first amount past Int64`() {
        #expect(throws: AmountError.overflow) {
            try Money(parsing: "92233720368547758.08", currency: .eur)
        }
        #expect(throws: AmountError.overflow) {
            try Money(parsing: String(repeating: "9", count: 500), currency: .eur)
        }
    }

    @Test func `reads the largest amounts and long runs of leading zeros exactly`() throws {
        #expect(try Money(parsing: "92233720368547758.07", currency: .eur).minorUnits == .max)
        #expect(try Money(parsing: "-92233720368547758.07", currency: .eur).minorUnits == -.max)
        // Past the 18 digits that cannot overflow, leading zeros change nothing.
        let zeros = String(repeating: "0", count: 30)
        #expect(try Money(parsing: zeros + "1.50", currency: .eur).minorUnits == 150)
        #expect(
            try Money(parsing: zeros + "92233720368547758.07", currency: .eur).minorUnits == .max)
        // 2^64 cents would wrap to 0 in 64 bits.
        #expect(throws: AmountError.overflow) {
            try Money(parsing: "184467440737095516.16", currency: .eur)
        }
    }

    @Test func `reads yen without decimals and rejects a fraction`() throws {
        #expect(try Money(parsing: "1235", currency: Self.jpy).minorUnits == 1235)
        #expect(throws: AmountError.tooManyDecimals(allowed: 0)) {
            try Money(parsing: "12.5", currency: Self.jpy)
        }
    }

    @Test func `reads three decimals for Bahraini dinar`() throws {
        #expect(try Money(parsing: "12.345", currency: Self.bhd).minorUnits == 12345)
        #expect(try Money(parsing: "12.3", currency: Self.bhd).minorUnits == 12300)
    }

    @Test(arguments: [
        "", "-", "+", ".5", "5.", "1e3", "1,50", "1 000", "NaN", "--1", "1.2.3", "١٢", "0x10", " 1",
    ])
    func `rejects malformed amounts`(text: String) {
        #expect(throws: AmountError.self) { try Money(parsing: text, currency: .eur) }
    }

    @Test func `names the empty amount apart from a malformed one`() {
        #expect(throws: AmountError.empty) { try Money(parsing: "", currency: .eur) }
        #expect(throws: AmountError.malformed) { try Money(parsing: "abc", currency: .eur) }
    }
}

struct MoneyArithmeticTests {
    @Test func `adds amounts of one currency`() throws {
        let sum = try Money(minorUnits: 150, currency: .eur).adding(
            Money(minorUnits: -200, currency: .eur))
        #expect(sum == Money(minorUnits: -50, currency: .eur))
    }

    @Test func `refuses to add different currencies`() {
        let yen = Money(minorUnits: 1, currency: Currency(code: "JPY")!)
        #expect(throws: MoneyError.currencyMismatch("EUR", "JPY")) {
            try Money.zero(.eur).adding(yen)
        }
    }

    @Test func `reports overflow instead of wrapping`() {
        let max = Money(minorUnits: .max, currency: .eur)
        #expect(throws: MoneyError.overflow) {
            try max.adding(Money(minorUnits: 1, currency: .eur))
        }
        #expect(throws: MoneyError.overflow) {
            try Money(minorUnits: -.max, currency: .eur).subtracting(
                Money(minorUnits: 1, currency: .eur))
        }
    }

    @Test(
        arguments: [
            (-123_456, "EUR", "-1234.56"), (5, "EUR", "0.05"), (0, "EUR", "0.00"),
            (1235, "JPY", "1235"),
            (12_345, "BHD", "12.345"), (-1, "CLF", "-0.0001"),
            (-.max, "EUR", "-92233720368547758.07"), (0, "JPY", "0"),
        ] as [(Int64, String, String)])
    func `writes plain decimal text`(minorUnits: Int64, code: String, text: String) {
        #expect(Money(minorUnits: minorUnits, currency: Currency(code: code)!).decimalText == text)
    }
}
