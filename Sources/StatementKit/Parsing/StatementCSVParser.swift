/// Reads statement CSV into validated transactions, streaming: canonical CSV (SPEC 2.1) or a
/// bank's dialect described by a `Dialect` (SPEC 2.3).
///
/// In canonical CSV the header row names the columns in any order and case; `counterparty`
/// and `counterparty_iban` are accepted for `beneficiary` and `beneficiary_iban`. A dialect
/// maps its own columns, reads its own date and amount layouts, skips its preamble and may
/// fix the account. The text must already be UTF-8 (see `TextEncoding`) with any footer cut.
/// Every row is checked completely and every problem becomes a diagnostic; rows with an
/// error produce no transaction. Memory does not grow with the file, only with the number of
/// accounts in it.
public struct StatementCSVParser: Sendable {
    /// The canonical columns.
    enum Column: String, CaseIterable, Sendable {
        case date
        case accountIBAN = "account_iban"
        case amount, currency, beneficiary
        case beneficiaryIBAN = "beneficiary_iban"
        case description, reference, balance
        case accountName = "account_name"
        case accountKind = "account_kind"
        case transactionID = "transaction_id"

        static let required: [Column] = [.date, .accountIBAN, .amount, .beneficiary]

        /// The column's place in `allCases`, for array lookups on the hot path.
        var ordinal: Int {
            switch self {
            case .date: 0
            case .accountIBAN: 1
            case .amount: 2
            case .currency: 3
            case .beneficiary: 4
            case .beneficiaryIBAN: 5
            case .description: 6
            case .reference: 7
            case .balance: 8
            case .accountName: 9
            case .accountKind: 10
            case .transactionID: 11
            }
        }

        /// Finds the column a header cell names, ignoring case, surrounding spaces and the
        /// choice of space, `-` or `_` between words.
        init?(header: String) {
            let key = header.trimmingCharacters(in: .whitespaces).lowercased()
                .replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
            switch key {
            case "counterparty": self = .beneficiary
            case "counterparty_iban": self = .beneficiaryIBAN
            default: self.init(rawValue: key)
            }
        }
    }

    /// The longest record accepted; longer ones stop the file with `CSV_RECORD_TOO_LONG`.
    let maximumRecordLength: Int
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    let buildsRows: Bool
    /// How the file is written.
    let dialect: Dialect
    /// The indicator texts of a debit and of a credit, trimmed and in upper case.
    private let debitIndicators: [[UInt8]]
    private let creditIndicators: [[UInt8]]
    /// The dialect's date and amount layouts; `nil` for the canonical ones, which are read by
    /// the model's own fast parsers.
    private let dateFormat: DateFormat?
    private let amountFormat: AmountFormat?
    /// Whether the dialect maps columns itself (joining texts, a beneficiary falling back to
    /// the description) rather than by canonical names.
    private let isMapped: Bool

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - dialect: how the file is written; canonical CSV by default.
    ///   - buildsRows: `false` to check every row without building its transaction (`onRow`
    ///     is then never called), as validation alone needs.
    public init(dialect: Dialect = Dialect(), buildsRows: Bool = true) {
        self.init(
            maximumRecordLength: CSVReader<MemoryByteSource>.defaultMaximumRecordLength,
            dialect: dialect, buildsRows: buildsRows)
    }

    /// Creates a parser with a smaller record limit, for tests.
    init(maximumRecordLength: Int, dialect: Dialect = Dialect(), buildsRows: Bool = true) {
        self.maximumRecordLength = maximumRecordLength
        self.dialect = dialect
        self.buildsRows = buildsRows
        let normalized = { (text: String) in
            Array(text.trimmingCharacters(in: .whitespaces).uppercased().utf8)
        }
        debitIndicators = dialect.debitIndicators.map(normalized)
        creditIndicators = dialect.creditIndicators.map(normalized)
        dateFormat = dialect.dateFormat == .iso ? nil : dialect.dateFormat
        amountFormat = dialect.amountFormat == .canonical ? nil : dialect.amountFormat
        isMapped = !dialect.columns.isEmpty
    }

