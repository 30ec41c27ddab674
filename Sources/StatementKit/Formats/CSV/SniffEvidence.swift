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
            let text = record.trimmedText(index)
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
}
