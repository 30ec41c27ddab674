/// What one sample shows: IBAN and date shapes, date and time layouts, amounts.
extension SniffEvidence {
    /// Whether a text is an IBAN, valid or not: two letters, two digits, then at least ten
    /// letters and digits (spaces allowed).
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
        guard let first = text.utf8.first else { return false }
        return first &- 48 < 10
            || text.parsingUTF8 { MonthNames.month(at: 0, in: $0).0 } != nil
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
                let (month, length) = word.withUnsafeBytes { MonthNames.month(at: 0, in: $0) }
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

    mutating func observeDate(_ sample: Sample) {
        var bytes = Array(sample.text.utf8)
        // A time after the date: the date is what comes before it.
        let time = bytes.indices.lazy.compactMap { index in
            (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "T"))
                ? Self.timeLayout(bytes, from: index).map { (index, $0) } : nil
        }.first
        if let time {
            bytes.removeSubrange(time.0...)
        }
        guard dateLayout == nil || time?.1 == timeLayout else { return }
        if let pattern = Self.namedLayout(bytes[...]) {
            if dateLayout == nil {
                (dateLayout, timeLayout, firstDate) = (.named(pattern: pattern), time?.1, sample)
            }
            if dateLayout == .named(pattern: pattern) { lastDate = sample }
            return
        }
        var runs: [Int] = []
        var values: [Int] = []
        var separators: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let start = index
            var value = 0
            while index < bytes.count, case let digit = bytes[index] &- 48, digit < 10 {
                // Runs longer than eight digits fit no layout; stop the value growing.
                if index - start < 9 { value = value * 10 + Int(digit) }
                index += 1
            }
            guard index > start else { return }
            runs.append(index - start)
            values.append(value)
            if index < bytes.count {
                separators.append(bytes[index])
                index += 1
            }
        }
        let layout: DateLayout
        if runs == [8] {
            layout = .compact
        } else if runs.count == 3, separators.count == 2, separators[0] == separators[1] {
            if runs[0] == 4 {
                layout = .yearFirst(separator: separators[0])
                allPadded = allPadded && runs[1] == 2 && runs[2] == 2
            } else if runs[2] == 4 || runs[2] == 2, runs[0] <= 2, runs[1] <= 2 {
                layout = .yearLast(separator: separators[0], yearDigits: runs[2])
                allPadded = allPadded && runs[0] == 2 && runs[1] == 2
            } else {
                return
            }
        } else {
            return
        }
        if dateLayout == nil {
            (dateLayout, timeLayout, firstDate) = (layout, time?.1, sample)
        }
        guard layout == dateLayout else { return }
        lastDate = sample
        guard case .yearLast = layout else { return }
        largestFirst = max(largestFirst, values[0])
        largestSecond = max(largestSecond, values[1])
    }

    mutating func observeAmount(_ sample: Sample) {
        var digitsAfterLast = 0
        var marks: [UInt8] = []
        let bytes = Array(sample.text.utf8)
        for (index, byte) in bytes.enumerated() {
            if byte &- UInt8(ascii: "0") < 10 {
                digitsAfterLast += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                marks.append(byte)
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
            }
        }
        guard let last = marks.last else { return }
        let decimal: UInt8
        if Set(marks).count == 2 {
            decimal = last
        } else if marks.count > 1 {
            decimal = last == UInt8(ascii: ",") ? UInt8(ascii: ".") : UInt8(ascii: ",")
        } else if digitsAfterLast != 3 || groupsWithApostrophe {
            decimal = last
        } else {
            if ambiguous == nil { ambiguous = sample }
            return
        }
        if decimal == UInt8(ascii: ",") {
            commaVotes += 1
            if decimalComma == nil { decimalComma = sample }
        } else {
            pointVotes += 1
            if decimalPoint == nil { decimalPoint = sample }
        }
    }
}
