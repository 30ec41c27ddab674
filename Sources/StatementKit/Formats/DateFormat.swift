/// A date layout such as `dd.MM.yyyy`, `dd MMM yyyy` or `yyyy-MM-dd'T'HH:mm:ssXXX`, as bank
/// exports write dates.
///
/// Letters: `yyyy` a four-digit year, `yy` a two-digit year of 2000–2099, `MM` and `dd` a
/// two-digit month and day, `M` and `d` a month and day of one or two digits, `MMM` (or
/// `MMMM`) a month's name, abbreviated or in full, in English, German, French, Spanish,
/// Italian, Dutch, Portuguese or a Nordic language, in any case, with an optional `.` after
/// it (`Sep`, `Okt`, `févr.`, `MÄRZ`). A time may follow: `HH`/`H` hours 0–23, `hh`/`h` hours
/// 1–12 with `a` for AM/PM, `mm` minutes, `ss` seconds, `S` fractions of a second (one digit
/// or more), `X` a time zone (`Z`, `+01`, `+0100`, `+01:00`); the time is checked and not
/// kept, and the day is the day as written, in the bank's time zone. Text in single quotes
/// stands for itself (`'T'`, `'as of'`; `''` is a quote), as does every other character but
/// a letter. A `*` at the end lets any text follow the date (`MM/dd/yyyy*` reads
/// `04/17/2023 as of 04/15/2023` as April 17). A layout names the year, the month and the
/// day once each.
package struct DateFormat: Hashable, Sendable, CustomStringConvertible {
    enum Part: Hashable, Sendable {
        case year(digits: Int)
        case month(padded: Bool)
        case monthName
        case day(padded: Bool)
        /// A time field: its largest value and its smallest (1 for a 12-hour clock's hours).
        case time(padded: Bool, range: ClosedRange<Int>)
        /// One digit or more.
        case fraction
        case amPm
        case zone
        case literal(UInt8)
        /// Any text, up to the end.
        case rest
    }

    /// The layout as written, such as `dd.MM.yyyy`.
    package let pattern: String
    let parts: [Part]

    /// The canonical layout (<doc:Formats#Canonical-CSV>).
    package static let iso = DateFormat(validPattern: "yyyy-MM-dd")

    /// Reads a layout.
    ///
    /// - Throws: a reason when the layout has another letter, misses the year, month or day,
    ///   names a field twice, has `h` without `a`, or an unclosed quote.
    package init(_ pattern: String) throws(DateFormatError) {
        var parts: [Part] = []
        var bytes = Array(pattern.utf8)[...]
        let fail = DateFormatError(pattern: pattern)
        while let first = bytes.first {
            if first == UInt8(ascii: "'") {
                bytes = bytes.dropFirst()
                if bytes.first == UInt8(ascii: "'") {  // '' is a quote
                    parts.append(.literal(first))
                    bytes = bytes.dropFirst()
                    continue
                }
                guard let end = bytes.firstIndex(of: UInt8(ascii: "'")) else { throw fail }
                parts += bytes[..<end].map(Part.literal)
                bytes = bytes[(end + 1)...]
                continue
            }
            let run = bytes.prefix { $0 == first }.count
            switch (UnicodeScalar(first), run) {
            case ("y", 4), ("y", 2): parts.append(.year(digits: run))
            case ("M", 1...2): parts.append(.month(padded: run == 2))
            case ("M", 3...4): parts.append(.monthName)
            case ("d", 1...2): parts.append(.day(padded: run == 2))
            case ("H", 1...2): parts.append(.time(padded: run == 2, range: 0...23))
            case ("h", 1...2): parts.append(.time(padded: run == 2, range: 1...12))
            case ("m", 2), ("s", 2): parts.append(.time(padded: true, range: 0...59))
            case ("S", _): parts.append(.fraction)
            case ("a", 1): parts.append(.amPm)
            case ("X", 1...3): parts.append(.zone)
            case ("*", 1) where run == bytes.count: parts.append(.rest)
            case _ where first >= 0x80 || !Self.isLetter(first):
                parts += repeatElement(.literal(first), count: run)
            default:
                throw fail
            }
            bytes = bytes.dropFirst(run)
        }
        func count(_ matches: (Part) -> Bool) -> Int { parts.filter(matches).count }
        let twelveHour = count { if case .time(_, 1...12) = $0 { true } else { false } }
        guard count({ if case .year = $0 { true } else { false } }) == 1,
            count({ $0 == .monthName || $0 == .month(padded: true) || $0 == .month(padded: false) })
                == 1,
            count({ if case .day = $0 { true } else { false } }) == 1,
            count({ $0 == .amPm }) == twelveHour, twelveHour <= 1,
            count({ $0 == .zone }) <= 1, count({ $0 == .fraction }) <= 1
        else { throw fail }
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

    /// Reads a day laid out this way from UTF-8 bytes.
    ///
    /// - Complexity: O(n), no allocation.
    package func day(parsing bytes: Span<UInt8>) throws(DayError) -> Day {
        var index = 0
        var (year, month, day) = (0, 0, 0)
        // The readers take the bytes and the index as arguments: local functions that
        // captured them were called through a context checked for exclusive access.
        var timeIsValid = true
        for (position, part) in parts.enumerated() {
            switch part {
            case .year(let digits):
                year = try Self.number(bytes, &index, digits, digits) + (digits == 2 ? 2000 : 0)
            case .month(let padded): month = try Self.number(bytes, &index, padded ? 2 : 1, 2)
            case .monthName:
                let (found, length) = MonthNames.month(at: index, in: bytes)
                guard let found else { throw .malformed }
                month = found
                index += length
                // An abbreviation's full stop, unless the layout writes one next.
                if position + 1 == parts.count || parts[position + 1] != .literal(UInt8(ascii: "."))
                {
                    _ = Self.skip(UInt8(ascii: "."), bytes, &index)
                }
            case .day(let padded): day = try Self.number(bytes, &index, padded ? 2 : 1, 2)
            case .time(let padded, let range):
                let value = try Self.number(bytes, &index, padded ? 2 : 1, 2)
                timeIsValid = timeIsValid && range.contains(value)
            case .fraction: _ = try Self.number(bytes, &index, 1, .max)
            case .amPm:
                let letter = index < bytes.count ? bytes[index] | 0x20 : 0
                guard letter == UInt8(ascii: "a") || letter == UInt8(ascii: "p") else {
                    throw .malformed
                }
                index += 1
                guard index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "m") else {
                    throw .malformed
                }
                index += 1
            case .zone:
                if Self.skip(UInt8(ascii: "Z"), bytes, &index) { continue }
                guard
                    Self.skip(UInt8(ascii: "+"), bytes, &index)
                        || Self.skip(UInt8(ascii: "-"), bytes, &index)
                else { throw .malformed }
                let hours = try Self.number(bytes, &index, 2, 2)
                timeIsValid = timeIsValid && hours <= 14
                let colon = Self.skip(UInt8(ascii: ":"), bytes, &index)
                if colon || (index < bytes.count && bytes[index] &- UInt8(ascii: "0") < 10) {
                    let minutes = try Self.number(bytes, &index, 2, 2)
                    timeIsValid = timeIsValid && minutes <= 59
                }
            case .literal(let byte):
                guard Self.skip(byte, bytes, &index) else { throw .malformed }
            case .rest:
                index = bytes.count
            }
        }
        guard index == bytes.count else { throw .malformed }
        let result = try Day(year: year, month: month, day: day)
        guard timeIsValid else { throw .invalid }
        return result
    }
}

