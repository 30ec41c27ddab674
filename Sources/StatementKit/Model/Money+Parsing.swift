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
        let count = bytes.count
        guard count > 0 else { throw .empty }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var number = DecimalAccumulator()
        while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
            number.add(bytes[index])
            index += 1
        }
        guard number.digits > 0 else { throw .malformed }
        var fractionDigits = 0
        if index < count {
            guard bytes[index] == UInt8(ascii: ".") else { throw .malformed }
            index += 1
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
                number.add(bytes[index])
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0, index == count else { throw .malformed }
        }
        guard fractionDigits <= scale else { throw .tooManyDecimals(allowed: scale) }
        for _ in fractionDigits..<scale { number.add(UInt8(ascii: "0")) }
        guard let magnitude = number.value else { throw .overflow }
        return negative ? -magnitude : magnitude
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

/// Digits read into a number one at a time, noting an overflow instead of trapping: how
/// `Money.parseMinorUnits` and `AmountFormat` read an amount's digits.
struct DecimalAccumulator {
    private var magnitude: UInt64 = 0
    private var overflowed = false
    private(set) var digits = 0

    @inline(__always)
    mutating func add(_ digit: UInt8) {
        let value = UInt64(digit &- UInt8(ascii: "0"))
        if digits < 18 {
            magnitude = magnitude &* 10 &+ value  // below 10^18: cannot overflow
        } else {
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.addingReportingOverflow(value)
            overflowed = overflowed || o1 || o2
            magnitude = next
        }
        digits += 1
    }

    /// The number, or `nil` when it does not fit in `Int64`.
    var value: Int64? { overflowed || magnitude > UInt64(Int64.max) ? nil : Int64(magnitude) }
}
