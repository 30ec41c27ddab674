import Testing

@testable import StatementKit

struct CurrencyTests {
    @Test(
        arguments: [
            ("EUR", 2), ("USD", 2), ("JPY", 0), ("KRW", 0), ("BHD", 3), ("KWD", 3), ("TND", 3),
            ("OMR", 3), ("JOD", 3), ("IQD", 3), ("LYD", 3), ("CLF", 4), ("UYW", 4), ("ISK", 0),
        ]
            as [(String, Int)])
    func `knows the minor unit digits`(code: String, digits: Int) throws {
        let currency = try #require(Currency(code: code))
        #expect(currency.minorUnitDigits == digits)
        #expect(currency.code == code)
    }

    @Test(arguments: ["EU", "EURO", "XAU", "xau", "XXX", "DEM", "", "€"])
    func `rejects codes that are not active currencies`(code: String) {
        #expect(Currency(code: code) == nil)
    }

    @Test func `reads a code in lower case as exports write it`() {
        #expect(Currency(code: "usd")?.code == "USD")
        #expect(Currency(code: "Eur")?.code == "EUR")
    }

    @Test func `covers the active ISO 4217 list`() {
        #expect(Currency.all.count == Currency.activeCodes.count)
        #expect(Currency.all.count >= 150)
        #expect(Set(Currency.all.map(\.code)).count == Currency.all.count)
    }
}
