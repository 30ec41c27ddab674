/// What the rows of a file show about its dialect.
struct SniffEvidence {
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
    /// Whether any value of the account column is an IBAN or shaped like one (two letters,
    /// two digits, letters and digits).
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
        func sample(at index: Int?) -> Sample? {
            guard let index, index < record.fields.count else { return nil }
            let text = record.withField(index) {
                String(decoding: $0.trimmingSpaces, as: UTF8.self)
            }
            guard !text.isEmpty else { return nil }
            let (line, column) = record.location(ofField: index)
            return Sample(text: text, line: line, column: column)
        }
        func sample(_ key: Dialect.Field) -> Sample? { sample(at: header.indices[key]) }
        /// Keeps the first 20 distinct texts of a column, upper case, with where each stood.
        func collect(_ sample: Sample?, into values: inout [String: Sample]) {
            guard let sample, values.count < 20 else { return }
            let key = sample.text.uppercased()
            if values[key] == nil { values[key] = sample }
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
        collect(sample(.indicator), into: &indicators)
        collect(sample(at: header.typeColumn?.index), into: &typeValues)
        if !accountColumnHoldsIBANs, let account = sample(.account) {
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

    func refuse(_ sample: Sample?, _ message: DiagnosticMessage) -> DialectSniffer.Refusal {
        DialectSniffer.Refusal(
            finding: Diagnostic.Finding(
                line: sample?.line ?? header.line, column: sample?.column ?? 1, message: message))
    }

    func quoted(_ sample: Sample) -> String {
        "\(Diagnostic.quote(sample.text)) (line \(sample.line))"
    }

    func decide(into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding])
        throws(DialectSniffer.Refusal)
    {
        guard let firstDate, let dateLayout else {
            throw refuse(nil, .noDateInKnownLayout)
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
        if dialect.columns[.account] != nil && !accountColumnHoldsIBANs {
            // A column named like the account that holds names (Checking, Cash), not IBANs.
            let names = dialect.columns.removeValue(forKey: .account)
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
                throw refuse(example, .unknownIndicatorPair(Array(seen)))
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
                throw refuse(first, .datesInNoOrder)
            case (true, false): pattern = dayFirst
            case (false, true): pattern = monthFirst
            case (false, false):
                pattern = dayFirst
                // Dotted dates are day-first wherever they are written.
                if separator != UInt8(ascii: ".") {
                    assumptions.append(
                        Diagnostic.Finding(
                            line: first.line, column: first.column,
                            message: .assumedDayFirst(
                                example: quoted(first), dayFirst: dayFirst, monthFirst: monthFirst)
                        ))
                }
            }
        }
        guard let format = try? DateFormat(pattern) else {
            throw refuse(first, .datesInNoLayout(example: quoted(first)))
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
                .mixedDecimalMarks(comma: quoted(comma), point: quoted(point)))
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
                assumptions.append(
                    Diagnostic.Finding(
                        line: ambiguous.line, column: ambiguous.column,
                        message: .assumedDecimalMark(
                            example: quoted(ambiguous), isComma: decimal == comma)))
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
        guard dialect.columns[.account] == nil else { return }
        let found = header.preamble.lazy.compactMap { line, fields in
            fields.indices.first { HeaderVocabulary.iban(in: fields[$0]) != nil }.map {
                Dialect.PreamblePosition(line: line, field: $0 + 1)
            }
        }.first
        guard let found else {
            var refusal = refuse(nil, .noAccountIBAN)
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
                    line: header.line, column: 1, message: .assumedCurrency(.eur)))
        }
    }
}
