/// How a bank writes amounts: its decimal mark and its thousands separator, such as
/// `1.234,56` (decimal comma, `.` between thousands) or `1'234.56`.
package struct AmountFormat: Hashable, Sendable {
    /// The decimal mark: `.` or `,`.
    package let decimalMark: UInt8
    /// The character between groups of three digits: `.`, `,`, `'` or a space (which also
    /// matches a no-break or narrow no-break space); `nil` when digits are never grouped.
    package let thousandsSeparator: UInt8?

    /// The canonical amounts (<doc:Formats#Canonical-CSV>): `-1234.56`.
    package static let canonical = AmountFormat(
        decimalMark: UInt8(ascii: "."), thousandsSeparator: nil)

    /// The decimal marks a format may have.
    package static let decimalMarks: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: ",")]
    /// The thousands separators a format may have.
    package static let thousandsSeparators: [UInt8] = [
        UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "'"), UInt8(ascii: " "),
    ]

    /// Creates a format; the caller ensures the marks are among the allowed ones and differ.
    package init(decimalMark: UInt8, thousandsSeparator: UInt8?) {
        self.decimalMark = decimalMark
        self.thousandsSeparator = thousandsSeparator
    }

    /// An example amount in this format, for messages: `-1.234,56`.
    package var example: String {
        let grouping = thousandsSeparator.map { String(UnicodeScalar($0)) } ?? ""
        return "-1\(grouping)234\(String(UnicodeScalar(decimalMark)))56"
    }

    /// Reads an amount in this format into the minor units of a currency.
    ///
    /// An optional `+` or `-` comes first; spaces around the number are ignored. When digits
    /// are grouped, the first group has one to three digits and every later group three.
    ///
    /// - Complexity: O(n) over the bytes, read once; no allocation.
    package func money(parsing bytes: Span<UInt8>, currency: Currency)
        throws(AmountError)
        -> Money
    {
        Money(
            minorUnits: try minorUnits(bytes, scale: currency.minorUnitDigits, currency: currency),
            currency: currency)
    }

    /// Reads the amount in one pass: the digits go into the number as they are met, the
    /// grouping is checked on the way, and the result is what `Money.parseMinorUnits` gives
    /// for the canonical text (`-1234.56`) of the amount, errors included.
    private func minorUnits(_ bytes: Span<UInt8>, scale: Int, currency: Currency)
        throws(AmountError) -> Int64
    {
        var start = 0
        var end = bytes.count
        trimSpaces(bytes, &start, &end)
        guard start < end else { throw .empty }
        var isNegative = try unwrap(bytes, &start, &end, currency: currency) == UInt8(ascii: "-")
        var index = start
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            isNegative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var number = DecimalAccumulator()
        var groupDigits = 0
        var groups = 0
        while index < end {
            let byte = bytes[index]
            if byte &- UInt8(ascii: "0") < 10 {
                number.add(byte)
                groupDigits += 1
                index += 1
            } else if let separatorLength = separatorLength(bytes, at: index, end: end) {
                // Every group before a separator but the first has exactly three digits.
                guard groupDigits == 3 || (groups == 0 && (1...3).contains(groupDigits)) else {
                    throw .grouping
                }
                groups += 1
                groupDigits = 0
                index += separatorLength
            } else {
                break
            }
        }
        guard groups == 0 || groupDigits == 3 else { throw .grouping }
        guard number.digits > 0 else { throw .malformed }
        var fractionDigits = 0
        if index < end {
            guard bytes[index] == decimalMark else { throw .malformed }
            index += 1
            while index < end {
                guard bytes[index] &- UInt8(ascii: "0") < 10 else { throw .malformed }
                number.add(bytes[index])
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else { throw .malformed }
        }
        guard fractionDigits <= scale else { throw .tooManyDecimals(allowed: scale) }
        for _ in fractionDigits..<scale { number.add(UInt8(ascii: "0")) }
        guard let magnitude = number.value else { throw .overflow }
        return isNegative ? -magnitude : magnitude
    }

    private func trimSpaces(_ bytes: Span<UInt8>, _ start: inout Int, _ end: inout Int) {
        while start < end && bytes[start] == UInt8(ascii: " ") { start += 1 }
        while end > start && bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    }

    /// Strips what may surround the number: parentheses, which make it negative (`($12.00)`),
    /// and a currency code or symbol before or after it (`-$12.00`, `1.234,56 €`,
    /// `EUR 12.00`, `12.00 usd`), which must name `currency`. Returns the sign that stood
    /// outside what was stripped, if any; the number left must then carry none of its own.
    private func unwrap(
        _ bytes: Span<UInt8>, _ start: inout Int, _ end: inout Int,
        currency: Currency
    ) throws(AmountError) -> UInt8? {
        // Most amounts begin with a digit or a sign and a digit, and end with a digit.
        let isDigit = { (byte: UInt8) in byte &- UInt8(ascii: "0") < 10 }
        let first = bytes[start] == UInt8(ascii: "-") || bytes[start] == UInt8(ascii: "+") ? 1 : 0
        if isDigit(bytes[end - 1]) && start + first < end && isDigit(bytes[start + first]) {
            return nil
        }
        var sign: UInt8?
        if bytes[start] == UInt8(ascii: "("), end - start > 2,
            bytes[end - 1] == UInt8(ascii: ")")
        {
            (start, end, sign) = (start + 1, end - 1, UInt8(ascii: "-"))
            trimSpaces(bytes, &start, &end)
        }
        let signed = bytes[start] == UInt8(ascii: "-") || bytes[start] == UInt8(ascii: "+")
        var markerStart = start + (signed ? 1 : 0)
        while markerStart < end && bytes[markerStart] == UInt8(ascii: " ") { markerStart += 1 }
        if let length = try CurrencyMarker.length(
            in: bytes, at: markerStart, end: end, leading: true, currency: currency)
        {
            if signed {
                guard sign == nil else { throw .malformed }
                sign = bytes[start]
            }
            start = markerStart + length
            trimSpaces(bytes, &start, &end)
        }
        if start < end,
            let length = try CurrencyMarker.length(
                in: bytes, at: start, end: end, leading: false, currency: currency)
        {
            end -= length
            trimSpaces(bytes, &start, &end)
        }
        guard start < end else { throw .malformed }
        if sign != nil && (bytes[start] == UInt8(ascii: "-") || bytes[start] == UInt8(ascii: "+")) {
            throw .malformed
        }
        return sign
    }

    /// The length of the thousands separator at `index`, or `nil` when there is none.
    private func separatorLength(_ bytes: Span<UInt8>, at index: Int, end: Int) -> Int? {
        guard let separator = thousandsSeparator else { return nil }
        if bytes[index] == separator { return 1 }
        guard separator == UInt8(ascii: " ") else { return nil }
        // U+00A0 NO-BREAK SPACE and U+202F NARROW NO-BREAK SPACE, as French banks group.
        return NoBreakSpace.length(in: bytes, at: index, end: end)
    }
}