extension DateFormat {
    /// Reads `minimum` to `maximum` digits at `index`, moving it past them.
    @inline(__always)
    fileprivate static func number(
        _ bytes: Span<UInt8>, _ index: inout Int, _ minimum: Int, _ maximum: Int
    ) throws(DayError) -> Int {
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

    /// Whether `byte` stands at `index`, moving it past the byte when it does.
    @inline(__always)
    fileprivate static func skip(_ byte: UInt8, _ bytes: Span<UInt8>, _ index: inout Int) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}

/// The names of the months in the languages of bank exports, for `MMM`.
enum MonthNames {
    /// The names of each month, January first: full names and abbreviations in English,
    /// German, French (with and without accents), Spanish, Italian, Dutch, Portuguese,
    /// Swedish, Danish and Norwegian. No name means one month in one language and another in
    /// another, so one table serves every language.
    static let names: [[String]] = [
        [
            "january", "jan", "januar", "jänner", "jän", "janvier", "janv", "enero", "ene",
            "gennaio", "gen", "januari", "janeiro",
        ],
        [
            "february", "feb", "februar", "février", "fevrier", "févr", "fevr", "fév", "fev",
            "febrero", "febbraio", "februari", "fevereiro",
        ],
        [
            "march", "mar", "märz", "mär", "maerz", "mrz", "mars", "marzo", "maart", "mrt",
            "março", "marco", "marts",
        ],
        ["april", "apr", "avril", "avr", "abril", "abr", "aprile"],
        ["may", "mai", "mayo", "maggio", "mag", "mei", "maio", "maj"],
        ["june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho"],
        ["july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho"],
        ["august", "aug", "août", "aout", "agosto", "ago", "augustus", "augusti"],
        [
            "september", "sep", "sept", "septembre", "septiembre", "setiembre", "settembre",
            "set", "setembro",
        ],
        [
            "october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott",
            "outubro", "out",
        ],
        ["november", "nov", "novembre", "noviembre", "novembro"],
        [
            "december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre",
            "dic", "dicembre", "dezembro", "desember", "des",
        ],
    ]

    /// Each name's bytes in lower and in upper case (`ä` and `Ä` differ in more than one
    /// bit), with its month, longest first so that `juillet` wins over `jul`.
    private static let table: [(bytes: [UInt8], month: Int)] = names.enumerated().flatMap {
        month, names in
        names.flatMap { name in
            Set([name, name.uppercased()]).map { (Array($0.utf8), month + 1) }
        }
    }.sorted { $0.bytes.count > $1.bytes.count }

    /// The month whose name starts at `index`, ignoring the case of ASCII letters, and the
    /// name's length in bytes; `nil` when no name starts there.
    static func month(at index: Int, in bytes: Span<UInt8>) -> (Int?, Int) {
        let available = bytes.count - index
        for (name, month) in table where name.count <= available {
            var matches = true
            for (offset, byte) in name.enumerated() {
                let other = bytes[index + offset]
                if byte != other
                    && !(byte < 0x80 && Self.isLetter(byte) && byte | 0x20 == other | 0x20)
                {
                    matches = false
                    break
                }
            }
            // A name is a whole word: `mar` does not read the start of `marzipan`.
            if matches
                && (index + name.count == bytes.count || !isLetter(bytes[index + name.count]))
            {
                return (month, name.count)
            }
        }
        return (nil, 0)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

/// A date layout that `DateFormat` cannot read.
package struct DateFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    package let pattern: String

    package var description: String {
        "date format \"\(pattern)\" must name the year (yyyy or yy), the month (MM, M or MMM) and the day (dd or d) once each, may add a time (HH:mm:ss, h:mm a, S, X) and quoted text ('T'); other letters are not allowed"
    }
}
