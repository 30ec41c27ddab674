import Foundation

extension Money {
    /// The amount with `,` between thousands and the currency code, such as `-1,234.56 EUR`.
    package var groupedText: String {
        let plain = decimalText
        let negative = plain.hasPrefix("-")
        let unsigned = negative ? plain.dropFirst() : plain[...]
        let integer = unsigned.prefix { $0 != "." }
        let fraction = unsigned.dropFirst(integer.count)
        let grouped = (Int(integer) ?? 0).groupedText
        return (negative ? "-" : "") + grouped + fraction + " " + currency.code
    }
}

extension Money {
    /// Formats the amount as currency for a locale, exactly from its minor units.
    ///
    /// The amount becomes a base-10 `Decimal` built from the integer minor units, never a
    /// binary floating-point number; Foundation supplies the locale's symbol, separators and
    /// pattern: `€1,234.56` and `-€12.34` in en_US, `1.234,56 €` in de_DE, `¥1,235` for JPY.
    package func formatted(locale: Locale) -> String {
        let value = Decimal(
            sign: minorUnits < 0 ? .minus : .plus,
            exponent: -currency.minorUnitDigits,
            significand: Decimal(minorUnits.magnitude))
        return value.formatted(
            .currency(code: currency.code).locale(locale)
                .precision(.fractionLength(currency.minorUnitDigits)))
    }
}
