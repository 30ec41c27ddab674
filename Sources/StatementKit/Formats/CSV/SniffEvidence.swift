/// What the rows of a file show about its dialect.
struct SniffEvidence {
    private(set) var header: DialectSniffer.Header

    /// A cell's text where it stands: what a message about the evidence quotes.
    typealias Sample = PlacedText

    var dateLayout: DateLayout?
    /// The layout of a time after the date, such as `'T'HH:mm:ssX`, as the first date has it.
    var timeLayout: String?
    var firstDate: Sample?
    /// The bytes of the last date in the first date's layout.
    var lastDate: [UInt8]?
    var largestFirst = 0
    /// Whether a date's last part has two digits, and how far the first and third parts of
    /// such dates range: the year stays where the day changes.
    var hasTwoDigitEnds = false
    var firstPartRange = (0, 0)
    var thirdPartRange = (0, 0)
    /// The order of those dates read with the year first (`26-10-01`).
    var twoDigitYearFirstOrder = DateOrder()
    var largestSecond = 0
    /// Whether the dates (day and month both 12 or less, of a layout with the year last) are in
    /// order read day first, and read month first.
    var dayFirstOrder = DateOrder()
    var monthFirstOrder = DateOrder()
    /// The order of dates with the year first, or of eight digits.
    var yearFirstOrder = DateOrder()
    var allPadded = true
    /// Whether the first part of every date with the year last has two digits, as a year.
    var firstPartHasTwoDigits = true

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
    /// The signs of the amounts of rows whose type column calls them a sale or purchase,
    /// and a payment: what a card export's sign convention is, whatever their count.
    /// The first row whose type column says debit beside a positive amount, or credit
    /// beside a negative one.
    var typeDisagreement: Sample?
    var charges = SignCount()
    var payments = SignCount()
    /// How many rows' type column says debit beside a negative amount or credit beside a
    /// positive one.
    var typeAgreements = 0
    /// The signs of the debit column's amounts and the credit column's, and the first
    /// negative one: a column of both signs holds reversals that no reading tells.
    var splitSigns = [SignCount(), SignCount()]
    var negativeSplitAmount: Sample?

    /// How many amounts are negative and how many positive.
    struct SignCount {
        var negative = 0
        var positive = 0

        var count: Int { negative + positive }

        mutating func add(isNegative: Bool) {
            if isNegative { negative += 1 } else { positive += 1 }
        }
    }
    /// The currency signs and codes written beside amounts (`£`, `PLN`), as packed bytes,
    /// text and the first amount with each; at most four.
    var amountMarkers: [(key: UInt64, text: String, sample: Sample)] = []
    /// The not-booked words (`offen`) written where a row's date stands, upper case.
    var pendingDates: [String: Sample] = [:]
    /// The values of an account-number column, upper case, at most 20.
    var accountNumbers: [String: Sample] = [:]
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
    /// The first cell of the account column, and whether another row's differs from it: a
    /// file of several accounts.
    var firstAccountCell: [UInt8]?
    var accountColumnVaries = false
    /// The last row, when it is dated and its text is a balance's label (`31.10.2026;Neuer
    /// Kontostand;1.700,00`): its label, what it labels and the field its amount is in.
    var balanceRow: (sample: Sample, item: RowLabel, field: Int)?
    /// The first such row with rows after it.
    var misplacedBalanceRow: Sample?
    /// The first fee that is not zero in a fee column (`Header.feeColumn`).
    var fee: Sample?
    /// The first cell of the account column that differs from the first.
    var otherAccount: Sample?
    /// The texts of each dated row's amount, debit, credit and balance, for the balance
    /// equation (`BalanceChain`), for the first rows.
    var moneyTexts: [(line: Int, texts: [Dialect.Field: String])] = []
    /// Records at the end of the file without a date: footer lines, and their fields.
    var trailingNonData = 0
    var trailingRecords: [[String]] = []

    /// Whether a sequence of dates only rises, only falls, or does both.
    struct DateOrder {
        private var previous: Int?
        private var rises = 0
        /// How many steps from row to row go back in time.
        private(set) var falls = 0

        /// Adds a date, as a number that orders dates (year, month, day).
        mutating func add(_ key: Int) {
            if let previous {
                if key > previous { rises += 1 }
                if key < previous { falls += 1 }
            }
            previous = key
        }

