/// What sniffing a file without a profile found.
package enum SniffResult: Sendable {
    /// The dialect, and what had to be assumed where the file left a choice open.
    case dialect(Dialect, assumptions: [Diagnostic.Finding])
    /// A bank export whose header was recognised, but that cannot be read without a profile.
    case unknown(Diagnostic.Finding)
    /// A bank export read completely but for its account, which neither a column nor the
    /// preamble gives: the dialect lacks only `account.iban`.
    case lacksAccount(Dialect, assumptions: [Diagnostic.Finding], Diagnostic.Finding)
    /// No line looks like the header of a statement.
    case noHeader
}

extension SniffResult {
    /// Reports what sniffing found: each assumption as `DIALECT_ASSUMED`, a refusal as
    /// `DIALECT_UNKNOWN`, and, when `refusingNoHeader`, a file without a header too.
    ///
    /// - Returns: the dialect to read the file in, if sniffing arrived at one.
    package func report(into diagnostics: inout DiagnosticCollector, refusingNoHeader: Bool = false)
        -> Dialect?
    {
        switch self {
        case .dialect(let dialect, let assumptions):
            for finding in assumptions {
                diagnostics.report(
                    .dialectAssumed, line: finding.line, column: finding.column, finding.message)
            }
            return dialect
        case .unknown(let finding), .lacksAccount(_, _, let finding):
            diagnostics.report(
                .dialectUnknown, line: finding.line, column: finding.column, finding.message)
        case .noHeader where refusingNoHeader:
            diagnostics.report(
                .dialectUnknown, line: 0, column: 0,
                "no line in the first \(DialectSniffer.headerSearchLimit) names a date column and an amount column (or debit and credit columns), with a beneficiary or a description"
            )
        case .noHeader:
            break
        }
        return nil
    }
}

extension Diagnostic {
    /// A located message that does not yet belong to a file.
    package struct Finding: Hashable, Sendable {
        package let line: Int
        package let column: Int
        package let message: String
    }
}