    /// Reads a whole CSV source, reporting problems into `diagnostics` and each valid row to
    /// `onRow`.
    ///
    /// - Returns: the row count and other findings of the file.
    public func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        var reader = makeReader(source)
        var summary = ParseSummary()
        do throws(CSVReadError) {
            guard var head = try readHead(&reader, &diagnostics) else { return summary }
            if dialect.hasNoHeader {
                // The record the head was read from is the first row.
                summary.rowCount += 1
                let row = reader.withRecord { readRow($0, head.columns, &head.state, &diagnostics) }
                if let row { onRow(row) }
            }
            try readRows(&reader, head.columns, &head.state, &summary.rowCount, &diagnostics, onRow)
            finish(&summary, head.state, &diagnostics)
        } catch {
            Self.report(error, into: &diagnostics)
        }
        return summary
    }

    func makeReader<Source: ByteSource>(
        _ source: Source, firstLine: Int = 1, limit: Int = .max
    ) -> CSVReader<Source> {
        CSVReader(
            source: source, separator: dialect.separator, quote: dialect.quote,
            chunkSize: min(1 << 20, maximumRecordLength), maximumRecordLength: maximumRecordLength,
            firstLine: firstLine, limit: limit)
    }

    /// Reads the preamble and the header; `nil` when rows cannot be read, after saying why.
    /// A dialect without header row takes its columns' count from the first row, which stays
    /// the reader's current record.
    func readHead<Source: ByteSource>(
        _ reader: inout CSVReader<Source>, _ diagnostics: inout DiagnosticCollector
    ) throws(CSVReadError) -> (columns: Columns, state: RowState)? {
        var state = RowState(dialect: dialect)
        guard try reader.nextRecord() else {
            diagnostics.report(
                .fileEmpty, line: 1, column: 1,
                dialect.hasNoHeader
                    ? "the file is empty" : "the file is empty; a header row is required")
            return nil
        }
        if dialect.hasNoHeader {
            guard let columns = reader.withRecord({ mappedColumns($0, &diagnostics) }) else {
                return nil
            }
            return (columns, state)
        }
        var preamble = Set(dialect.preamble.keys)
        while reader.withRecord({ $0.line }) < dialect.headerLine {
            reader.withRecord { readPreamble($0, &preamble, &state, &diagnostics) }
            guard try reader.nextRecord() else {
                diagnostics.report(
                    .fileEmpty, line: 1, column: 1,
                    "the file ends before its header on line \(dialect.headerLine)")
                return nil
            }
        }
        guard let columns = reader.withRecord({ readHeader($0, &diagnostics) }),
            preambleIsComplete(preamble, state, &diagnostics)
        else { return nil }
        return (columns, state)
    }

    /// Reads rows up to the reader's end, counting them into `rowCount`.
    func readRows<Source: ByteSource>(
        _ reader: inout CSVReader<Source>, _ columns: Columns, _ state: inout RowState,
        _ rowCount: inout Int, _ diagnostics: inout DiagnosticCollector,
        _ onRow: (ParsedRow) -> Void
    ) throws(CSVReadError) {
        while try reader.nextRecord() {
            rowCount += 1
            let row = reader.withRecord { readRow($0, columns, &state, &diagnostics) }
            if let row { onRow(row) }
        }
    }

    /// Completes the findings of a file read to its end without an error.
    func finish(
        _ summary: inout ParseSummary, _ state: RowState, _ diagnostics: inout DiagnosticCollector
    ) {
        if summary.rowCount == 0 {
            diagnostics.report(
                .fileNoTransactions, line: 1, column: 1, "the file has a header but no rows")
        }
        for account in state.accounts {
            summary.openingBalances[account.account.iban] = account.balance.impliedOpening
        }
    }

    /// Reports an error that ended reading.
    static func report(_ error: CSVReadError, into diagnostics: inout DiagnosticCollector) {
        switch error {
        case .unterminatedQuote(let line, let column):
            diagnostics.report(
                .csvUnterminatedQuote, line: line, column: column,
                "quoted field is never closed: the file ends inside it")
        case .recordTooLong(let line, let limit):
            diagnostics.report(
                .csvRecordTooLong, line: line, column: 1,
                "record is longer than \(limit.counted("byte")); reading stopped here")
        case .readFailed(let reason):
            diagnostics.report(
                .pathUnreadable, line: 0, column: 0, "cannot read the file: \(reason)")
        }
    }

    /// The column layout found in the header.
    struct Columns: Sendable {
        let count: Int
        /// The field index of each column by its ordinal; -1 when absent.
        private let fieldIndex: [Int]
        /// The fields joined into the beneficiary and the description, in order.
        let beneficiaryFields: [Int]
        let descriptionFields: [Int]
        /// The fields of a dialect that splits the amount.
        let debit: Int?
        let credit: Int?
        let indicator: Int?

        /// The layout of canonical CSV: one field per column.
        init(count: Int, index: [Column: Int]) {
            self.init(
                count: count, fields: index.mapValues { [$0] }, debit: nil, credit: nil,
                indicator: nil)
        }

        init(count: Int, fields: [Column: [Int]], debit: Int?, credit: Int?, indicator: Int?) {
            self.count = count
            fieldIndex = Column.allCases.map { fields[$0]?.first ?? -1 }
            beneficiaryFields = fields[.beneficiary] ?? []
            descriptionFields = fields[.description] ?? []
            self.debit = debit
            self.credit = credit
            self.indicator = indicator
        }

        subscript(column: Column) -> Int? {
            let field = fieldIndex[column.ordinal]
            return field >= 0 ? field : nil
        }

        /// The field a problem with the amount is reported at.
        var amountField: Int { self[.amount] ?? debit ?? 0 }
    }

    private func readHeader(_ record: CSVRecord, _ diagnostics: inout DiagnosticCollector)
        -> Columns?
    {
        guard reportIssues(record, &diagnostics) else { return nil }
        if !dialect.columns.isEmpty { return mappedColumns(record, &diagnostics) }
        var index: [Column: Int] = [:]
        var unknown: [(name: String, field: Int)] = []
        for field in record.fields.indices {
            let name = record.withField(field) { String(decoding: $0, as: UTF8.self) }
            guard let column = Column(header: name) else {
                unknown.append((name, field))
                continue
            }
            if index[column] != nil {
                let (line, col) = record.location(ofField: field)
                diagnostics.report(
                    .columnDuplicate, line: line, column: col,
                    "column \(Diagnostic.quote(name)) appears twice in the header")
                return nil
            }
            index[column] = field
        }
        let missing = Column.required.filter { index[$0] == nil }
        if !missing.isEmpty {
            let names = missing.map(\.rawValue).joined(separator: ", ")
            diagnostics.report(
                .columnMissing, line: record.line, column: 1,
                "the header lacks required column\(missing.count == 1 ? "" : "s") \(names)")
            return nil
        }
        if let first = unknown.first {
            let (line, col) = record.location(ofField: first.field)
            // Name a few; a hostile header can have 100,000 columns.
            var names = unknown.prefix(5).map { Diagnostic.quote($0.name) }.joined(separator: ", ")
            if unknown.count > 5 { names += " and \(unknown.count - 5) more" }
            diagnostics.report(
                .columnUnknown, line: line, column: col,
                "ignoring unknown column\(unknown.count == 1 ? "" : "s") \(names)")
        }
        return Columns(count: record.fields.count, index: index)
    }

    /// Finds the columns a dialect maps, by header text or position.
    private func mappedColumns(
        _ record: CSVRecord, _ diagnostics: inout DiagnosticCollector
    ) -> Columns? {
        let names = record.fields.indices.map { field in
            record.withField(field) { Self.normalizedHeader(String(decoding: $0, as: UTF8.self)) }
        }
        var fields: [Dialect.Field: [Int]] = [:]
        var missing: [String] = []
        for (field, references) in dialect.columns.sorted(by: { $0.key < $1.key }) {
            for reference in references {
                switch reference {
                case .name(let name):
                    let matches = names.indices.filter { names[$0] == Self.normalizedHeader(name) }
                    if matches.count > 1 {
                        diagnostics.report(
                            .columnDuplicate, line: record.line, column: 1,
                            "the profile's column \(Diagnostic.quote(name)) is the name of columns \(matches.map { String($0 + 1) }.joined(separator: " and ")); map \(field.rawValue) to one of them by number"
                        )
                        return nil
                    }
                    if let index = matches.first {
                        fields[field, default: []].append(index)
                    } else {
                        missing.append(Diagnostic.quote(name))
                    }
                case .number(let number):
                    if number <= names.count {
                        fields[field, default: []].append(number - 1)
                    } else {
                        missing.append("number \(number)")
                    }
                }
            }
        }
        guard missing.isEmpty else {
            diagnostics.report(
                .columnMissing, line: record.line, column: 1,
                dialect.hasNoHeader
                    ? "the first row has \(names.count.counted("field")); the profile maps column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
                    : "the header lacks the profile's column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
            )
            return nil
        }
        var canonical: [Column: [Int]] = [:]
        for (field, indices) in fields {
            if let column = Column(rawValue: field.rawValue) { canonical[column] = indices }
        }
        return Columns(
            count: names.count, fields: canonical, debit: fields[.debit]?.first,
            credit: fields[.credit]?.first, indicator: fields[.indicator]?.first)
    }

    /// A header text as profiles match it: without surrounding spaces, in lower case.
    static func normalizedHeader(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Reads what the dialect takes from a preamble line; `pending` keeps the items not found.
    private func readPreamble(
        _ record: CSVRecord, _ pending: inout Set<Dialect.PreambleItem>, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector
    ) {
        for (item, position) in dialect.preamble
        where position.line == record.line && pending.contains(item) {
            guard position.field <= record.fields.count else { continue }
            pending.remove(item)
            let field = position.field - 1
            let text = record.withField(field) { String(decoding: $0, as: UTF8.self) }
                .trimmingCharacters(in: .whitespaces)
            let (line, column) = record.location(ofField: field)
            let name = "preamble \(item.rawValue)"
            switch item {
            case .name:
                state.fixedName = text.isEmpty ? nil : text
            case .currency:
                state.fixedCurrency = Currency(code: text)
                if state.fixedCurrency == nil {
                    diagnostics.report(
                        .currencyUnknown, line: line, column: column,
                        "\(name) \(Diagnostic.quote(text)): is not an active ISO 4217 currency code"
                    )
                }
            case .iban:
                // The IBAN may follow a label in the same field, as in "IBAN: DE89 …".
                if let iban = HeaderVocabulary.iban(in: text) {
                    state.fixedIBAN = iban
                    continue
                }
                do throws(IBANError) {
                    state.fixedIBAN = try IBAN(parsing: text)
                } catch {
                    diagnostics.report(
                        text.isEmpty ? .fieldEmpty : error.code, line: line, column: column,
                        "\(name) \(Diagnostic.quote(text)): \(text.isEmpty ? "is required" : error.description)"
                    )
                }
            }
        }
    }

    /// Reports the preamble items that were never found; returns whether the account is known.
    private func preambleIsComplete(
        _ pending: Set<Dialect.PreambleItem>, _ state: RowState,
        _ diagnostics: inout DiagnosticCollector
    ) -> Bool {
        for item in pending.sorted(by: { $0.rawValue < $1.rawValue }) {
            let position = dialect.preamble[item]!
            diagnostics.report(
                .fieldEmpty, line: position.line, column: 1,
                "the preamble has no field \(position.field) on line \(position.line) for the account \(item.rawValue)"
            )
        }
        return pending.isEmpty && (dialect.preamble[.iban] == nil || state.fixedIBAN != nil)
            && (dialect.preamble[.currency] == nil || state.fixedCurrency != nil)
    }

    /// Reports the byte-level problems of the current record; returns whether there were none.
    private func reportIssues(_ record: CSVRecord, _ diagnostics: inout DiagnosticCollector)
        -> Bool
    {
        var place: CSVRecord.Place?
        for issue in record.issues {
            // Issues come in order: locate each from the one before, scanning the record once.
            place = record.place(
                ofOffset: issue.offset, from: place, scanned: &diagnostics.locationWork)
            let (line, column) = (place!.line, place!.column)
            switch issue.kind {
            case .nul:
                diagnostics.report(.encodingNUL, line: line, column: column, "NUL byte in text")
            case .invalidUTF8 where dialect.encoding == .utf8:
                diagnostics.report(
                    .encodingInvalidUTF8, line: line, column: column, "invalid UTF-8 byte sequence")
            case .invalidUTF8:
                diagnostics.report(
                    .encodingInvalid, line: line, column: column,
                    "byte sequence that is not valid \(dialect.encoding.rawValue)")
            case .strayQuote:
                diagnostics.report(
                    .csvStrayQuote, line: line, column: column,
                    "quote inside an unquoted field or after a closing quote; quote the whole field and double inner quotes"
                )
            }
        }
        return record.issues.isEmpty
    }

    /// What the parser remembers between rows: the accounts seen so far in the file.
    struct RowState: Sendable {
        struct AccountState: Sendable {
            var account: Account
            var firstLine: Int
            var balance: RunningBalance
            /// How the account's rows began in the part of the file read with this state.
            var start: RunningBalance.Start
            /// Whether a row named another currency than the account's.
            var hasCurrencyConflicts = false
        }

        var accounts: [AccountState] = []
        var accountSlots = IBANTable<Int>()
        /// What the dialect or the preamble says of the account of every row.
        var fixedIBAN: IBAN?
        var fixedName: String?
        var fixedCurrency: Currency?

        init(dialect: Dialect) {
            fixedIBAN = dialect.accountIBAN
            fixedName = dialect.accountName
            fixedCurrency = dialect.accountCurrency
        }

        /// The IBANs of the file validated so far, to skip validating them again.
        var validIBANs = IBANTable<Void>()
        /// The slot of the account of the previous valid row.
        var lastSlot: (iban: IBAN, slot: Int)?

        /// The IBANs of unreadable rows before their account's first valid row.
        var skippedBeforeFirstRow = IBANTable<Void>()
        /// The IBANs warned about for their national check digits.
        var nationalCheckWarnings = IBANTable<Void>()
        /// The transaction ids seen, to find one given to two bookings.
        var transactionIDs = TransactionIDChecker()

        /// Forgets an account's balance after one of its rows could not be read.
        mutating func skipUnreadableRow(of iban: IBAN) {
            if let slot = accountSlots[iban] {
                accounts[slot].balance.skipUnreadableRow()
            } else {
                skippedBeforeFirstRow.insert(iban)
            }
        }
    }

    private func readRow(
        _ record: CSVRecord, _ columns: Columns, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector
    ) -> ParsedRow? {
        guard reportIssues(record, &diagnostics) else {
            if let field = columns[.accountIBAN], field < record.fields.count,
                let iban = record.withField(field, { try? IBAN(parsing: $0) })
            {
                state.skipUnreadableRow(of: iban)
            }
            return nil
        }
        let line = record.line
        guard record.fields.count == columns.count else {
            let (errorLine, column) = record.location(
                ofField: min(record.fields.count, columns.count))
            diagnostics.report(
                .csvFieldCount, line: errorLine, column: column,
                "row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), the header has \(columns.count)"
            )
            return nil
        }
        // Move the collector in and out, so that reporting never copies its storage.
        var fields = FieldReader(
            record: record, diagnostics: DiagnosticCollector(file: ""), buildsText: buildsRows,
            amountFormat: amountFormat)
        swap(&fields.diagnostics, &diagnostics)
        defer { swap(&fields.diagnostics, &diagnostics) }

        let date = fields.day(columns[.date]!, Column.date.rawValue, format: dateFormat)
        // A blank currency cell takes the profile's default; canonical CSV's is EUR.
        let fallback = state.fixedCurrency ?? (dialect.columns.isEmpty ? .eur : nil)
        let currency: Currency? =
            if let field = columns[.currency] {
                fields.currency(field, Column.currency.rawValue, default: fallback)
            } else {
                state.fixedCurrency ?? .eur
            }
        let accountIBAN: IBAN? =
            if let field = columns[.accountIBAN] {
                fields.accountIBAN(field, &state)
            } else {
                state.fixedIBAN
            }
        // Without its currency an amount cannot be checked: the currency alone is reported.
        var amount: Money?
        if let currency {
            amount =
                switch dialect.sign {
                case .signed:
                    fields.money(columns[.amount]!, Column.amount.rawValue, currency: currency)
                case .debitCredit:
                    fields.debitCredit(columns.debit!, columns.credit!, currency: currency)
                case .indicator:
                    fields.indicated(
                        columns[.amount]!, columns.indicator!, currency: currency,
                        debit: debitIndicators, credit: creditIndicators)
                }
        }
        let beneficiary =
            !isMapped
            ? fields.requiredText(columns[.beneficiary]!, Column.beneficiary.rawValue)
            : fields.joinedText(
                columns.beneficiaryFields, else: columns.descriptionFields,
                Column.beneficiary.rawValue)
        let beneficiaryIBAN = columns[.beneficiaryIBAN].flatMap {
            fields.optionalIBAN($0, Column.beneficiaryIBAN.rawValue, &state)
        }
        let declaredBalance = columns[.balance].flatMap { field in
            currency.flatMap { fields.optionalMoney(field, Column.balance.rawValue, currency: $0) }
        }
        let kind =
            columns[.accountKind].flatMap { fields.accountKind($0, Column.accountKind.rawValue) }
            ?? dialect.accountKind
        guard fields.isValid, let date, let currency, let amount, let beneficiary, let accountIBAN
        else {
            if let accountIBAN { state.skipUnreadableRow(of: accountIBAN) }
            return nil
        }

        let slot: Int
        let cached = state.lastSlot.flatMap { $0.iban == accountIBAN ? $0.slot : nil }
        if let known = cached ?? state.accountSlots[accountIBAN] {
            slot = known
            guard state.accounts[slot].account.currency == currency else {
                let account = state.accounts[slot]
                let field = columns[.currency] ?? columns.amountField
                state.accounts[slot].hasCurrencyConflicts = true
                fields.report(
                    .currencyConflict, at: field,
                    "currency \(currency.code) differs from \(account.account.currency.code), the currency of account \(accountIBAN.electronic) on line \(account.firstLine)"
                )
                return nil
            }
        } else {
            let name = columns[.accountName].flatMap { fields.optionalText($0) } ?? state.fixedName
            slot = state.accounts.count
            state.accountSlots.insert(accountIBAN, slot)
            state.accounts.append(
                RowState.AccountState(
                    account: Account(
                        iban: accountIBAN, name: name, kind: kind ?? .checking, currency: currency),
                    firstLine: line, balance: RunningBalance(newestFirst: dialect.isNewestFirst),
                    start: state.skippedBeforeFirstRow.contains(accountIBAN)
                        ? .unreadableRow : .row(amount: amount, declared: declaredBalance)))
        }
        state.lastSlot = (accountIBAN, slot)
        if let mismatch = state.accounts[slot].balance.add(amount, declared: declaredBalance) {
            fields.report(
                mismatch.code, at: columns[.balance] ?? columns.amountField,
                "\(mismatch); the balance chain breaks on this row")
        }
        let transactionID = columns[.transactionID].flatMap { fields.identifier($0) }
        if let transactionID,
            let conflict = state.transactionIDs.check(
                id: transactionID, amount: amount, date: date, account: accountIBAN, line: line)
        {
            fields.report(.transactionIDConflict, at: columns[.transactionID]!, conflict)
        }
        guard buildsRows else { return nil }
        let transaction = Transaction(
            date: date, amount: amount, beneficiary: beneficiary, beneficiaryIBAN: beneficiaryIBAN,
            description: !isMapped
                ? columns[.description].flatMap { fields.optionalText($0) }
                : fields.joinedText(columns.descriptionFields),
            reference: columns[.reference].flatMap { fields.optionalText($0) },
            transactionID: transactionID)
        return ParsedRow(
            account: state.accounts[slot].account, transaction: transaction, line: line)
    }
}

