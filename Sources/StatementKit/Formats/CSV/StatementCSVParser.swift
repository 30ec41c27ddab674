/// Reads statement CSV into validated transactions, streaming: canonical CSV
/// (<doc:Formats#Canonical-CSV>) or a bank's dialect described by a `Dialect` (<doc:Profiles>).
///
/// In canonical CSV the header row names the columns in any order and case; `counterparty`
/// and `counterparty_iban` are accepted for `beneficiary` and `beneficiary_iban`. A dialect
/// maps its own columns, reads its own date and amount layouts, skips its preamble and may
/// fix the account. The text must already be UTF-8 (see `TextEncoding`) with any footer cut.
/// Every row is checked completely and every problem becomes a diagnostic; rows with an
/// error produce no transaction. Memory does not grow with the file, only with the number of
/// accounts in it.
package struct StatementCSVParser: Sendable {
    /// The longest record accepted; longer ones stop the file with `CSV_RECORD_TOO_LONG`.
    let maximumRecordLength: Int
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    let buildsRows: Bool
    /// How the file is written.
    let dialect: Dialect
    /// The indicator texts of a debit and of a credit, trimmed and in upper case.
    let debitIndicators: [[UInt8]]
    let creditIndicators: [[UInt8]]
    /// The status texts of rows not booked yet, trimmed and in upper case.
    let notBooked: [[UInt8]]
    /// The dialect's date and amount layouts; `nil` for the canonical ones, which are read by
    /// the model's own fast parsers.
    let dateFormat: DateFormat?
    let amountFormat: AmountFormat?
    let accountsByName: [String: AccountID]?
    /// The dialect's `joinsTexts`, kept for the row loop.
    let joinsTexts: Bool
    /// Whether the file may declare statement balances (a preamble, a footer or rows of their
    /// own), which need each account's sum of rows.
    let tracksTotals: Bool
    /// The currencies of an account of several, each kept in a pocket; `nil` for one.
    let pockets: [Currency]?

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - dialect: how the file is written; canonical CSV by default.
    ///   - buildsRows: `false` to check every row without building its transaction (`onRow`
    ///     is then never called), as validation alone needs.
    package init(dialect: Dialect = Dialect(), buildsRows: Bool = true) {
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
            Array(text.trimmingCharacters(in: .whitespaces).utf8).uppercasedASCII
        }
        debitIndicators = dialect.debitIndicators.map(normalized)
        creditIndicators = dialect.creditIndicators.map(normalized)
        notBooked = dialect.notBooked.map(normalized)
        dateFormat = dialect.dateFormat == .iso ? nil : dialect.dateFormat
        // Only canonical CSV reads bare amounts: a profile's amounts may carry currency marks
        // even when their layout is the canonical one.
        amountFormat = dialect.isCanonical ? nil : dialect.amountFormat
        accountsByName = dialect.accountsByName.isEmpty ? nil : dialect.accountsByName
        joinsTexts = dialect.joinsTexts
        tracksTotals = joinsTexts || !dialect.preamble.isEmpty || !dialect.footer.isEmpty
        pockets = dialect.accountCurrencies.isEmpty ? nil : dialect.accountCurrencies
    }

    /// Reads a whole CSV source, reporting problems into `diagnostics` and each valid row to
    /// `onRow`.
    package func parse<Source: ByteSource>(
        _ source: Source, diagnostics: inout DiagnosticCollector, onRow: (ParsedRow) -> Void
    ) -> ParseSummary {
        parse(source, footer: [], diagnostics: &diagnostics, onRow: onRow)
    }

    /// Reads a whole CSV source cut before its footer lines.
    ///
    /// - Parameters:
    ///   - footer: the footer lines cut from the end of the text, for the balances they
    ///     declare (`Dialect.footer`).
    ///   - lending: when given, every valid row is lent to it instead of handed to `onRow`;
    ///     a row whose texts are fields as the file holds them (every dialect but those that
    ///     join texts) without making their strings.
    ///   - statesNoBalances: called once the header shows that the file can state no balance
    ///     (no balance column, none declared around the rows), before any row.
    /// - Returns: the row count and other findings of the file.
    func parse<Source: ByteSource>(
        _ source: Source, footer: [UInt8], diagnostics: inout DiagnosticCollector,
        onRow: (ParsedRow) -> Void, lending: ((LentRow) -> Void)? = nil,
        statesNoBalances: () -> Void = {}
    ) -> ParseSummary {
        var reader = makeReader(source)
        var summary = ParseSummary()
        do throws(CSVReadError) {
            guard var head = try readHead(&reader, &diagnostics) else { return summary }
            if head.columns[.balance] == nil, !dialect.declaresBalances { statesNoBalances() }
            if dialect.hasNoHeader {
                // The record the head was read from is the first row.
                summary.rowCount += 1
                let row = reader.withRecord {
                    readRow($0, head.columns, &head.state, &diagnostics, lending: lending)
                }
                if let row { onRow(row) }
            }
            try readRows(
                &reader, head.columns, &head.state, &summary.rowCount, &diagnostics, onRow,
                lending: lending)
            if !dialect.footer.isEmpty {
                readFooter(footer, firstLine: reader.resumePoint.line, &head.state, &diagnostics)
            }
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
                .fileEmpty(requiring: dialect.hasNoHeader ? nil : "a header row"), line: 1,
                column: 1)
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
                    .fileEndsBeforeHeader(line: dialect.headerLine), line: 1, column: 1)
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
        _ onRow: (ParsedRow) -> Void, lending: ((LentRow) -> Void)? = nil
    ) throws(CSVReadError) {
        while try reader.nextRecord() {
            rowCount += 1
            let row = reader.withRecord {
                readRow($0, columns, &state, &diagnostics, lending: lending)
            }
            if let row { onRow(row) }
        }
    }

    /// Completes the findings of a file read to its end without an error.
    func finish(
        _ summary: inout ParseSummary, _ state: RowState, _ diagnostics: inout DiagnosticCollector
    ) {
        if summary.rowCount == 0 {
            diagnostics.report(.noRowsUnderHeader, line: 1, column: 1)
        }
        summary.notBookedCount = state.notBookedCount
        for account in state.accounts {
            // The balance before the first row is not stated: the file may start within a
            // day (the balances at the ends of its days are).
            summary.openingBalances[account.account.id] = account.balance.impliedOpening
            for (day, end) in account.balance.dayEnds.sorted(by: { $0.key < $1.key }) {
                summary.statedBalances.append(
                    StatedBalance(
                        account: account.account, point: .endOfDay(day), balance: end.balance,
                        line: end.line))
            }
        }
        if !state.declaredBalances.isEmpty, state.accounts.count == 1 {
            reconcile(state.accounts[0], state.declaredBalances, &summary, &diagnostics)
        }
    }

    /// Reports an error that ended reading.
    static func report(_ error: CSVReadError, into diagnostics: inout DiagnosticCollector) {
        switch error {
        case .unterminatedQuote(let line, let column):
            diagnostics.report(.unterminatedQuote, line: line, column: column)
        case .recordTooLong(let line, let limit):
            diagnostics.report(.recordTooLong(limit: limit), line: line, column: 1)
        case .readFailed(let reason):
            diagnostics.report(
                .unreadable(nil, .pathUnreadable, reason: reason), line: 0, column: 0)
        }
    }

    /// Reports the byte-level problems of the current record; returns whether there were none.
    func reportIssues(_ record: CSVRecord, _ diagnostics: inout DiagnosticCollector)
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
                diagnostics.report(.nulByte, line: line, column: column)
            case .invalidUTF8 where dialect.encoding == .utf8:
                diagnostics.report(.invalidUTF8, line: line, column: column)
            case .invalidUTF8:
                diagnostics.report(
                    .invalidBytes(in: dialect.encoding), line: line, column: column)
            case .strayQuote:
                diagnostics.report(.strayQuote, line: line, column: column)
            }
        }
        return record.issues.isEmpty
    }
}
