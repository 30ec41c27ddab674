/// An exact amount of one currency, counted in its minor unit.
///
/// Amounts never pass through floating point: they are parsed from decimal text digit by
/// digit and added with overflow checks.
package struct Money: Hashable, Sendable {
    /// The amount in minor units of `currency`: cents for EUR, yen for JPY.
    package let minorUnits: Int64
    /// The currency of the amount.
    package let currency: Currency

    /// Creates an amount from a count of minor units.
    package init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Returns zero in `currency`.
    package static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    /// Returns the sum of two amounts in the same currency.
    ///
    /// - Throws: `MoneyError.currencyMismatch` or `MoneyError.overflow`.
    package func adding(_ other: Money) throws(MoneyError) -> Money {
        guard currency == other.currency else {
            throw .currencyMismatch(currency.code, other.currency.code)
        }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow, sum != .min else { throw .overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    /// The amount with the opposite sign (money is never `Int64.min`, so this cannot overflow).
    package var negated: Money { Money(minorUnits: -minorUnits, currency: currency) }

    /// Returns this amount minus another in the same currency.
    package func subtracting(_ other: Money) throws(MoneyError) -> Money {
        try adding(Money(minorUnits: -other.minorUnits, currency: other.currency))
    }
}

/// Why two amounts could not be combined.
package enum MoneyError: Error, Hashable, Sendable, CustomStringConvertible {
    case currencyMismatch(String, String)
    case overflow

    package var description: String {
        switch self {
        case .currencyMismatch(let a, let b): "cannot combine \(a) with \(b)"
        case .overflow: "the sum exceeds the range of a 64-bit amount"
        }
    }
}

extension Money {
    /// The amount without its sign ("out €2,370.31": the word says which way the money went);
    /// the most negative amount, which has no positive counterpart, stays as it is.
    package var magnitude: Money {
        minorUnits < 0 && minorUnits != .min
            ? Money(minorUnits: -minorUnits, currency: currency) : self
    }
}