/// Reads the fields of one CSV record into model values, reporting each problem.
private struct FieldReader {
    let record: CSVRecord
    var diagnostics: DiagnosticCollector
    private(set) var isValid = true

    /// Whether text fields become `String`s; when not, a valid required text reads as "".
    let buildsText: Bool
    /// The amount layout of a dialect; `nil` for the canonical one.
    let amountFormat: AmountFormat?

    init(
        record: CSVRecord, diagnostics: DiagnosticCollector, buildsText: Bool,
        amountFormat: AmountFormat?
    ) {
        self.record = record
        self.diagnostics = diagnostics
        self.buildsText = buildsText
        self.amountFormat = amountFormat
    }

    mutating func report(_ code: DiagnosticCode, at field: Int, _ message: String) {
        let place = record.place(
            ofOffset: record.offset(ofField: field), scanned: &diagnostics.locationWork)
        diagnostics.report(code, line: place.line, column: place.column, message)
        if code.defaultSeverity == .error || diagnostics.isStrict { isValid = false }
    }

    private mutating func report(
        _ code: DiagnosticCode, at field: Int, name: String, reason: String
    ) {
        let value = record.withField(field) { Diagnostic.quote(bytes: $0) }
        report(code, at: field, "\(name) \(value): \(reason)")
    }

