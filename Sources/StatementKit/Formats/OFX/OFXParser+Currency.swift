/// OFX amounts as banks write them, and a transaction's `CURRENCY` and `ORIGCURRENCY`.
///
/// The OFX specification (2.2, section 5.2, "Currency") gives each statement a default
/// currency, `CURDEF`, and lets a transaction name another in one of two aggregates, each a
/// `CURSYM` (an ISO 4217 code) and a `CURRATE` ("ratio of CURDEF currency to CURSYM currency"):
///
/// - `CURRENCY`: the transaction's amounts are in `CURSYM`. The account is kept in `CURDEF`,
///   so `TRNAMT` is read in `CURSYM` (its decimals checked against it) and converted:
///   `TRNAMT × CURRATE` in `CURDEF`. A product with more decimals than `CURDEF` has is rounded
///   half away from zero and reported as an assumption (`DIALECT_ASSUMED`, an error under
///   `--strict`), since the file does not say what the bank booked; `CURRENCY` without
///   `CURRATE` (when `CURSYM` is not `CURDEF`) is `ELEMENT_MISSING`, never read as `CURDEF`.
/// - `ORIGCURRENCY`: the amounts are already in `CURDEF`; the original currency and rate are
///   for information, and the amount is taken as it stands.
extension OFXParser {
    /// Writes an OFX amount into `plain` as `Money(parsing:)` reads it: `,` as the decimal
    /// mark becomes `.`, and spaces (also no-break and narrow no-break ones) that group the
    /// digits before it in threes are left out (`+1 006,60` is `+1006.60`).
    ///
    /// - Throws: `.grouping` when spaces do not group the digits in threes.
    static func plainAmount(_ text: Span<UInt8>, into plain: inout ScratchWriter)
        throws(AmountError)
    {
        var index = 0
        // Digits since the start or the last space, and how many spaces grouped them.
        var (group, groups) = (0, 0)
        var sawMark = false
        while index < text.count {
            let byte = text[index]
            var separator = 0
            if !sawMark {
                if byte == 0x20 {
                    separator = 1
                } else if byte == 0xC2, index + 1 < text.count, text[index + 1] == 0xA0 {
                    separator = 2
                } else if byte == 0xE2, index + 2 < text.count, text[index + 1] == 0x80,
                    text[index + 2] == 0xAF
                {
                    separator = 3
                }
            }
            if separator > 0 {
                guard group > 0, group <= 3, groups == 0 || group == 3,
                    index + separator < text.count, text[index + separator] &- 48 < 10
                else { throw .grouping }
                (group, groups) = (0, groups + 1)
                index += separator
                continue
            }
            if byte &- 48 < 10 {
                group += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                guard groups == 0 || sawMark || group == 3 else { throw .grouping }
                sawMark = true
                plain.put(UInt8(ascii: "."))
                index += 1
                continue
            }
            plain.put(byte)
            index += 1
        }
        guard groups == 0 || sawMark || group == 3 else { throw .grouping }
    }

    /// A positive decimal such as `1.0834` (or `1,0834`): its digits as one number, and how
    /// many of them follow the mark; `nil` for anything else.
    static func decimal(_ bytes: ArraySlice<UInt8>) -> (significand: UInt64, scale: Int)? {
        var significand: UInt64 = 0
        var (scale, digits) = (0, 0)
        var sawMark = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                guard !sawMark else { return nil }
                sawMark = true
                continue
            }
            guard byte &- 48 < 10 else { return nil }
            let (shifted, o1) = significand.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.addingReportingOverflow(UInt64(byte &- 48))
            guard !o1, !o2, digits < 19 else { return nil }
            significand = next
            digits += 1
            if sawMark { scale += 1 }
        }
        return digits > 0 ? (significand, scale) : nil
    }
}

