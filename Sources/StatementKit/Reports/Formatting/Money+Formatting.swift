import Foundation

extension Money {
    /// The amount as a JSON object: `{"minorUnits": -1500, "decimal": "-15.00"}`.
    package var jsonObject: String {
        "{\"minorUnits\": \(minorUnits), \"decimal\": \"\(decimalText)\"}"
    }

    /// The amount with `,` between thousands and the currency code, such as `-1,234.56 EUR`.
    package var groupedText: String { groupedNumber + " " + currency.code }

    /// The amount with `,` between thousands, without its currency: `-1,234.56`.
    package var groupedNumber: String {
        var text: [UInt8] = minorUnits < 0 ? [UInt8(ascii: "-")] : []
        DecimalDigits.appendGrouped(
            minorUnits.magnitude, fractionDigits: currency.minorUnitDigits, to: &text)
        return String(decoding: text, as: UTF8.self)
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

/// The `MoneyFormat`s a renderer has learned, by currency, shared by all its calls.
package final class MoneyFormatCache: Sendable {
    private let formats: Memo<Currency, MoneyFormat>

    /// Creates an empty cache for a locale.
    package init(locale: Locale) {
        formats = Memo { MoneyFormat(currency: $0, locale: locale) }
    }

    /// The format of a currency, learned on first use.
    package func format(for currency: Currency) -> MoneyFormat {
        formats[currency]
    }
}

/// Values worked out once per key, on first use, and shared by the threads that render.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `values` holds `lock`.
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    private let make: @Sendable (Key) -> Value

    init(_ make: @escaping @Sendable (Key) -> Value) {
        self.make = make
    }

    subscript(key: Key) -> Value {
        lock.withLock {
            if let known = values[key] { return known }
            let value = make(key)
            values[key] = value
            return value
        }
    }
}

/// Formats many amounts of one currency for one locale, as `Money.formatted(locale:)` does,
/// without calling Foundation for each.
///
/// Foundation formats a few probe amounts once; from them the formatter learns the locale's
/// prefix and suffix (for positive and negative amounts), decimal and grouping separators and
/// grouping sizes, then writes each amount from its integer digits. It checks what it learned
/// against Foundation on further amounts, and simply asks Foundation every time when the
/// locale does something it did not learn (other digits, other patterns).
package struct MoneyFormat: Sendable {
    private struct Pattern: Sendable {
        var positivePrefix: String
        var positiveSuffix: String
        var negativePrefix: String
        var negativeSuffix: String
        var decimalSeparator: String
        var groupingSeparator: String
        var primaryGrouping: Int
        var secondaryGrouping: Int
        /// How many digits an integer part needs beyond the first group before it is grouped:
        /// 1 in most locales (`1,234`), 2 in some (`1234` but `12.345` in es_ES).
        var minimumGroupingDigits = 1

        /// Every text the pattern writes besides ASCII digits, in one order.
        var texts: [String] {
            [
                positivePrefix, positiveSuffix, negativePrefix, negativeSuffix, decimalSeparator,
                groupingSeparator,
            ]
        }
    }

    /// A pattern as UTF-8 texts, appended to an output as they are: views into the memory
    /// of a `ByteTexts`, plain values, so that formatting an amount touches no reference count
    /// (two cores formatting with one format would contend for it).
    private struct PatternBytes: Sendable {
        let positivePrefix: ByteTexts.Text
        let positiveSuffix: ByteTexts.Text
        let negativePrefix: ByteTexts.Text
        let negativeSuffix: ByteTexts.Text
        let decimalSeparator: ByteTexts.Text
        let groupingSeparator: ByteTexts.Text
        let primaryGrouping: Int
        let secondaryGrouping: Int
        let minimumGroupingDigits: Int

        /// The views of `storage`, which must outlive them.
        init(_ pattern: Pattern, in storage: ByteTexts) {
            let parts = storage.texts
            (positivePrefix, positiveSuffix, negativePrefix) = (parts[0], parts[1], parts[2])
            (negativeSuffix, decimalSeparator, groupingSeparator) = (parts[3], parts[4], parts[5])
            primaryGrouping = pattern.primaryGrouping
            secondaryGrouping = pattern.secondaryGrouping
            minimumGroupingDigits = pattern.minimumGroupingDigits
        }
    }

    package let currency: Currency
    package let locale: Locale
    private let pattern: Pattern?
    private let patternStorage: ByteTexts?
    /// `patternStorage`'s bytes, kept alive by it.
    private let patternBytes: PatternBytes?

    /// Learns the pattern of a currency in a locale.
    package init(currency: Currency, locale: Locale) {
        self.currency = currency
        self.locale = locale
        pattern = Self.learn(currency: currency, locale: locale)
        let storage = pattern.map { ByteTexts($0.texts) }
        patternStorage = storage
        patternBytes = pattern.map { PatternBytes($0, in: storage!) }
    }

    /// The amount in this currency, as `Money.formatted(locale:)` writes it.
    package func format(_ money: Money) -> String {
        var bytes: [UInt8] = []
        append(money, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `format(money)`'s bytes.
    func append(_ money: Money, to out: inout [UInt8]) {
        guard let patternBytes, money.currency == currency else {
            out += money.formatted(locale: locale).utf8
            return
        }
        Self.append(money.minorUnits, digits: currency.minorUnitDigits, patternBytes, to: &out)
    }

    /// Every text this format writes besides ASCII digits (signs, symbols, separators);
    /// `nil` when it asks Foundation for each amount.
    var fixedTexts: [String]? { pattern?.texts }

    /// Whether every character of this format's amounts is one column wide on its own
    /// (`Unicode.Scalar.isPlainNarrow`): an amount's display width is then its count of
    /// Unicode scalars.
    var isPlainNarrow: Bool {
        fixedTexts?.allSatisfy { $0.unicodeScalars.allSatisfy(\.isPlainNarrow) } ?? false
    }

    /// What a pattern writes for an amount, for checking a pattern as it is learned.
    private static func format(_ minorUnits: Int64, digits: Int, _ pattern: Pattern) -> String {
        var bytes: [UInt8] = []
        let storage = ByteTexts(pattern.texts)
        withExtendedLifetime(storage) {
            append(minorUnits, digits: digits, PatternBytes(pattern, in: storage), to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(
        _ minorUnits: Int64, digits: Int, _ pattern: PatternBytes, to out: inout [UInt8]
    ) {
        // The decimal digits, at least one more than the fraction.
        DecimalDigits.with(minorUnits.magnitude, minimumCount: digits + 1) { number in
            let integerCount = number.count - digits
            let negative = minorUnits < 0
            let (prefix, suffix) =
                negative
                ? (pattern.negativePrefix, pattern.negativeSuffix)
                : (pattern.positivePrefix, pattern.positiveSuffix)
            // Written on the stack first, then appended in one copy: at most a separator
            // before each digit.
            let most =
                prefix.count + suffix.count + number.count + pattern.decimalSeparator.count
                + integerCount * pattern.groupingSeparator.count
            out.appendWriting(atMost: most) { text in
                text.put(prefix)
                // Runs of digits between separators: the primary group at the right,
                // secondary ones before.
                var start = 0
                if integerCount >= pattern.primaryGrouping + pattern.minimumGroupingDigits {
                    // Before the primary group: the leftmost group, then secondary ones.
                    let head = integerCount - pattern.primaryGrouping
                    let secondary = pattern.secondaryGrouping
                    var end = head % secondary == 0 ? secondary : head % secondary
                    while end <= head {
                        text.put(number[start..<end])
                        text.put(pattern.groupingSeparator)
                        start = end
                        end += secondary
                    }
                }
                text.put(number[start..<integerCount])
                if digits > 0 {
                    text.put(pattern.decimalSeparator)
                    text.put(number[integerCount...])
                }
                text.put(suffix)
            }
        }
    }

    private static func learn(currency: Currency, locale: Locale) -> Pattern? {
        let digits = currency.minorUnitDigits
        func foundation(_ minorUnits: Int64) -> String {
            Money(minorUnits: minorUnits, currency: currency).formatted(locale: locale)
        }
        // 1234567890 with the fraction digits 1, 2, 3, 4 behind: "€12,345,678.90" style.
        let fractionDigits = String("1234".prefix(digits))
        let probe = Int64("1234567890" + fractionDigits)!
        let positive = foundation(probe)
        let negative = foundation(-probe)
        guard let (prefix, suffix, body) = split(positive),
            let (negativePrefix, negativeSuffix, negativeBody) = split(negative),
            body == negativeBody
        else { return nil }
        // The body holds the digits 1234567890, separators, then the fraction digits.
        var decimalSeparator = ""
        var integerPart = body[...]
        if digits > 0 {
            guard body.hasSuffix(fractionDigits) else { return nil }
            let beforeFraction = body.dropLast(digits)
            guard let lastDigit = beforeFraction.lastIndex(where: { $0.isASCII && $0.isNumber })
            else { return nil }
            decimalSeparator = String(beforeFraction[beforeFraction.index(after: lastDigit)...])
            integerPart = beforeFraction[...lastDigit]
        }
        // Group sizes from where the separators stand in "1,234,567,890" or "1,23,45,67,890".
        var groups: [Int] = []
        var separator = ""
        var current = 0
        var index = integerPart.startIndex
        while index < integerPart.endIndex {
            let character = integerPart[index]
            if character.isASCII && character.isNumber {
                current += 1
                index = integerPart.index(after: index)
            } else {
                var end = index
                while end < integerPart.endIndex
                    && !(integerPart[end].isASCII && integerPart[end].isNumber)
                {
                    end = integerPart.index(after: end)
                }
                let found = String(integerPart[index..<end])
                guard separator.isEmpty || separator == found else { return nil }
                separator = found
                groups.append(current)
                current = 0
                index = end
            }
        }
        groups.append(current)
        guard groups.reduce(0, +) == 10, let primary = groups.last, primary > 0 else { return nil }
        let secondary = groups.count > 2 ? groups[groups.count - 2] : primary
        var pattern = Pattern(
            positivePrefix: prefix, positiveSuffix: suffix, negativePrefix: negativePrefix,
            negativeSuffix: negativeSuffix,
            decimalSeparator: decimalSeparator, groupingSeparator: separator,
            primaryGrouping: primary, secondaryGrouping: groups.count > 1 ? secondary : 1_000)
        let unit = Int64(pow10(digits))
        if primary < 10, !foundation((Int64(pow10(primary)) + 1) * unit).contains(separator) {
            pattern.minimumGroupingDigits = 2
        }
        // Check the learned pattern where Foundation could differ: small, zero, negative, huge.
        let checks: [Int64] = [
            0, 1, -1, 5, -99, 100_000, -123_456_789, Int64.max, -Int64.max, 1_000_000_007,
        ]
        for check in checks + [999, 1_234, -12_345, 123_456].map({ $0 * unit }) {
            guard format(check, digits: digits, pattern) == foundation(check) else { return nil }
        }
        return pattern
    }

    private static func pow10(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    /// Splits a formatted amount into what stands before its first ASCII digit, after its
    /// last, and between.
    private static func split(_ text: String) -> (String, String, String)? {
        guard let first = text.firstIndex(where: { $0.isASCII && $0.isNumber }),
            let last = text.lastIndex(where: { $0.isASCII && $0.isNumber })
        else { return nil }
        return (
            String(text[..<first]), String(text[text.index(after: last)...]),
            String(text[first...last])
        )
    }
}