    /// Runs a byte parser over a field, keeping its typed error.
    private func parse<T, E: Error>(
        _ field: Int, _ parser: (UnsafeRawBufferPointer) throws(E) -> T
    ) -> Result<T, E> {
        record.withField(field) { bytes in Result { () throws(E) in try parser(bytes) } }
    }

    private func isBlank(_ field: Int) -> Bool {
        record.withField(field) {
            $0.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        }
    }

    /// Reads a date in a dialect's layout, or the canonical one when `format` is `nil`.
    mutating func day(_ field: Int, _ name: String, format dateFormat: DateFormat?) -> Day? {
        let result = parse(field) { (bytes) throws(DayError) in
            guard let format = dateFormat else { return try Day(parsing: bytes) }
            return try format.day(parsing: bytes.trimmingSpaces)
        }
        switch result {
        case .success(let day): return day
        case .failure(let error):
            if isBlank(field) {
                report(.fieldEmpty, at: field, "\(name) is required")
            } else if let format = dateFormat, error == .malformed {
                report(error.code, at: field, name: name, reason: "is not a date in \(format) form")
            } else {
                report(error.code, at: field, name: name, reason: error.description)
            }
            return nil
        }
    }

    /// The currency of a row: its cell, or `fallback` when the cell is blank; `nil` when the
    /// cell names no active currency or is blank without fallback (reported).
    mutating func currency(_ field: Int, _ name: String, default fallback: Currency?)
        -> Currency?
    {
        guard !isBlank(field) else {
            if fallback == nil {
                report(
                    .fieldEmpty, at: field,
                    "\(name) is blank and the profile gives no default (account.currency)")
            }
            return fallback
        }
        if let currency = record.withField(field, { Currency(codeBytes: $0) }) { return currency }
        report(
            .currencyUnknown, at: field, name: name,
            reason: "is not an active ISO 4217 currency code")
        return nil
    }