        /// Whether the dates so far are in an order: they never both rise and fall.
        var isSorted: Bool { rises == 0 || falls == 0 }

        /// Whether more steps from row to row go back in time than forward: a file listed
        /// newest first, a late booking or two out of order; `nil` when as many do.
        var fallsMostly: Bool? { rises == falls ? nil : falls > rises }
    }

    enum DateLayout: Hashable {
        case yearFirst(separator: UInt8)
        case compact
        case yearLast(separator: UInt8, yearDigits: Int)
        /// A date with a month's name, such as `d MMM yyyy` or `MMM d, yyyy`.
        case named(pattern: String)
    }

    /// The field index of each column the scan looks at, looked up once for the whole file.
    private struct Columns {
        let date, amount, debit, credit, balance: Int?
        let currency, indicator, type, accountName, beneficiary, card, account, status: Int?
        let description: Int?
        let fee: Int?
        let accountNumber: Int?
        let otherDate: Int?

        init(_ header: DialectSniffer.Header) {
            accountNumber = header.accountNumberColumn?.index
            otherDate = header.otherDateColumn
            let indices = header.indices
            (date, amount, debit, credit, balance) = (
                indices[.date], indices[.amount], indices[.debit], indices[.credit],
                indices[.balance]
            )
            (currency, indicator, type, accountName) = (
                indices[.currency], indices[.indicator], header.typeColumn?.index,
                indices[.accountName]
            )
            description = indices[.description]
            fee = header.feeColumn?.index
            (beneficiary, card, account, status) = (
                indices[.beneficiary], header.cardColumn?.index, indices[.account], indices[.status]
            )
        }

        /// The money columns, in the order the balance equation reads them.
        var money: [(field: Dialect.Field, index: Int?)] {
            [(.amount, amount), (.debit, debit), (.credit, credit), (.balance, balance)]
        }
    }

    /// Leaves the account column out, with what the scan saw in it: as if the file had
    /// no such column.
    mutating func dropAccountColumn() {
        header.indices[.account] = nil
        header.columns[.account] = nil
        accountTexts = [:]
        accountColumnHoldsIBANs = false
        firstAccountCell = nil
        accountColumnVaries = false
        otherAccount = nil
    }

    /// The distinct cells of each collected column seen so far (up to 32 a column), so that a
    /// value repeated on every row is passed over without making its text.
    private struct SeenCells {
        enum Column: Int, CaseIterable {
            case status, currency, indicator, type, accountName, card, account, accountNumber
        }
        private var cells: [[[UInt8]]] = Array(repeating: [], count: Column.allCases.count)

        /// Whether `bytes` is new in `column` (always, once 32 are remembered).
        mutating func isNew(_ bytes: UnsafeRawBufferPointer, in column: Column) -> Bool {
            if cells[column.rawValue].contains(where: bytes.hasSameBytes) { return false }
            if cells[column.rawValue].count < 32 { cells[column.rawValue].append(Array(bytes)) }
            return true
        }
    }

    mutating func scan(_ text: [UInt8]) {
        let columns = Columns(header)
        let money = columns.money
        var seen = SeenCells()
        var reader = CSVReader(source: MemoryByteSource(text), separator: header.separator)
        do {
            while try reader.nextRecord() {
                reader.withRecord { record in
                    if record.line > header.line { scanRecord(record, columns, money, &seen) }
                }
            }
        } catch {
            // The parser reports unterminated quotes and overlong records at their place.
        }
    }