/// A currency written beside an amount: an ISO 4217 code in either case, or a symbol.
enum CurrencyMarker {
    /// The symbols and the currencies each may stand for.
    static let symbols: [(bytes: [UInt8], codes: Set<String>)] = [
        (Array("€".utf8), ["EUR"]), (Array("£".utf8), ["GBP"]), (Array("¥".utf8), ["JPY", "CNY"]),
        (Array("₹".utf8), ["INR"]), (Array("zł".utf8), ["PLN"]), (Array("Kč".utf8), ["CZK"]),
        (Array("Ft".utf8), ["HUF"]), (Array("₺".utf8), ["TRY"]), (Array("₪".utf8), ["ILS"]),
        (Array("₩".utf8), ["KRW"]), (Array("₴".utf8), ["UAH"]), (Array("฿".utf8), ["THB"]),
        (Array("R$".utf8), ["BRL"]),
        (Array("kr.".utf8), ["SEK", "NOK", "DKK", "ISK"]),
        (Array("kr".utf8), ["SEK", "NOK", "DKK", "ISK"]),
        (Array("$".utf8), ["USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN"]),
    ]

    /// The currencies a marker written beside amounts may stand for: the one an ISO code
    /// names (in either case), or those of a symbol; `nil` when the text is neither.
    static func currencies(named marker: String) -> Set<String>? {
        if marker.utf8.count == 3, let currency = Currency(code: marker.uppercased()) {
            return [currency.code]
        }
        return symbols.first { $0.bytes.elementsEqual(marker.utf8) }?.codes
    }

    /// The length of a marker that starts at `index` (`leading`) or ends at `end`; `nil`
    /// when there is none. Throws when the marker names another currency than `currency`.
    static func length(
        in bytes: Span<UInt8>, at index: Int, end: Int, leading: Bool,
        currency: Currency
    ) throws(AmountError) -> Int? {
        let isLetter = { (byte: UInt8) in (byte | 0x20) &- UInt8(ascii: "a") < 26 }
        // An ISO code: three letters, not part of a longer word.
        if end - index >= 3 {
            let first = leading ? index : end - 3
            let code = bytes.extracting(first..<first + 3)
            let outside = leading ? first + 3 : first - 1
            if code.allSatisfy(isLetter),
                outside < index || outside >= end || !isLetter(bytes[outside])
            {
                if let named = Currency(codeBytes: code) {
                    guard named == currency else { throw .currencyMismatch(named.code) }
                    return 3
                }
            }
        }
        for (symbol, codes) in symbols where end - index >= symbol.count {
            let first = leading ? index : end - symbol.count
            guard bytes.extracting(first..<first + symbol.count).elementsEqual(symbol) else {
                continue
            }
            guard codes.contains(currency.code) else {
                throw .currencyMismatch(String(decoding: symbol, as: UTF8.self))
            }
            return symbol.count
        }
        return nil
    }
}