    mutating func money(_ field: Int, _ name: String, currency: Currency) -> Money? {
        // A local, so that the closure does not capture (and copy) the whole record.
        let amountFormat = amountFormat
        let result = parse(field) { (bytes) throws(AmountError) in
            guard let format = amountFormat else {
                return try Money(parsing: bytes, currency: currency)
            }
            return try format.money(parsing: bytes, currency: currency)
        }
        switch result {
        case .success(let money): return money
        case .failure(.empty): report(.fieldEmpty, at: field, "\(name) is required")
        case .failure(.malformed) where amountFormat != nil:
            report(
                .amountFormat, at: field, name: name,
                reason: "is not an amount like \(amountFormat!.example)")
        case .failure(let error):
            report(error.code, at: field, name: name, reason: error.reason(currency: currency))
        }
        return nil
    }

    /// Reads an amount split into a debit and a credit column, one of them filled (a zero in
    /// the other is allowed). Signs in either column are ignored: a debit always takes money out.
    mutating func debitCredit(_ debitField: Int, _ creditField: Int, currency: Currency) -> Money? {
        guard !isBlank(debitField) || !isBlank(creditField) else {
            report(.fieldEmpty, at: debitField, "debit or credit is required")
            return nil
        }
        let debit = optionalMoney(debitField, "debit", currency: currency)
        let credit = optionalMoney(creditField, "credit", currency: currency)
        guard isValid else { return nil }
        let out = debit?.minorUnits.magnitude ?? 0
        let into = credit?.minorUnits.magnitude ?? 0
        guard out == 0 || into == 0 else {
            report(
                .amountSign, at: creditField,
                "both debit and credit hold an amount; one must be empty or zero")
            return nil
        }
        return Money(minorUnits: into > 0 ? Int64(into) : -Int64(out), currency: currency)
    }

