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
