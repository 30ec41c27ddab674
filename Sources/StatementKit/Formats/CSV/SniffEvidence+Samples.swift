/// What one sample shows: IBAN and date shapes, date and time layouts, amounts.
extension SniffEvidence {
    /// Whether a text is an IBAN, valid or not: two letters, two digits, then at least ten
    /// letters and digits (spaces allowed).
    /// What a row's text labels instead of a booking: a balance (`Neuer Kontostand`), or a
    /// total of the rows.
    enum RowLabel: Equatable {
        case balance(Dialect.PreambleItem)
        case total
    }

    /// Texts that are a row's whole label: a balance's, or a total's.
    static let wholeLabels: [String: RowLabel] = [
        "balance": .balance(.closingBalance), "saldo": .balance(.closingBalance),
        "kontostand": .balance(.closingBalance), "solde": .balance(.closingBalance),
        "balance carried forward": .balance(.closingBalance),
        "carried forward": .balance(.closingBalance), "total": .total, "totals": .total,
        "summe": .total, "gesamt": .total, "totaal": .total, "totale": .total,
    ]

    /// Every label a row may have, in bytes: whole (`Saldo`, after which only spaces or a
    /// colon may follow) or a prefix (`Neuer Kontostand …`).
    private typealias LabelBytes = (bytes: [UInt8], label: RowLabel, isWhole: Bool)
    private static let labels: [LabelBytes] =
        wholeLabels.map { (Array($0.key.utf8), $0.value, true) }
        + HeaderVocabulary.balanceLabels.map { (Array($0.label.utf8), .balance($0.item), false) }
        + HeaderVocabulary.totalLabels.map { (Array($0.utf8), .total, false) }

    /// The labels by the pair of bytes they start with (ASCII letters in lower case): for
    /// each `pairKey`, 0 when no label starts so, else the index in `groups` plus one.
    /// Most rows' texts are no label, and this tells at one lookup.
    private static let labelStarts: (groupOf: [UInt8], groups: [[LabelBytes]]) = {
        var groupOf = [UInt8](repeating: 0, count: 1 << 16)
        var groups: [[LabelBytes]] = []
        for label in labels where label.bytes.count >= 2 {
            let key = pairKey(label.bytes[0], label.bytes[1])
            if groupOf[key] == 0 {
                groups.append([])
                groupOf[key] = UInt8(groups.count)
            }
            groups[Int(groupOf[key]) - 1].append(label)
        }
        return (groupOf, groups)
    }()

    private static func pairKey(_ first: UInt8, _ second: UInt8) -> Int {
        let lower = { (byte: UInt8) in Int(byte | (byte &- 65 < 26 ? 0x20 : 0)) }
        return lower(first) << 8 | lower(second)
    }