    /// Reads an unsigned amount whose sign an indicator column gives, such as `D`/`C`.
    mutating func indicated(
        _ amountField: Int, _ indicatorField: Int, currency: Currency, debit: [[UInt8]],
        credit: [[UInt8]]
    ) -> Money? {
        let text = record.withField(indicatorField) { Array($0.trimmingSpaces) }.map {
            $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0
        }
        let isDebit = debit.contains(text)
        if !isDebit && !credit.contains(text) {
            let allowed = (debit + credit).map {
                Diagnostic.quote(String(decoding: $0, as: UTF8.self))
            }
            report(
                .amountSign, at: indicatorField, name: "indicator",
                reason: "must be one of \(allowed.joined(separator: ", "))")
        }
        guard let amount = money(amountField, "amount", currency: currency), isValid else {
            return nil
        }
        if amount.minorUnits < 0 && !isDebit {
            report(
                .amountSign, at: amountField,
                "amount is negative but the indicator says credit; the two disagree")
            return nil
        }
        let magnitude = Int64(amount.minorUnits.magnitude)
        return Money(minorUnits: isDebit ? -magnitude : magnitude, currency: currency)
    }

    mutating func optionalMoney(_ field: Int, _ name: String, currency: Currency) -> Money? {
        isBlank(field) ? nil : money(field, name, currency: currency)
    }

