/// A date layout such as `dd.MM.yyyy` or `MM/dd/yyyy`, as bank exports write dates.
///
/// Letters: `yyyy` a four-digit year, `yy` a two-digit year of 2000–2099, `MM` and `dd` a
/// two-digit month and day, `M` and `d` a month and day of one or two digits. Every other
/// character stands for itself. A layout names the year, the month and the day once each.
package struct DateFormat: Hashable, Sendable, CustomStringConvertible {
    enum Part: Hashable, Sendable {
        case year(digits: Int)
        case month(padded: Bool)
        case day(padded: Bool)
        case literal(UInt8)
    }

    /// The layout as written, such as `dd.MM.yyyy`.
    package let pattern: String
    let parts: [Part]

    /// The canonical layout of SPEC 2.1.
    package static let iso = DateFormat(validPattern: "yyyy-MM-dd")

    /// Reads a layout.
    ///
    /// - Throws: a reason when the layout has another letter, misses the year, month or day,
    ///   or names one twice.
    package init(_ pattern: String) throws(DateFormatError) {
        var parts: [Part] = []
        var bytes = Array(pattern.utf8)[...]
        while let first = bytes.first {
            let run = bytes.prefix { $0 == first }.count
            switch (first, run) {
            case (UInt8(ascii: "y"), 4), (UInt8(ascii: "y"), 2): parts.append(.year(digits: run))
            case (UInt8(ascii: "M"), 1...2): parts.append(.month(padded: run == 2))
            case (UInt8(ascii: "d"), 1...2): parts.append(.day(padded: run == 2))
            case _ where first < 0x80 && !Self.isLetter(first):
                parts += repeatElement(.literal(first), count: run)
            default:
                throw DateFormatError(pattern: pattern)
            }
            bytes = bytes.dropFirst(run)
        }
        let years = parts.filter { if case .year = $0 { true } else { false } }.count
        let months = parts.filter { if case .month = $0 { true } else { false } }.count
        let days = parts.filter { if case .day = $0 { true } else { false } }.count
        guard years == 1, months == 1, days == 1 else { throw DateFormatError(pattern: pattern) }
        self.pattern = pattern
        self.parts = parts
    }

    private init(validPattern: String) {
        self = try! DateFormat(validPattern)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    package var description: String { pattern }

    /// Reads a day laid out this way from ASCII bytes.
    ///
    /// - Complexity: O(n), no allocation.
    package func day(parsing bytes: UnsafeRawBufferPointer) throws(DayError) -> Day {
        var index = 0
        var (year, month, day) = (0, 0, 0)
        /// Reads `minimum` to `maximum` digits.
        func number(_ minimum: Int, _ maximum: Int) throws(DayError) -> Int {
            var value = 0
            var count = 0
            while count < maximum, index < bytes.count,
                case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10
            {
                value = value * 10 + Int(digit)
                count += 1
                index += 1
            }
            guard count >= minimum else { throw .malformed }
            return value
        }
        for part in parts {
            switch part {
            case .year(let digits):
                year = try number(digits, digits) + (digits == 2 ? 2000 : 0)
            case .month(let padded): month = try number(padded ? 2 : 1, 2)
            case .day(let padded): day = try number(padded ? 2 : 1, 2)
            case .literal(let byte):
                guard index < bytes.count, bytes[index] == byte else { throw .malformed }
                index += 1
            }
        }
        guard index == bytes.count else { throw .malformed }
        return try Day(year: year, month: month, day: day)
    }
}

/// A date layout that `DateFormat` cannot read.
package struct DateFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    package let pattern: String

    package var description: String {
        "date format \"\(pattern)\" must name yyyy or yy, MM or M, and dd or d once each; other letters are not allowed"
    }
}