    /// Looks at one record. Every row of a file passes here, so it reads bytes and makes a
    /// `Sample` (text, line and column) only for what it keeps.
    private mutating func scanRecord(
        _ record: CSVRecord, _ columns: Columns, _ money: [(field: Dialect.Field, index: Int?)],
        _ seen: inout SeenCells
    ) {
        /// Keeps the first 20 distinct texts of a column, upper case, with where each stood.
        func collect(
            _ index: Int?, _ column: SeenCells.Column, into values: inout [String: Sample]
        ) {
            guard values.count < 20, let index, let bytes = record.cell(index),
                seen.isNew(bytes, in: column)
            else { return }
            let key = String(decoding: bytes, as: UTF8.self).uppercased()
            if values[key] == nil { values[key] = record.sample(index, bytes) }
        }
        // A footer line has no date where the date column is, such as "Kontostand am …";
        // a row with a missing or extra separator still starts with its date.
        if let status = record.cell(columns.status) {
            collect(columns.status, .status, into: &statuses)
            let text = String(decoding: status, as: UTF8.self).uppercased()
            if Self.notBookedStatuses.contains(text) {
                // A row not booked yet, which may lack a booking date: left out, not a footer.
                trailingNonData = 0
                return
            }
        }
        guard let dateIndex = columns.date, let date = record.cell(dateIndex),
            Self.startsLikeDate(date)
        else {
            scanUndated(record, columns, money)
            return
        }
        trailingNonData = 0
        trailingRecords = []
        // A dated row labelled as a balance (`31.10.2026;Neuer Kontostand;1.700,00`); one
        // with its amount blank and a balance is read as a balance by the parser.
        var labelled: (sample: Sample, item: RowLabel, field: Int)?
        for index in [columns.beneficiary, columns.description] where labelled == nil {
            guard let index, let text = record.cell(index), let item = Self.rowLabel(text),
                let field = [columns.amount, columns.debit, columns.credit].first(where: {
                    $0.flatMap { record.cell($0) } != nil
                }) ?? nil
            else { continue }
            labelled = (record.sample(index, text), item, field)
        }
        if observeBalanceRow(labelled) { return }
        observeDate(date) { record.sample(dateIndex, date) }
        if let other = record.cell(columns.otherDate) { observeOtherDate(other) }
        observeMoney(record, columns, money, dateIndex: dateIndex)
        collect(columns.currency, .currency, into: &currencies)
        collect(columns.indicator, .indicator, into: &indicators)
        collect(columns.type, .type, into: &typeValues)
        collect(columns.accountName, .accountName, into: &accountNames)
        if record.cell(columns.beneficiary) != nil { beneficiaryFilled += 1 }
        collect(columns.card, .card, into: &cardTexts)
        collect(columns.accountNumber, .accountNumber, into: &accountNumbers)
        if let account = record.cell(columns.account) {
            observeAccount(account) { record.sample(columns.account!, account) }
            if !accountColumnHoldsIBANs {
                accountColumnHoldsIBANs = Self.isIBANShaped(
                    String(decoding: account, as: UTF8.self))
                collect(columns.account, .account, into: &accountTexts)
            }
        }
    }

    /// Looks at a dated row's amounts, fee and balance: their layouts and signs, and their
    /// texts for the balance chain (the first `BalanceChain.limit` rows).
    @inline(__always)
    private mutating func observeMoney(
        _ record: CSVRecord, _ columns: Columns, _ money: [(field: Dialect.Field, index: Int?)],
        dateIndex: Int
    ) {
        let keepsTexts = moneyTexts.count < BalanceChain.limit
        var texts: [Dialect.Field: String] = [:]
        for (key, index) in money {
            guard let index, let amount = record.cell(index) else { continue }
            if keepsTexts { texts[key] = String(decoding: amount, as: UTF8.self) }
            observeAmount(amount) { record.sample(index, amount) }
            let isNegative = amount[0] == UInt8(ascii: "-") || amount[0] == UInt8(ascii: "(")
            if key == .debit || key == .credit {
                splitSigns[key == .debit ? 0 : 1].add(isNegative: isNegative)
                if isNegative, negativeSplitAmount == nil {
                    negativeSplitAmount = record.sample(index, amount)
                }
            }
            if key == .amount {
                amountCount += 1
                if isNegative { negativeAmounts += 1 }
                if let type = record.cell(columns.type), type.count <= 12 {
                    observeType(type, isNegative: isNegative) { record.sample(columns.type!, type) }
                }
            }
        }
        if let index = columns.fee, let cell = record.cell(index) {
            if keepsTexts { texts[.fee] = String(decoding: cell, as: UTF8.self) }
            if fee == nil, cell.contains(where: { $0 &- UInt8(ascii: "1") < 9 }) {
                fee = record.sample(index, cell)
            }
        }
        if keepsTexts { moneyTexts.append((record.location(ofField: dateIndex).line, texts)) }
    }