    /// Reads the account IBAN; see `knownOrValidatedIBAN`.
    mutating func accountIBAN(_ field: Int, _ state: inout StatementCSVParser.RowState) -> IBAN? {
        knownOrValidatedIBAN(
            field, StatementCSVParser.Column.accountIBAN.rawValue, required: true, &state)
    }

    /// Reads an optional IBAN such as the beneficiary's; see `knownOrValidatedIBAN`.
    mutating func optionalIBAN(
        _ field: Int, _ name: String, _ state: inout StatementCSVParser.RowState
    ) -> IBAN? {
        isBlank(field) ? nil : knownOrValidatedIBAN(field, name, required: false, &state)
    }

    /// Reads an IBAN: one already validated in this file and written in electronic form is
    /// found by its bytes without validating it again (so a national check warning is given
    /// once per file and IBAN, not once per row).
    private mutating func knownOrValidatedIBAN(
        _ field: Int, _ name: String, required: Bool, _ state: inout StatementCSVParser.RowState
    ) -> IBAN? {
        if let known = record.withField(field, { IBAN(electronicBytes: $0) }),
            state.validIBANs.contains(known)
        {
            return known
        }
        guard let iban = iban(field, name, required: required) else { return nil }
        if !iban.nationalCheckDigitsAreValid {
            report(.ibanNationalCheck, at: field, name: name, reason: nationalCheckReason)
            state.nationalCheckWarnings.insert(iban)
        }
        state.validIBANs.insert(iban)
        return iban
    }

