/// What the rows of a file show about its dialect.
struct SniffEvidence {
    let header: DialectSniffer.Header

    struct Sample {
        let text: String
        let line: Int
        let column: Int
    }

    var dateLayout: DateLayout?
    /// The layout of a time after the date, such as `'T'HH:mm:ssX`, as the first date has it.
    var timeLayout: String?
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
    /// How many rows have an amount, and how many of those are negative.
    var amountCount = 0
    var negativeAmounts = 0
    /// The values of a currency column, upper case, at most 20.
    var currencies: [String: Sample] = [:]
    /// The values of a status column, upper case, at most 20.
    var statuses: [String: Sample] = [:]
    /// The values of an account column, upper case, at most 20.
    var accountTexts: [String: Sample] = [:]
    /// The values of a column named like a transaction type, upper case, at most 20.
    var typeValues: [String: Sample] = [:]
    /// The values of an account-name column and of a card column, upper case, at most 20.
    var accountNames: [String: Sample] = [:]
    /// How many dated rows fill the beneficiary column.
    var beneficiaryFilled = 0
    var cardTexts: [String: Sample] = [:]
    /// Whether any value of the account column is an IBAN or shaped like one (two letters,
    /// two digits, letters and digits).
    var accountColumnHoldsIBANs = false
    /// The texts of each dated row's amount, debit, credit and balance, for the balance
    /// equation (`BalanceChain`), for the first rows.
    var moneyTexts: [(line: Int, texts: [Dialect.Field: String])] = []
    /// Records at the end of the file without a date: footer lines, and their fields.
    var trailingNonData = 0
    var trailingRecords: [[String]] = []