/// Works out how a bank export is written (SPEC 2.3): encoding, separator, header line,
/// column mapping, decimal mark, date layout, sign convention, footer and the account.
///
/// It never guesses silently: when the evidence leaves a choice open (all days 12 or less,
/// only amounts like `1.000`, no currency named) it says what it assumed, and when the
/// evidence contradicts itself it refuses.
package enum DialectSniffer {
    /// How many records are searched for the header.
    static let headerSearchLimit = 50
    static let separators: [UInt8] = Array(",;\t|".utf8)

    /// Sniffs the raw bytes of a CSV file.
    package static func sniff(_ bytes: [UInt8]) -> SniffResult {
        sniffDecoding(bytes).result
    }

    /// Sniffs the raw bytes of a CSV file; also returns them decoded in the encoding found,
    /// so that a reader does not decode them a second time.
    static func sniffDecoding(_ bytes: [UInt8]) -> (result: SniffResult, text: [UInt8]) {
        var assumptions: [Diagnostic.Finding] = []
        var dialect = Dialect()
        dialect.encoding = encoding(of: bytes, &assumptions)
        let text = dialect.encoding.utf8(from: bytes)
        return (sniff(text, &dialect, &assumptions), text)
    }

    private static func sniff(
        _ text: [UInt8], _ dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) -> SniffResult {
        guard let header = findHeader(text) else { return .noHeader }
        dialect.separator = header.separator
        dialect.headerLine = header.line
        dialect.columns = header.columns
        var evidence = Evidence(header: header)
        evidence.scan(text)
        do throws(Refusal) {
            try evidence.decide(into: &dialect, &assumptions)
        } catch {
            if error.lacksOnlyAccount {
                return .lacksAccount(dialect, assumptions: assumptions, error.finding)
            }
            return .unknown(error.finding)
        }
        return .dialect(dialect, assumptions: assumptions)
    }

    /// UTF-8 (or UTF-16) when a byte order mark or the bytes say so, else Windows-1252.
    static func encoding(of bytes: [UInt8], _ assumptions: inout [Diagnostic.Finding])
        -> TextEncoding
    {
        if let (encoding, _) = TextEncoding.byteOrderMark(of: bytes) { return encoding }
        // Text in UTF-16 without a mark has a NUL in every other byte of its ASCII.
        let sample = bytes.prefix(4096)
        let evenNULs = stride(from: 0, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
        let oddNULs = stride(from: 1, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
        if sample.count >= 8 && max(evenNULs, oddNULs) * 4 >= sample.count
            && min(evenNULs, oddNULs) * 8 < max(evenNULs, oddNULs)
        {
            let encoding: TextEncoding = oddNULs > evenNULs ? .utf16LE : .utf16BE
            assumptions.append(
                Diagnostic.Finding(
                    line: 1, column: 1,
                    message:
                        "the file has no byte order mark but looks like UTF-16; read it as \(encoding.rawValue)"
                ))
            return encoding
        }
        guard let invalid = firstInvalidUTF8(bytes) else { return .utf8 }
        // Text with valid multi-byte UTF-8 as well is UTF-8 with damage, which the parser
        // reports line by line: Windows-1252 text practically never forms such sequences.
        guard !hasMultibyteUTF8(bytes) else { return .utf8 }
        let lineStart = bytes[..<invalid].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = bytes[..<invalid].filter { $0 == UInt8(ascii: "\n") }.count + 1
        assumptions.append(
            Diagnostic.Finding(
                line: line, column: invalid - lineStart + 1,
                message: "the file is not valid UTF-8; read it as windows-1252"))
        return .windows1252
    }

    /// Whether the bytes hold at least one valid UTF-8 sequence of two or more bytes.
    static func hasMultibyteUTF8(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            index += 1
            guard lead >= 0xC2, lead <= 0xF4 else { continue }
            let width = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + width - 1 <= bytes.count else { return false }
            let tail = bytes[index..<index + width - 1]
            if tail.allSatisfy({ $0 & 0xC0 == 0x80 }) {
                var iterator = bytes[(index - 1)..<(index + width - 1)].makeIterator()
                var decoder = UTF8()
                if case .scalarValue = decoder.decode(&iterator) { return true }
            }
        }
        return false
    }

    /// Whether a file that is not valid UTF-8 is Windows-1252 text: it then holds no valid
    /// multi-byte UTF-8 sequence either.
    static func isWindows1252(_ bytes: [UInt8]) -> Bool {
        firstInvalidUTF8(bytes) != nil && !hasMultibyteUTF8(bytes)
    }

    /// The offset of the first byte that is not valid UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// A header row and what its columns map to.
    struct Header {
        let separator: UInt8
        let line: Int
        let columns: [Dialect.Field: [Dialect.ColumnReference]]
        /// The field index of each column.
        let indices: [Dialect.Field: Int]
        /// The currency named in a header such as `Betrag (EUR)`.
        let currency: Currency?
        /// The fields of each preamble line, by line.
        let preamble: [(line: Int, fields: [String])]
        /// A column named like a transaction type, beside a signed amount column; it is the
        /// indicator when its values are a debit/credit pair.
        let typeColumn: (index: Int, text: String)?
    }

    /// Finds the first line, for any separator, that names a date and an amount.
    static func findHeader(_ text: [UInt8]) -> Header? {
        var best: (header: Header, score: Int)?
        for separator in separators {
            var reader = CSVReader(source: MemoryByteSource(text), separator: separator)
            var preamble: [(line: Int, fields: [String])] = []
            for _ in 0..<headerSearchLimit {
                guard (try? reader.nextRecord()) == true else { break }
                let (line, names) = reader.withRecord { record in
                    (
                        record.line,
                        record.fields.indices.map { index in
                            record.withField(index) { String(decoding: $0, as: UTF8.self) }
                        }
                    )
                }
                if let header = HeaderVocabulary.header(
                    names, separator: separator, line: line, preamble: preamble)
                {
                    let score = header.columns.count
                    if score > (best?.score ?? 0) { best = (header, score) }
                    break
                }
                preamble.append((line, names))
            }
        }
        return best?.header
    }

    /// Why sniffing gives up on a file.
    struct Refusal: Error {
        let finding: Diagnostic.Finding
        /// Whether all that is missing is the account, the rest being decided.
        var lacksOnlyAccount = false
    }
}

/// What the rows of a file show about its dialect.
private struct Evidence {
    let header: DialectSniffer.Header

    struct Sample {
        let text: String
        let line: Int
        let column: Int
    }

    var dateLayout: DateLayout?
    var firstDate: Sample?
    var lastDate: Sample?
    var largestFirst = 0
    var largestSecond = 0
    var allPadded = true

    var decimalComma: Sample?
    var decimalPoint: Sample?
    var ambiguous: Sample?
    var commaVotes = 0
    var pointVotes = 0
    var groupsWithApostrophe = false
    var groupsWithSpace = false

    var indicators: [String: Sample] = [:]
    /// The values of a column named like a transaction type, upper case, at most 20.
    var typeValues: [String: Sample] = [:]
    /// The first value of the account column, and whether any value is an IBAN or shaped
    /// like one (two letters, two digits, letters and digits).
    var firstAccountValue: Sample?
    var accountColumnHoldsIBANs = false
    /// Records at the end of the file without a date: footer lines.
    var trailingNonData = 0

    enum DateLayout: Hashable {
        case yearFirst(separator: UInt8)
        case compact
        case yearLast(separator: UInt8, yearDigits: Int)
    }

    mutating func scan(_ text: [UInt8]) {
        var reader = CSVReader(source: MemoryByteSource(text), separator: header.separator)
        do {
            while try reader.nextRecord() {
                reader.withRecord { record in
                    if record.line > header.line { scanRecord(record) }
                }
            }
        } catch {
            // The parser reports unterminated quotes and overlong records at their place.
        }
    }

    private mutating func scanRecord(_ record: CSVRecord) {
        func sample(_ key: Dialect.Field) -> Sample? {
            guard let index = header.indices[key], index < record.fields.count else { return nil }
            let text = record.withField(index) {
                String(decoding: $0.trimmingSpaces, as: UTF8.self)
            }
            guard !text.isEmpty else { return nil }
            let (line, column) = record.location(ofField: index)
            return Sample(text: text, line: line, column: column)
        }
        // A footer line has no date where the date column is, such as "Kontostand am …";
        // a row with a missing or extra separator still starts with its date.
        guard let date = sample(.date), let first = date.text.utf8.first, first &- 48 < 10 else {
            trailingNonData += 1
            return
        }
        trailingNonData = 0
        observeDate(date)
        for key in [Dialect.Field.amount, .debit, .credit, .balance] {
            if let amount = sample(key) { observeAmount(amount) }
        }
        if let indicator = sample(.indicator), indicators.count < 20 {
            let key = indicator.text.uppercased()
            if indicators[key] == nil { indicators[key] = indicator }
        }
        if let type = header.typeColumn, type.index < record.fields.count, typeValues.count < 20 {
            let text = record.withField(type.index) {
                String(decoding: $0.trimmingSpaces, as: UTF8.self)
            }
            let (line, column) = record.location(ofField: type.index)
            if !text.isEmpty && typeValues[text.uppercased()] == nil {
                typeValues[text.uppercased()] = Sample(text: text, line: line, column: column)
            }
        }
        if !accountColumnHoldsIBANs, let account = sample(.accountIBAN) {
            if firstAccountValue == nil { firstAccountValue = account }
            accountColumnHoldsIBANs = Self.isIBANShaped(account.text)
        }
    }

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

    private mutating func observeDate(_ sample: Sample) {
        let bytes = Array(sample.text.utf8)
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
            dateLayout = layout
            firstDate = sample
        }
        guard layout == dateLayout else { return }
        lastDate = sample
        guard case .yearLast = layout else { return }
        largestFirst = max(largestFirst, values[0])
        largestSecond = max(largestSecond, values[1])
    }

    private mutating func observeAmount(_ sample: Sample) {
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
            } else if byte == UInt8(ascii: " ") || NoBreakSpace.length(in: bytes, at: index) != nil
            {
                // A space, U+00A0 or U+202F between digit groups (not "€" or "£", which
                // start with the same bytes).
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

    func refuse(_ sample: Sample?, _ message: String) -> DialectSniffer.Refusal {
        DialectSniffer.Refusal(
            finding: Diagnostic.Finding(
                line: sample?.line ?? header.line, column: sample?.column ?? 1,
                message: message + "; write a profile for it (see statements profile)"))
    }

    func quoted(_ sample: Sample) -> String {
        "\(Diagnostic.quote(sample.text)) (line \(sample.line))"
    }

    func decide(into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding])
        throws(DialectSniffer.Refusal)
    {
        guard let firstDate, let dateLayout else {
            throw refuse(nil, "no row under the header has a date in a known layout")
        }
        dialect.dateFormat = try dateFormat(dateLayout, firstDate, &assumptions)
        let format = dialect.dateFormat
        let day = { (sample: Sample) in sample.text.parsingUTF8 { try? format.day(parsing: $0) } }
        if let first = day(firstDate), let last = lastDate.flatMap(day) {
            dialect.isNewestFirst = first > last
        }
        try decideAmounts(into: &dialect, &assumptions)
        dialect.footerLines = trailingNonData
        var indicators = self.indicators
        if let type = header.typeColumn, !typeValues.isEmpty,
            Self.indicatorPairs.contains(where: {
                Set(typeValues.keys).isSubset(of: Set($0.0 + $0.1))
            })
        {
            // A type column whose values say debit or credit: the amounts' sign.
            dialect.columns[.indicator] = [.name(type.text)]
            indicators = typeValues
        }
        if dialect.columns[.accountIBAN] != nil && !accountColumnHoldsIBANs {
            // A column named like the account that holds names (Checking, Cash), not IBANs.
            let names = dialect.columns.removeValue(forKey: .accountIBAN)
            if dialect.columns[.accountName] == nil { dialect.columns[.accountName] = names }
        }
        if dialect.columns[.indicator] != nil {
            dialect.sign = .indicator
            let seen = Set(indicators.keys)
            guard
                let (debit, credit) = Self.indicatorPairs.first(where: {
                    seen.isSubset(of: Set($0.0 + $0.1))
                })
            else {
                let example = indicators.values.min { $0.line < $1.line }
                throw refuse(
                    example,
                    "the indicator column holds \(seen.sorted().map { Diagnostic.quote($0) }.joined(separator: ", ")), not a known debit/credit pair"
                )
            }
            (dialect.debitIndicators, dialect.creditIndicators) = (debit, credit)
        } else if dialect.columns[.amount] == nil {
            dialect.sign = .debitCredit
        }
        try decideAccount(into: &dialect, &assumptions)
    }

    /// The debit and credit texts that banks write in an indicator or type column.
    static let indicatorPairs: [([String], [String])] = [
        (["D"], ["C"]), (["S"], ["H"]), (["AF"], ["BIJ"]), (["DR"], ["CR"]),
        (["DEBIT"], ["CREDIT"]), (["DBIT"], ["CRDT"]), (["-"], ["+"]), (["SOLL"], ["HABEN"]),
        (["DEBET"], ["CREDIT"]), (["WITHDRAWAL"], ["DEPOSIT"]),
    ]

    private func dateFormat(
        _ layout: DateLayout, _ first: Sample, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) -> DateFormat {
        let (d, m) = allPadded ? ("dd", "MM") : ("d", "M")
        let pattern: String
        switch layout {
        case .compact: pattern = "yyyyMMdd"
        case .yearFirst(let separator):
            let s = String(UnicodeScalar(separator))
            pattern = "yyyy\(s)\(m)\(s)\(d)"
        case .yearLast(let separator, let yearDigits):
            let s = String(UnicodeScalar(separator))
            let year = yearDigits == 4 ? "yyyy" : "yy"
            let dayFirst = "\(d)\(s)\(m)\(s)\(year)"
            let monthFirst = "\(m)\(s)\(d)\(s)\(year)"
            switch (largestFirst > 12, largestSecond > 12) {
            case (true, true):
                throw refuse(first, "the dates are neither day-first nor month-first")
            case (true, false): pattern = dayFirst
            case (false, true): pattern = monthFirst
            case (false, false):
                pattern = dayFirst
                // Dotted dates are day-first wherever they are written.
                if separator != UInt8(ascii: ".") {
                    assumptions.append(
                        Diagnostic.Finding(
                            line: first.line, column: first.column,
                            message:
                                "every date has a day and a month of 12 or less, such as \(quoted(first)); assumed \(dayFirst), not \(monthFirst)"
                        ))
                }
            }
        }
        guard let format = try? DateFormat(pattern) else {
            throw refuse(first, "dates such as \(quoted(first)) have no known layout")
        }
        return format
    }

    private func decideAmounts(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    )
        throws(DialectSniffer.Refusal)
    {
        if let comma = decimalComma, let point = decimalPoint {
            throw refuse(
                commaVotes < pointVotes ? comma : point,
                "amounts have decimal commas, such as \(quoted(comma)), and decimal points, such as \(quoted(point))"
            )
        }
        let comma = UInt8(ascii: ",")
        let point = UInt8(ascii: ".")
        var decimal: UInt8
        if decimalComma != nil {
            decimal = comma
        } else if decimalPoint != nil || groupsWithApostrophe {
            decimal = point
        } else {
            decimal = dialect.separator == UInt8(ascii: ";") ? comma : point
            if let ambiguous {
                let mark = decimal == comma ? "\",\"" : "\".\""
                let thousands = decimal == comma ? "\".\"" : "\",\""
                assumptions.append(
                    Diagnostic.Finding(
                        line: ambiguous.line, column: ambiguous.column,
                        message:
                            "no amount shows the decimal mark, and \(quoted(ambiguous)) reads either way; assumed \(mark) is the decimal mark and \(thousands) separates thousands"
                    ))
            }
        }
        let thousands: UInt8 =
            groupsWithApostrophe
            ? UInt8(ascii: "'")
            : groupsWithSpace ? UInt8(ascii: " ") : decimal == comma ? point : comma
        dialect.amountFormat = AmountFormat(decimalMark: decimal, thousandsSeparator: thousands)
    }

    private func decideAccount(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) {
        decideCurrency(into: &dialect, &assumptions)
        guard dialect.columns[.accountIBAN] == nil else { return }
        let found = header.preamble.lazy.compactMap { line, fields in
            fields.indices.first { HeaderVocabulary.iban(in: fields[$0]) != nil }.map {
                Dialect.PreamblePosition(line: line, field: $0 + 1)
            }
        }.first
        guard let found else {
            var refusal = refuse(
                nil,
                "no account IBAN: no column holds it and no line above the header names it; the profile lacks only \"account\": {\"iban\": …}"
            )
            refusal.lacksOnlyAccount = true
            throw refusal
        }
        dialect.preamble[.iban] = found
    }

    private func decideCurrency(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) {
        guard dialect.columns[.currency] == nil else { return }
        if let currency = header.currency {
            dialect.accountCurrency = currency
        } else if let found = header.preamble.lazy.compactMap({ line, fields in
            fields.indices.first {
                Currency(code: fields[$0].trimmingCharacters(in: .whitespaces)) != nil
            }
            .map { Dialect.PreamblePosition(line: line, field: $0 + 1) }
        }).first {
            dialect.preamble[.currency] = found
        } else {
            dialect.accountCurrency = .eur
            assumptions.append(
                Diagnostic.Finding(
                    line: header.line, column: 1,
                    message:
                        "no currency column, and neither the header nor the preamble names a currency; assumed EUR"
                ))
        }
    }
}