    private mutating func iban(_ field: Int, _ name: String, required: Bool) -> IBAN? {
        if required && isBlank(field) {
            report(.fieldEmpty, at: field, "\(name) is required")
            return nil
        }
        let result = parse(field) { (bytes) throws(IBANError) in try IBAN(parsing: bytes) }
        switch result {
        case .success(let iban):
            return iban
        case .failure(let error):
            report(error.code, at: field, name: name, reason: error.description)
            return nil
        }
    }

    /// Reads a required text; blank means only white space of any kind, as `Transaction` has it.
    mutating func requiredText(_ field: Int, _ name: String) -> String? {
        // Printable ASCII other than a space is never white space: no need to decode first.
        let isSurelyText = record.withField(field) { $0.contains { $0 > 0x20 && $0 < 0x7F } }
        if isSurelyText && !buildsText { return "" }
        let text = record.withField(field) { String(decoding: $0, as: UTF8.self) }
        guard isSurelyText || !text.allSatisfy(\.isWhitespace) else {
            report(.fieldEmpty, at: field, "\(name) is required and must not be blank")
            return nil
        }
        return text
    }

    /// Joins the non-blank texts of several fields, without their surrounding spaces, with a
    /// space; `nil` when all are blank. When texts are not built, a non-blank one reads as "".
    func joinedText(_ fields: [Int]) -> String? {
        // Printable ASCII other than a space is never white space: no need to decode first.
        let isSurelyText = fields.contains { field in
            record.withField(field) { $0.contains { $0 > 0x20 && $0 < 0x7F } }
        }
        if isSurelyText && !buildsText { return "" }
        var text = ""
        for field in fields {
            record.withField(field) { bytes in
                let part = bytes.trimmingSpaces
                guard !part.isEmpty else { return }
                if !text.isEmpty { text += " " }
                text += String(decoding: part, as: UTF8.self)
            }
        }
        return text.isEmpty || (!isSurelyText && text.allSatisfy(\.isWhitespace)) ? nil : text
    }

    /// Reads a required text joined from `fields`, or from `fallback` when those are blank.
    mutating func joinedText(_ fields: [Int], else fallback: [Int], _ name: String) -> String? {
        if let text = joinedText(fields) ?? joinedText(fallback) { return text }
        report(.fieldEmpty, at: (fields + fallback)[0], "\(name) is required and must not be blank")
        return nil
    }

    func optionalText(_ field: Int) -> String? {
        isBlank(field) ? nil : record.withField(field) { String(decoding: $0, as: UTF8.self) }
    }

    /// A transaction id: the field without surrounding spaces, `nil` when blank. Read even
    /// when rows are not built, to find an id given to two bookings.
    func identifier(_ field: Int) -> String? {
        isBlank(field)
            ? nil : record.withField(field) { String(decoding: $0.trimmingSpaces, as: UTF8.self) }
    }

    mutating func accountKind(_ field: Int, _ name: String) -> Account.Kind? {
        guard let text = optionalText(field) else { return nil }
        if let kind = Account.Kind(parsing: text) { return kind }
        report(
            .accountKind, at: field, name: name, reason: "must be checking, savings or investment")
        return nil
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes without leading and trailing ASCII spaces.
    var trimmingSpaces: UnsafeRawBufferPointer {
        var (start, end) = (0, count)
        while start < end && self[start] == UInt8(ascii: " ") { start += 1 }
        while end > start && self[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}