    enum DateLayout: Hashable {
        case yearFirst(separator: UInt8)
        case compact
        case yearLast(separator: UInt8, yearDigits: Int)
        /// A date with a month's name, such as `d MMM yyyy` or `MMM d, yyyy`.
        case named(pattern: String)
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
        let status = sample(.status)
        collect(status, into: &statuses)
        if let status, Self.notBookedStatuses.contains(status.text.uppercased()) {
            // A row not booked yet, which may lack a booking date: left out, not a footer.
            trailingNonData = 0
            return
        }
        guard let date = sample(.date), Self.startsLikeDate(date.text) else {
            trailingNonData += 1
            if trailingRecords.count < 20 {
                trailingRecords.append(
                    record.fields.indices.map { field in
                        record.withField(field) { String(decoding: $0, as: UTF8.self) }
                    })
            }
            return
        }
        trailingNonData = 0
        trailingRecords = []
        observeDate(date)
        var texts: [Dialect.Field: String] = [:]
        for key in [Dialect.Field.amount, .debit, .credit, .balance] {
            if let amount = sample(key) {
                texts[key] = amount.text
                observeAmount(amount)
                if key == .amount { amountCount += 1 }
                if key == .amount, amount.text.hasPrefix("-") || amount.text.hasPrefix("(") {
                    negativeAmounts += 1
                }
            }
        }
        if moneyTexts.count < BalanceChain.limit { moneyTexts.append((date.line, texts)) }
        collect(sample(.currency), into: &currencies)
        collect(sample(.indicator), into: &indicators)
        collect(sample(at: header.typeColumn?.index), into: &typeValues)
        collect(sample(.accountName), into: &accountNames)
        if sample(.beneficiary) != nil { beneficiaryFilled += 1 }
        collect(sample(at: header.cardColumn?.index), into: &cardTexts)
        if !accountColumnHoldsIBANs, let account = sample(.account) {
            accountColumnHoldsIBANs = Self.isIBANShaped(account.text)
            collect(account, into: &accountTexts)
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

    private mutating func observeDate(_ sample: Sample) {
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
        decideAmountColumns(into: &dialect)
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
        if let column = dialect.columns[.account], !accountColumnHoldsIBANs {
            // A column named like the account that holds names (Checking, Cash), not IBANs:
            // one account's name, or several accounts that only a profile can tell apart.
            if accountTexts.count > 1, case .name(let name) = column[0] {
                let example = accountTexts.values.min { $0.line < $1.line }
                throw refuse(
                    example, .severalAccountsNamed(column: name, accountTexts.values.map(\.text)))
            }
            let names = dialect.columns.removeValue(forKey: .account)
            if dialect.columns[.accountName] == nil { dialect.columns[.accountName] = names }
        }
        try refuseSeveralAccounts(in: dialect)
        if beneficiaryFilled == 0, dialect.columns[.description] != nil {
            // A payee column that no row fills (`Modtager`) leaves the text to the description.
            dialect.columns[.beneficiary] = nil
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
            // As the file writes them: the reader compares ignoring the case of ASCII letters
            // only (`Débito`).
            func written(_ words: [String]) -> [String] {
                let seen = indicators.filter { words.contains($0.key) }.values.map(\.text)
                return seen.isEmpty ? words : Array(Set(seen)).sorted()
            }
            let accented = (debit + credit).contains { $0.unicodeScalars.contains { !$0.isASCII } }
            (dialect.debitIndicators, dialect.creditIndicators) =
                accented ? (written(debit), written(credit)) : (debit, credit)
        } else if dialect.columns[.amount] == nil {
            dialect.sign = .debitCredit
        }
        try decideStatus(into: &dialect)
        dropWeakCurrency(from: &dialect)
        try decideAccount(into: &dialect, &assumptions)
        let isCard =
            header.mentionsCard || dialect.accountKind == .creditCard
            || dialect.accountID?.scheme == .card
        if !decideByBalance(into: &dialect, isCard: isCard, &assumptions) {
            decideCardSign(into: &dialect, isCard: isCard, &assumptions)
        }
        if dialect.columns[.account] == nil { decideBalances(into: &dialect) }
    }

    /// Finds the opening and closing balances that preamble and footer lines label
    /// (`Beginning balance …`, `Neuer Kontostand`): the first field holding a digit after
    /// the label.
    private func decideBalances(into dialect: inout Dialect) {
        func position(_ fields: [String], line: Int) -> (
            Dialect.PreambleItem, Dialect.PreamblePosition
        )? {
            guard
                let labelIndex = fields.firstIndex(where: {
                    !$0.trimmingCharacters(in: .whitespaces).isEmpty
                }),
                let item = HeaderVocabulary.balanceLabel(fields[labelIndex]),
                let valueIndex = fields.indices.first(where: {
                    $0 > labelIndex && fields[$0].contains(where: \.isNumber)
                })
            else { return nil }
            return (item, Dialect.PreamblePosition(line: line, field: valueIndex + 1))
        }
        for (line, fields) in header.preamble {
            if let (item, found) = position(fields, line: line), dialect.preamble[item] == nil {
                dialect.preamble[item] = found
            }
        }
        guard trailingRecords.count == trailingNonData else { return }
        for (index, fields) in trailingRecords.enumerated() {
            if let (item, found) = position(fields, line: trailingRecords.count - index),
                dialect.preamble[item] == nil, dialect.footer[item] == nil
            {
                dialect.footer[item] = found
            }
        }
    }

    /// Header names that may mean a field or something else (`Info`, `Valuta`: a currency in
    /// Swedish and Italian, a value date in German): the column is the field only when its
    /// values fit.
    static let weakNames: Set<String> = ["info", "valuta"]

    private func isWeak(_ field: Dialect.Field, in dialect: Dialect) -> Bool {
        guard case .name(let name)? = dialect.columns[field]?.first else { return false }
        return Self.weakNames.contains(HeaderVocabulary.normalized(name).name)
    }

    /// Keeps an amount column that rows fill, else the debit and credit columns beside it.
    private func decideAmountColumns(into dialect: inout Dialect) {
        guard dialect.columns[.amount] != nil, dialect.columns[.debit] != nil else { return }
        if amountCount > 0 {
            (dialect.columns[.debit], dialect.columns[.credit]) = (nil, nil)
        } else {
            dialect.columns[.amount] = nil
        }
    }

    /// Drops a column weakly named like the currency whose values are not all currencies.
    private func dropWeakCurrency(from dialect: inout Dialect) {
        if isWeak(.currency, in: dialect),
            currencies.keys.contains(where: { Currency(code: $0) == nil })
        {
            dialect.columns[.currency] = nil
        }
    }

    /// Reads a card account's amounts as charges positive when most of them are positive:
    /// card issuers write charges either way, and charges outnumber payments.
    private func decideCardSign(
        into dialect: inout Dialect, isCard: Bool, _ assumptions: inout [Diagnostic.Finding]
    ) {
        guard isCard, dialect.sign == .signed, amountCount > 0,
            negativeAmounts * 2 < amountCount
        else { return }
        dialect.sign = .chargesPositive
        assumptions.append(
            Diagnostic.Finding(
                line: header.line, column: 1,
                message: .assumedChargesPositive(
                    positive: amountCount - negativeAmounts, of: amountCount)))
    }

    /// The status texts of booked rows and of rows not booked yet, upper case.
    static let bookedStatuses: Set<String> = [
        "BOOKED", "COMPLETED", "COMPLETE", "POSTED", "CLEARED", "SETTLED", "GEBUCHT",
        "UMSATZ GEBUCHT", "CONTABILIZZATO", "EXECUTED", "DONE", "UDFØRT", "COMPTABILISÉ",
        "SENT", "RECEIVED", "PAID", "CONFIRMED",
    ]
    static let notBookedStatuses: Set<String> = [
        "PENDING", "VORGEMERKT", "UMSATZ VORGEMERKT", "AUTHORISED", "AUTHORIZED",
        "NON CONTABILIZZATO", "EN ATTENTE", "EN COURS", "PENDIENTE", "IN AFWACHTING", "VENTER",
        "REVERTED", "DECLINED", "FAILED", "CANCELLED", "CANCELED", "OFFEN",
    ]

    /// Leaves out the rows that a status column marks as not booked yet; refuses a status
    /// that is neither known as booked nor as not booked.
    private func decideStatus(into dialect: inout Dialect) throws(DialectSniffer.Refusal) {
        guard dialect.columns[.status] != nil else { return }
        if let unknown = statuses.filter({
            !Self.bookedStatuses.contains($0.key) && !Self.notBookedStatuses.contains($0.key)
        }).values.min(by: { $0.line < $1.line }) {
            guard isWeak(.status, in: dialect) else {
                throw refuse(unknown, .unknownStatus(quoted(unknown)))
            }
            dialect.columns[.status] = nil
            return
        }
        let seen = statuses.filter { Self.notBookedStatuses.contains($0.key) }
        guard !seen.isEmpty else {
            dialect.columns[.status] = nil
            return
        }
        dialect.notBooked = seen.values.sorted { $0.line < $1.line }.map(\.text)
    }

    /// The debit and credit texts that banks write in an indicator or type column.
    static let indicatorPairs: [([String], [String])] = [
        (["D"], ["C"]), (["S"], ["H"]), (["AF"], ["BIJ"]), (["DR"], ["CR"]),
        (["DEBIT"], ["CREDIT"]), (["DBIT"], ["CRDT"]), (["-"], ["+"]), (["SOLL"], ["HABEN"]),
        (["DEBET"], ["CREDIT"]), (["WITHDRAWAL"], ["DEPOSIT"]), (["DÉBITO"], ["CRÉDITO"]),
        (["DEBITO"], ["CREDITO"]), (["DÉBIT"], ["CRÉDIT"]),
    ]

    private func dateFormat(
        _ layout: DateLayout, _ first: Sample, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) -> DateFormat {
        let (d, m) = allPadded ? ("dd", "MM") : ("d", "M")
        var pattern: String
        switch layout {
        case .named(let named): pattern = named
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
        pattern += timeLayout ?? ""
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
        try decideCurrency(into: &dialect, &assumptions)
        let found = header.preamble.lazy.compactMap { line, fields in
            fields.indices.first { HeaderVocabulary.iban(in: fields[$0]) != nil }.map {
                Dialect.PreamblePosition(line: line, field: $0 + 1)
            }
        }.first
        if dialect.columns[.account] == nil, let found { dialect.preamble[.iban] = found }
        if let given = dialect.accountID, dialect.columns[.account] != nil || found != nil {
            // The file names its own account: the given one is not used, and says so.
            dialect.accountID = nil
            assumptions.append(
                Diagnostic.Finding(
                    line: found?.line ?? header.line, column: found?.field ?? 1,
                    message: .fileNamesAccount(unused: given)))
        }
        guard dialect.namesAccount else {
            var refusal = refuse(nil, .noAccountIBAN)
            refusal.lacksOnlyAccount = true
            throw refusal
        }
    }

    private func decideCurrency(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) {
        guard dialect.columns[.currency] == nil else { return }
        if let currency = header.currency {
            if let given = dialect.accountCurrency, given != currency {
                throw refuse(nil, .givenCurrencyDiffers(given: given, header: currency))
            }
            dialect.accountCurrency = currency
        } else if dialect.accountCurrency != nil {
            return
        } else if let currency = dialect.accountID?.scheme?.currency {
            dialect.accountCurrency = currency
        } else if let found = header.preamble.lazy.compactMap({ line, fields in
            fields.indices.first {
                Currency(code: fields[$0].trimmingCharacters(in: .whitespaces)) != nil
            }
            .map { Dialect.PreamblePosition(line: line, field: $0 + 1) }
        }).first {
            dialect.preamble[.currency] = found
        } else {
            // An IBAN's country says its national currency; month-first dates are American,
            // and their exports are in dollars.
            let currency =
                accountCountryCurrency(dialect)
                ?? (dialect.dateFormat.pattern.hasPrefix("M") ? Currency(code: "USD")! : .eur)
            dialect.accountCurrency = currency
            assumptions.append(
                Diagnostic.Finding(
                    line: header.line, column: 1, message: .assumedCurrency(currency)))
        }
    }
}
