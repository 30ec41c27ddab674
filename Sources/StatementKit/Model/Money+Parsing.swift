/// Why a decimal amount text could not be read.
package enum AmountError: Error, Hashable, Sendable {
    case empty
    case malformed
    /// Thousands separators that do not split the digits into groups of three.
    case grouping
    case tooManyDecimals(allowed: Int)
    case overflow
    /// A currency code or symbol beside the amount that names another currency.
    case currencyMismatch(String)
}

extension Money {
    /// Reads an exact decimal amount such as `-1234.56` into minor units of `currency`.
    ///
    /// Accepted: an optional `+` or `-`, one or more digits, and optionally `.` followed by at
    /// most `currency.minorUnitDigits` digits. Exponents, thousands separators, spaces and a
    /// bare `.5` or `5.` are malformed. The magnitude must stay within `Int64.max`.
    ///
    /// - Complexity: O(n) over the bytes, no allocation.
    package init(parsing bytes: Span<UInt8>, currency: Currency) throws(AmountError) {
        let minorUnits = try Money.parseMinorUnits(bytes, scale: currency.minorUnitDigits)
        self.init(minorUnits: minorUnits, currency: currency)
    }

    /// Reads an exact decimal amount from text; see `init(parsing:currency:)` for the bytes.
    package init(parsing text: String, currency: Currency) throws(AmountError) {
        try self.init(parsing: text.utf8.span, currency: currency)
    }

    static func parseMinorUnits(_ bytes: Span<UInt8>, scale: Int) throws(AmountError)
        -> Int64
    {
        var index = 0
        let count = bytes.count
        guard count > 0 else { throw .empty }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var magnitude: UInt64 = 0
        var overflowed = false
        /// Reads a run of digits into `magnitude`; returns how many there were.
        func digits() -> Int {
            let start = index
            while index < count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (next, o2) = shifted.addingReportingOverflow(UInt64(digit))
                overflowed = overflowed || o1 || o2
                magnitude = next
                index += 1
            }
            return index - start
        }
        guard digits() > 0 else { throw .malformed }
        var fractionDigits = 0
        if index < count {
            guard bytes[index] == UInt8(ascii: ".") else { throw .malformed }
            index += 1
            fractionDigits = digits()
            guard fractionDigits > 0, index == count else { throw .malformed }
        }
        guard fractionDigits <= scale else { throw .tooManyDecimals(allowed: scale) }
        for _ in fractionDigits..<scale {
            let (shifted, o) = magnitude.multipliedReportingOverflow(by: 10)
            overflowed = overflowed || o
            magnitude = shifted
        }
        guard !overflowed, magnitude <= UInt64(Int64.max) else { throw .overflow }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }
}

extension Money {
    /// The amount as a plain decimal with `.` and no grouping, such as `-1234.56`.
    package var decimalText: String {
        var bytes: [UInt8] = []
        appendDecimalText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `decimalText`'s bytes.
    func appendDecimalText(to out: inout [UInt8]) {
        let digits = currency.minorUnitDigits
        DecimalDigits.with(minorUnits.magnitude, minimumCount: digits + 1) { number in
            // Sign, digits and point on the stack, then appended in one copy.
            out.appendWriting(atMost: number.count + 2) { text in
                if minorUnits < 0 { text.put(UInt8(ascii: "-")) }
                let integerCount = number.count - digits
                text.put(number[..<integerCount])
                if digits > 0 {
                    text.put(UInt8(ascii: "."))
                    text.put(number[integerCount...])
                }
            }
        }
    }
}