extension OFXParser.State {
    /// The currency `TRNAMT` is in, and the `CURRATE` that converts it to the account's
    /// (`nil` when it is the account's); `nil` after reporting an aggregate that cannot be
    /// read.
    mutating func transactionCurrency(_ account: Account) -> (Currency, OFXParser.PlacedValue?)? {
        // ORIGCURRENCY: the amounts are in CURDEF already.
        guard let kind = transaction.currencyKind, kind == .currency else {
            return (account.currency, nil)
        }
        guard let symbol = transaction[.cursym], !symbol.range.isEmpty else {
            report(
                .elementMissing("<CURSYM>", in: "<CURRENCY>"), line: transaction.line, column: 1)
            return nil
        }
        let code = transaction.string(.cursym)!
        guard let currency = Currency(code: code) else {
            report(
                .currency("CURRENCY/CURSYM", Diagnostic.quote(code)), line: symbol.line,
                column: symbol.column)
            return nil
        }
        if currency == account.currency { return (currency, nil) }
        guard let rate = transaction[.currate], !rate.range.isEmpty else {
            report(
                .elementMissing("<CURRATE>", in: "<CURRENCY>"), line: transaction.line,
                column: 1)
            return nil
        }
        return (currency, rate)
    }

    /// `amount × rate` in `target`, exactly when it can be, else rounded half away from zero
    /// and reported as an assumption; `nil` after reporting a rate or a result that cannot be.
    mutating func convert(
        _ amount: Money, at rate: OFXParser.PlacedValue, to target: Currency,
        _ place: OFXParser.PlacedValue
    ) -> Money? {
        let rateText = String(decoding: transaction.bytes(rate), as: UTF8.self)
        guard let (significand, scale) = OFXParser.decimal(transaction.bytes(rate)),
            significand > 0
        else {
            report(
                .rateFormat("CURRENCY/CURRATE", Diagnostic.quote(rateText)), line: rate.line,
                column: rate.column)
            return nil
        }
        // The product has the decimals of the amount and of the rate together.
        let product = UInt128(amount.minorUnits.magnitude) * UInt128(significand)
        let decimals = amount.currency.minorUnitDigits + scale
        let shift = target.minorUnitDigits - decimals
        var magnitude = product
        var isExact = true
        if shift >= 0 {
            let (shifted, overflow) = product.multipliedReportingOverflow(
                by: Self.power(of: shift))
            magnitude = overflow ? UInt128.max : shifted
        } else {
            let divisor = Self.power(of: -shift)
            let (quotient, remainder) = product.quotientAndRemainder(dividingBy: divisor)
            isExact = remainder == 0
            magnitude = remainder >= divisor - remainder ? quotient + 1 : quotient
        }
        guard magnitude <= UInt128(Int64.max) else {
            report(
                .amount(
                    "TRNAMT", Diagnostic.quote(amount.decimalText), .overflow, currency: target,
                    example: nil),
                line: place.line, column: place.column)
            return nil
        }
        let sign: Int64 = amount.minorUnits < 0 ? -1 : 1
        let converted = Money(minorUnits: sign * Int64(magnitude), currency: target)
        if !isExact {
            let exact = Self.decimalText(product, decimals: decimals, isNegative: sign < 0)
            report(
                .assumedRounding(
                    amount, rate: rateText, exact: "\(exact) \(target.code)", rounded: converted),
                line: place.line, column: place.column)
        }
        return converted
    }

    /// 10 to the power of `exponent`, which is at most 38.
    private static func power(of exponent: Int) -> UInt128 {
        var result: UInt128 = 1
        for _ in 0..<min(exponent, 38) { result *= 10 }
        return result
    }

    /// A magnitude with `decimals` decimals as text, such as `-5.417`.
    private static func decimalText(_ magnitude: UInt128, decimals: Int, isNegative: Bool)
        -> String
    {
        var digits = String(magnitude)
        if digits.count <= decimals {
            digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
        }
        if decimals > 0 {
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (isNegative ? "-" : "") + digits
    }
}