    /// What a row's text labels (`Neuer Kontostand`, `Total`). Every row passes here: it
    /// compares bytes, ASCII letters in any case, and makes no text.
    static func rowLabel(_ text: UnsafeRawBufferPointer) -> RowLabel? {
        guard text.count >= 3, text.count <= 60 else { return nil }
        let group = Int(labelStarts.groupOf[pairKey(text[0], text[1])])
        guard group > 0 else { return nil }
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: ":") || text[end - 1] == UInt8(ascii: " ") {
            end -= 1
        }
        for (bytes, label, isWhole) in labelStarts.groups[group - 1]
        where isWhole ? bytes.count == end : bytes.count <= end {
            // A balance's label followed by more text is one only when a date follows
            // (`Kontostand am 31.03.2026`): `Solde Privé Shop`, `Saldo al 50% Outlet` and
            // `Brought Forward Coffee` are merchants. A total's (`Summe der …`) is one.
            if bytes.indices.allSatisfy({ bytes[$0] == text[$0] | (text[$0] &- 65 < 26 ? 0x20 : 0) }
            ),
                bytes.count == end || label == .total
                    || Self.holdsDate(text, from: bytes.count, to: end)
            {
                return label
            }
        }
        return nil
    }

    /// Whether `text[start..<end]` holds digits, a `.`, `/` or `-`, and digits again.
    private static func holdsDate(_ text: UnsafeRawBufferPointer, from start: Int, to end: Int)
        -> Bool
    {
        var index = start
        while index + 2 < end {
            if text[index] &- 48 < 10,
                [UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "-")].contains(text[index + 1]),
                text[index + 2] &- 48 < 10
            {
                return true
            }
            index += 1
        }
        return false
    }

    static func isIBANShaped(_ text: String) -> Bool {
        let characters = Array(text.uppercased().filter { $0 != " " && $0 != "\u{A0}" })
        guard characters.count >= 14, characters.count <= 34,
            characters[0].isASCII, characters[0].isLetter, characters[1].isASCII,
            characters[1].isLetter, characters[2].isASCII, characters[2].isNumber,
            characters[3].isASCII, characters[3].isNumber
        else { return false }
        return characters.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// Whether a text starts with a digit or a month's name, as a date does.
    static func startsLikeDate(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { startsLikeDate(UnsafeRawBufferPointer($0)) }
    }

    /// Whether UTF-8 bytes start with a digit or a month's name, as a date does.
    static func startsLikeDate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        return first &- 48 < 10 || bytes.withSpan { MonthNames.month(at: 0, in: $0).0 != nil }
    }

    /// The layout of a time that starts at `start` with a space or a `T`, such as
    /// ` HH:mm` or `'T'HH:mm:ss.SX`; `nil` when the bytes from there are not a time.
    static func timeLayout(_ bytes: [UInt8], from start: Int) -> String? {
        var index = start
        func digits() -> Int {
            let begin = index
            while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
            return index - begin
        }
        func skip(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
            index += 1
            return true
        }
        var layout = skip(" ") ? " " : skip("T") ? "'T'" : nil
        guard layout != nil, (1...2).contains(digits()), skip(":"), digits() == 2 else {
            return nil
        }
        var minutesAndMore = ":mm"
        if skip(":") {
            guard digits() == 2 else { return nil }
            minutesAndMore += ":ss"
            if skip(".") || skip(",") {
                let mark = bytes[index - 1] == UInt8(ascii: ".") ? "." : ","
                guard digits() > 0 else { return nil }
                minutesAndMore += "\(mark)S"
            }
        }
        var hours = "H"
        let space = skip(" ") ? " " : ""
        if index + 1 < bytes.count,
            [UInt8(ascii: "a"), UInt8(ascii: "p")].contains(bytes[index] | 0x20),
            bytes[index + 1] | 0x20 == UInt8(ascii: "m")
        {
            index += 2
            hours = "h"
            minutesAndMore += space + "a"
        } else if !space.isEmpty {
            index -= 1
        }
        let zoneSpace = skip(" ") ? " " : ""
        if skip("Z") {
            minutesAndMore += zoneSpace + "X"
        } else if skip("+") || skip("-") {
            guard digits() == 2 else { return nil }
            if skip(":") { guard digits() == 2 else { return nil } } else { _ = digits() }
            minutesAndMore += zoneSpace + "X"
        } else if !zoneSpace.isEmpty {
            return nil
        }
        guard index == bytes.count else { return nil }
        layout! += hours + minutesAndMore
        return layout
    }

    /// The layout of a date written with a month's name (`12 Sep 2025`, `3-Okt-26`,
    /// `04 févr. 2026`, `Sep 12, 2025`); `nil` when the text is not such a date.
    static func namedLayout(_ bytes: ArraySlice<UInt8>) -> String? {
        var pattern = ""
        var numbers: [Int] = []  // digit counts, in order
        var namePosition: Int?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte &- 48 < 10 {
                let start = index
                while index < bytes.endIndex, bytes[index] &- 48 < 10 { index += 1 }
                numbers.append(index - start)
                pattern += "\u{0}"  // a number, named below
            } else if byte >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            {
                guard namePosition == nil else { return nil }
                let start = index
                while index < bytes.endIndex,
                    bytes[index] >= 0x80
                        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index] | 0x20)
                {
                    index += 1
                }
                let word = Array(bytes[start..<index])
                let (month, length) = MonthNames.month(at: 0, in: word.span)
                guard month != nil, length == word.count else { return nil }
                namePosition = numbers.count
                pattern += "MMM"
                // The parser takes an abbreviation's full stop with the name.
                if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") { index += 1 }
            } else if byte == UInt8(ascii: "'") {
                return nil
            } else {
                pattern += String(UnicodeScalar(byte))
                index += 1
            }
        }
        guard let namePosition, numbers.count == 2 else { return nil }
        // Year first only when it has four digits and comes first; else day, then year.
        let yearFirst = namePosition > 0 && numbers[0] == 4
        let names = (yearFirst ? ["yyyy", "d"] : ["d", numbers[1] == 4 ? "yyyy" : "yy"])
        guard yearFirst || numbers[1] == 4 || numbers[1] == 2, numbers[yearFirst ? 1 : 0] <= 2
        else { return nil }
        var parts = pattern.split(separator: "\u{0}", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let first = parts.removeFirst()
        return first + names[0] + parts[0] + names[1] + parts[1]
    }

    /// Looks at a second date (a value date) of the form `d.M.yyyy` or `M/d/yy`: a part over
    /// 12 in it says which part is the day, for both date columns.
    mutating func observeOtherDate(_ date: UnsafeRawBufferPointer) {
        var values = SIMD4<Int>()
        var count = 0
        var digits = 0
        for byte in date {
            if byte &- UInt8(ascii: "0") < 10 {
                guard digits < 4, count < 3 else { return }
                values[count] = values[count] * 10 + Int(byte &- UInt8(ascii: "0"))
                digits += 1
            } else {
                guard digits > 0 else { return }
                (count, digits) = (count + 1, 0)
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "T") { break }
            }
        }
        if digits > 0 { count += 1 }
        guard count == 3, values[0] <= 31, values[1] <= 31 else { return }
        largestFirst = max(largestFirst, values[0])
        largestSecond = max(largestSecond, values[1])
    }

    /// Keeps `date` as the last date, in the buffer the last one was in.
    private mutating func keepLastDate(_ date: UnsafeRawBufferPointer) {
        guard lastDate?.count == date.count else {
            lastDate = Array(date)
            return
        }
        // Dates of one layout are mostly of one length: overwritten where they stand.
        lastDate!.withUnsafeMutableBytes { $0.copyMemory(from: date) }
    }

    /// Looks at the bytes of a date; `sample` makes the text with its place, for the first
    /// and the last date.
    mutating func observeDate(_ date: UnsafeRawBufferPointer, _ sample: () -> Sample) {
        // A time after the date: the date is what comes before it.
        var (end, time): (Int, String?) = (date.count, nil)
        for index in 0..<date.count
        where date[index] == UInt8(ascii: " ") || date[index] == UInt8(ascii: "T") {
            if let layout = Self.timeLayout(Array(date), from: index) {
                (end, time) = (index, layout)
                break
            }
        }
        guard dateLayout == nil || time == timeLayout else { return }
        let bytes = UnsafeRawBufferPointer(rebasing: date[..<end])
        let hasLetters = bytes.contains {
            $0 >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20)
        }
        if hasLetters, let pattern = Self.namedLayout(Array(bytes)[...]) {
            if dateLayout == nil {
                (dateLayout, timeLayout, firstDate) = (.named(pattern: pattern), time, sample())
            }
            if dateLayout == .named(pattern: pattern) { keepLastDate(date) }
            return
        }
        guard let parts = DateParts(bytes), let layout = parts.layout else { return }
        switch layout {
        case .yearFirst: allPadded = allPadded && parts.runs.1 == 2 && parts.runs.2 == 2
        case .yearLast:
            allPadded = allPadded && parts.runs.0 == 2 && parts.runs.1 == 2
            firstPartHasTwoDigits = firstPartHasTwoDigits && parts.runs.0 == 2
        default: break
        }
        if dateLayout == nil {
            (dateLayout, timeLayout, firstDate) = (layout, time, sample())
        }
        guard layout == dateLayout else { return }
        keepLastDate(date)
        let (first, second, third) = parts.values
        guard case .yearLast = layout else {
            yearFirstOrder.add(parts.count == 1 ? first : first * 10_000 + second * 100 + third)
            return
        }
        largestFirst = max(largestFirst, first)
        largestSecond = max(largestSecond, second)
        dayFirstOrder.add(third * 10_000 + second * 100 + first)
        monthFirstOrder.add(third * 10_000 + first * 100 + second)
        if parts.runs.2 == 2 {
            // Two digits on both sides: the year may be the first part (`26-10-01`).
            if hasTwoDigitEnds {
                firstPartRange = (min(firstPartRange.0, first), max(firstPartRange.1, first))
                thirdPartRange = (min(thirdPartRange.0, third), max(thirdPartRange.1, third))
            } else {
                hasTwoDigitEnds = true
                (firstPartRange, thirdPartRange) = ((first, first), (third, third))
            }
            twoDigitYearFirstOrder.add(first * 10_000 + second * 100 + third)
        }
    }

    /// Looks at the bytes of an amount; `sample` makes the text with its place, for the
    /// first of each kind.
    mutating func observeAmount(_ bytes: UnsafeRawBufferPointer, _ sample: () -> Sample) {
        if let plain = PlainAmount(bytes) {
            // Most amounts: what the general walk below finds of them, found at once.
            guard let mark = plain.mark else { return }
            if plain.fractionDigits != 3 || groupsWithApostrophe || plain.isSingleZero {
                voteDecimal(mark, sample)
            } else if ambiguous == nil {
                ambiguous = sample()
            }
            return
        }
        var digitsAfterLast = 0
        // The decimal marks and group separators ('.' and ','): how many, the last, and
        // whether both kinds occur.
        var (markCount, last, bothMarks): (Int, UInt8, Bool) = (0, 0, false)
        // Whether the digits before the first mark are a single zero (`0.500`, `-0,750`):
        // no thousands are grouped after a zero, so the mark is the decimal one.
        var (integerDigits, integerIsZero) = (0, true)
        // Whether the amount is digits, marks, signs and spaces only: no currency beside it.
        var isPlain = true
        for (index, byte) in bytes.enumerated() {
            if byte &- UInt8(ascii: "0") < 10 {
                digitsAfterLast += 1
                if markCount == 0 {
                    integerDigits += 1
                    integerIsZero = integerIsZero && byte == UInt8(ascii: "0")
                }
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ","),
                index + 1 < bytes.count, bytes[index + 1] &- UInt8(ascii: "0") < 10
            {
                // A mark is one a digit follows: not the point of `kr.`.
                bothMarks = bothMarks || (markCount > 0 && byte != last)
                (markCount, last) = (markCount + 1, byte)
                digitsAfterLast = 0
            } else if byte == UInt8(ascii: "'") {
                groupsWithApostrophe = true
                digitsAfterLast = 0
            } else if let length = byte == UInt8(ascii: " ")
                ? 1 : NoBreakSpace.length(in: bytes, at: index),
                index > 0, bytes[index - 1] &- 48 < 10, index + length < bytes.count,
                bytes[index + length] &- 48 < 10
            {
                // A space, U+00A0 or U+202F between digit groups (not "€" or "£", which
                // start with the same bytes, nor a space before a currency sign).
                groupsWithSpace = true
                digitsAfterLast = 0
            } else if !Self.isAmountPunctuation(byte) {
                isPlain = false
            }
        }
        if !isPlain { observeMarker(bytes, sample) }
        guard markCount > 0 else { return }
        let decimal: UInt8
        if bothMarks {
            decimal = last
        } else if markCount > 1 {
            decimal = last == UInt8(ascii: ",") ? UInt8(ascii: ".") : UInt8(ascii: ",")
        } else if digitsAfterLast != 3 || groupsWithApostrophe
            || (integerDigits == 1 && integerIsZero)
        {
            decimal = last
        } else {
            if ambiguous == nil { ambiguous = sample() }
            return
        }
        voteDecimal(decimal, sample)
    }

    private mutating func voteDecimal(_ decimal: UInt8, _ sample: () -> Sample) {
        if decimal == UInt8(ascii: ",") {
            commaVotes += 1
            if decimalComma == nil { decimalComma = sample() }
        } else {
            pointVotes += 1
            if decimalPoint == nil { decimalPoint = sample() }
        }
    }

    /// Whether a byte is a sign, a parenthesis or a space: what an amount may hold beside its
    /// digits and marks, other than a currency.
    private static func isAmountPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: " "):
            true
        default: false
        }
    }

    /// Keeps the currency sign or code written beside an amount (`£12.50`, `-45,20 PLN`,
    /// `1 234,00 Kč`): what is left of it without digits, marks, signs and spaces, up to
    /// eight bytes, the first four kinds of them.
    private mutating func observeMarker(_ bytes: UnsafeRawBufferPointer, _ sample: () -> Sample) {
        var key: UInt64 = 0
        var length = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let space = NoBreakSpace.length(in: bytes, at: index) {
                index += space
                continue
            }
            index += 1
            if byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "'")
                || Self.isAmountPunctuation(byte)
            {
                continue
            }
            guard length < 8 else { return }
            key = key << 8 | UInt64(byte)
            length += 1
        }
        guard length > 0, amountMarkers.count < 4,
            !amountMarkers.contains(where: { $0.key == key })
        else { return }
        let text = String(
            decoding: (0..<length).reversed().map { UInt8(truncatingIfNeeded: key >> ($0 * 8)) },
            as: UTF8.self)
        amountMarkers.append((key, text, sample()))
    }
}