    /// Looks at a record without a date: a row without its date, or a footer line.
    private mutating func scanUndated(
        _ record: CSVRecord, _ columns: Columns, _ money: [(field: Dialect.Field, index: Int?)]
    ) {
        // A record with a blank date (or a status such as "Pending" in its place) and an
        // amount where the rows have theirs is a row without its date (which the parser
        // reports), not a footer line to leave out; a labelled line ("Kontostand",
        // "Total") is a footer.
        let dateText = columns.date.flatMap { record.cell($0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
        let isLabelled = [columns.beneficiary, columns.description].contains { index in
            index.flatMap { record.cell($0) }.flatMap(Self.rowLabel) != nil
        }
        if dateText.map({ Self.notBookedStatuses.contains($0.uppercased()) }) ?? !isLabelled,
            money.contains(where: { column in
                column.index.flatMap { record.cell($0) }.map {
                    ColumnValues.isAmountText(String(decoding: $0, as: UTF8.self))
                } == true
            })
        {
            if let dateText, let index = columns.date, pendingDates.count < 4,
                pendingDates[dateText.uppercased()] == nil
            {
                // `offen`, `Reserverad` where the date stands: a row not booked yet.
                pendingDates[dateText.uppercased()] = record.sample(
                    index, record.field(index).trimmingSpaces)
            }
            trailingNonData = 0
            trailingRecords = []
            return
        }
        trailingNonData += 1
        if trailingRecords.count < 20 {
            trailingRecords.append(
                record.fields.indices.map { field in
                    record.withField(field) { String(decoding: $0, as: UTF8.self) }
                })
        }
    }

    /// Keeps a dated row labelled as a balance, if `row` is one, as the last row so far.
    ///
    /// - Returns: whether it was one, and is no booking.
    private mutating func observeBalanceRow(
        _ row: (sample: Sample, item: RowLabel, field: Int)?
    ) -> Bool {
        if misplacedBalanceRow == nil { misplacedBalanceRow = balanceRow?.sample }
        balanceRow = row
        return row != nil
    }

    /// Counts a type column's sales and payments by their amounts' sign, and finds the first
    /// debit or credit word that the sign contradicts.
    private mutating func observeType(
        _ type: UnsafeRawBufferPointer, isNegative: Bool, _ sample: () -> Sample
    ) {
        let word = String(decoding: type, as: UTF8.self).uppercased()
        switch word {
        case "SALE", "PURCHASE": charges.add(isNegative: isNegative)
        case "PAYMENT": payments.add(isNegative: isNegative)
        default:
            guard let saysDebit = Self.indicatorWords[word] else { return }
            if saysDebit != isNegative {
                if typeDisagreement == nil { typeDisagreement = sample() }
            } else {
                typeAgreements += 1
            }
        }
    }

    /// Keeps the first cell of the account column, and the first that differs from it.
    private mutating func observeAccount(_ account: UnsafeRawBufferPointer, _ sample: () -> Sample)
    {
        guard let first = firstAccountCell else {
            firstAccountCell = Array(account)
            return
        }
        if !accountColumnVaries, !account.hasSameBytes(as: first),
            !Self.isSameIBAN(String(decoding: account, as: UTF8.self), first)
        {
            accountColumnVaries = true
            otherAccount = sample()
        }
    }

    /// Whether two texts are one IBAN, written in groups or not, in either case.
    private static func isSameIBAN(_ text: String, _ other: [UInt8]) -> Bool {
        guard let iban = try? IBAN(parsing: text) else { return false }
        return iban == (try? IBAN(parsing: String(decoding: other, as: UTF8.self)))
    }
}

extension CSVRecord {
    /// The bytes of field `index` without surrounding spaces; `nil` when empty or absent.
    fileprivate func cell(_ index: Int?) -> UnsafeRawBufferPointer? {
        guard let index, index < fields.count else { return nil }
        let bytes = field(index).trimmingSpaces
        return bytes.isEmpty ? nil : bytes
    }

    fileprivate func sample(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> SniffEvidence.Sample {
        let (line, column) = location(ofField: index)
        return SniffEvidence.Sample(
            text: String(decoding: bytes, as: UTF8.self), line: line, column: column)
    }
}
