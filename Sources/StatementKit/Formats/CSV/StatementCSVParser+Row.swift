import Foundation

/// Reading one record of a statement CSV file into a row: its issues reported, its fields read
/// and checked, its account found, its balance and transaction id checked, and the row built
/// or lent.
extension StatementCSVParser {
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

    /// Reads one record: returns its row, or lends it to `lending` and returns `nil`.
    func readRow(
        _ record: CSVRecord, _ columns: Columns, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector, lending: ((LentRow) -> Void)? = nil
    ) -> ParsedRow? {
        guard isBooking(record, columns, &state, &diagnostics) else { return nil }
        let line = record.line
        // Move the collector in and out, so that reporting never copies its storage.
        // Texts lent as the file's bytes are never made strings.
        var fields = CSVFieldReader(
            record: record, diagnostics: DiagnosticCollector(file: ""),
            buildsText: buildsRows && (lending == nil || joinsTexts),
            amountFormat: amountFormat, accountsByName: accountsByName)
        swap(&fields.diagnostics, &diagnostics)
        defer { swap(&fields.diagnostics, &diagnostics) }

        guard let values = readValues(columns, &state, &fields),
            let slot = accountSlot(of: values, columns, line: line, &state, &fields)
        else { return nil }
        let transactionID = checkRow(values, slot: slot, columns, line: line, &state, &fields)
        let (date, amount, beneficiary) = (values.date, values.amount, values.beneficiary)
        let beneficiaryIBAN = values.beneficiaryIBAN
        guard buildsRows else { return nil }
        if let lending, !joinsTexts {
            // The very bytes the strings of a built transaction would hold.
            lending(
                LentRow(
                    account: state.accounts[slot].account,
                    fields: TransactionFields(
                        date: date, amount: amount,
                        beneficiary: record.field(columns[.beneficiary]!),
                        beneficiaryIBAN: beneficiaryIBAN,
                        description: columns[.description].flatMap { fields.optionalBytes($0) },
                        reference: columns[.reference].flatMap { fields.optionalBytes($0) },
                        transactionID: columns[.transactionID].flatMap {
                            fields.identifierBytes($0)
                        }), line: line))
            return nil
        }
        let transaction = Transaction(
            date: date, amount: amount, beneficiary: beneficiary, beneficiaryIBAN: beneficiaryIBAN,
            description: !joinsTexts
                ? columns[.description].flatMap { fields.optionalText($0) }
                : fields.joinedText(columns.descriptionFields),
            reference: columns[.reference].flatMap { fields.optionalText($0) },
            transactionID: transactionID)
        let row = ParsedRow(
            account: state.accounts[slot].account, transaction: transaction, line: line)
        guard let lending else { return row }
        row.withLent(lending)
        return nil
    }

    /// Whether a record is a booking to read: not one with errors of its own (its account then
    /// has an unreadable row), nor of the wrong number of fields, nor one not booked yet, nor
    /// a row that only states a balance.
    @inline(__always)
    private func isBooking(
        _ record: CSVRecord, _ columns: Columns, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector
    ) -> Bool {
        guard reportIssues(record, &diagnostics) else {
            if let field = columns[.account], field < record.fields.count,
                let accountID = record.withField(
                    field,
                    {
                        try? AccountID(parsing: String(decoding: $0, as: UTF8.self))
                    })
            {
                state.skipUnreadableRow(of: accountID)
            }
            return false
        }
        // Empty fields after the last column are a trailing separator on data rows only.
        guard
            record.fields.count == columns.count
                || (record.fields.count > columns.count
                    && (columns.count..<record.fields.count).allSatisfy { field in
                        record.withField(field) { $0.allSatisfy { $0 == UInt8(ascii: " ") } }
                    })
        else {
            let (errorLine, column) = record.location(
                ofField: min(record.fields.count, columns.count))
            diagnostics.report(
                .fieldCount(record.fields.count, header: columns.count), line: errorLine,
                column: column)
            return false
        }
        if let field = columns[.status],
            record.withField(
                field, { notBooked.contains(Array($0.trimmingSpaces).uppercasedASCII) })
        {
            state.notBookedCount += 1
            return false
        }
        if joinsTexts, let balance = columns[.balance], let item = balanceRow(record, columns) {
            // A row that only states a balance: reconciled as the preamble's would be.
            let (balanceLine, column) = record.location(ofField: balance)
            state.declaredBalances[item] = RowState.DeclaredBalance(
                text: record.trimmedText(balance), line: balanceLine, column: column)
            return false
        }
        return true
    }

    /// Reads a booking's values, each field checked; `nil` when one is not valid.
    @inline(__always)
    private func readValues(
        _ columns: Columns, _ state: inout RowState, _ fields: inout CSVFieldReader
    ) -> RowValues? {
        let date = fields.day(columns[.date]!, Dialect.Field.date.rawValue, format: dateFormat)
        // A blank currency cell takes the profile's default; canonical CSV's is EUR.
        let fallback = state.fixedCurrency ?? (dialect.columns.isEmpty ? .eur : nil)
        let currency: Currency? =
            if let field = columns[.currency] {
                fields.currency(field, Dialect.Field.currency.rawValue, default: fallback)
            } else {
                state.fixedCurrency ?? .eur
            }
        var accountID: AccountID? =
            if let field = columns[.account] {
                fields.accountID(field, &state)
            } else {
                state.fixedAccount
            }
        if let pockets, let id = accountID, let currency {
            // An account of several currencies: the row goes to its currency's pocket.
            accountID = pocket(of: id, currency, among: pockets, columns, &fields)
        }
        // Without its currency an amount cannot be checked: the currency alone is reported.
        let amount = currency.flatMap { readAmount(columns, currency: $0, &fields) }
        let beneficiary =
            !joinsTexts
            ? fields.requiredText(columns[.beneficiary]!, Dialect.Field.beneficiary.rawValue)
            : fields.joinedText(
                columns.beneficiaryFields, else: columns.descriptionFields,
                Dialect.Field.beneficiary.rawValue)
        let beneficiaryIBAN = columns[.beneficiaryIBAN].flatMap {
            fields.optionalIBAN($0, Dialect.Field.beneficiaryIBAN.rawValue, &state)
        }
        var declaredBalance = columns[.balance].flatMap { field in
            currency.flatMap {
                fields.optionalMoney(field, Dialect.Field.balance.rawValue, currency: $0)
            }
        }
        if dialect.sign == .chargesPositive { declaredBalance = declaredBalance?.negated }
        let kind =
            columns[.accountKind].flatMap {
                fields.accountKind($0, Dialect.Field.accountKind.rawValue)
            }
            ?? dialect.accountKind
        guard fields.isValid, let date, let currency, let amount, let beneficiary, let accountID
        else {
            if let accountID { state.skipUnreadableRow(of: accountID) }
            return nil
        }
        return RowValues(
            date: date, currency: currency, amount: amount, beneficiary: beneficiary,
            beneficiaryIBAN: beneficiaryIBAN, declaredBalance: declaredBalance, kind: kind,
            accountID: accountID)
    }

    /// The pocket of `currency` of an account of several currencies; `nil` (reported) when
    /// the account has none in that currency.
    @inline(__always)
    private func pocket(
        of id: AccountID, _ currency: Currency, among pockets: [Currency], _ columns: Columns,
        _ fields: inout CSVFieldReader
    ) -> AccountID? {
        guard pockets.contains(currency) else {
            fields.report(
                .notAccountCurrency(currency, of: pockets),
                at: columns[.currency] ?? columns.amountField)
            return id
        }
        let pocket = AccountID(id, pocket: currency)
        if pocket == nil {
            fields.report(
                .accountID(
                    Dialect.Field.account.rawValue, Diagnostic.quote(id.text),
                    .accountID(.pocket)), at: columns[.account] ?? columns.amountField)
        }
        return pocket
    }

    /// The row's amount in `currency`, read as the dialect signs it.
    @inline(__always)
    private func readAmount(
        _ columns: Columns, currency: Currency, _ fields: inout CSVFieldReader
    ) -> Money? {
        switch dialect.sign {
        case .signed:
            fields.money(columns[.amount]!, Dialect.Field.amount.rawValue, currency: currency)
        case .chargesPositive:
            fields.money(
                columns[.amount]!, Dialect.Field.amount.rawValue, currency: currency)?.negated
        case .debitCredit, .inOut:
            fields.debitCredit(
                columns.debit!, columns.credit!, currency: currency,
                bothFilled: dialect.sign == .inOut)
        case .indicator:
            fields.indicated(
                columns[.amount]!, columns.indicator!, currency: currency,
                debit: debitIndicators, credit: creditIndicators)
        }
    }

    /// The slot of the row's account in `state`, the account added at its first row; `nil`
    /// (reported) when the row's currency is not the account's.
    @inline(__always)
    private func accountSlot(
        of row: RowValues, _ columns: Columns, line: Int, _ state: inout RowState,
        _ fields: inout CSVFieldReader
    ) -> Int? {
        let (accountID, currency, amount) = (row.accountID, row.currency, row.amount)
        let (kind, declaredBalance) = (row.kind, row.declaredBalance)
        let slot: Int
        let cached = state.lastSlot.flatMap { $0.accountID == accountID ? $0.slot : nil }
        if let known = cached ?? state.accountSlots[accountID] {
            slot = known
            guard state.accounts[slot].account.currency == currency else {
                let account = state.accounts[slot]
                let field = columns[.currency] ?? columns.amountField
                state.accounts[slot].hasCurrencyConflicts = true
                fields.report(
                    .rowCurrency(
                        currency, account: accountID, accountCurrency: account.account.currency,
                        line: account.firstLine), at: field)
                return nil
            }
        } else {
            let name = columns[.accountName].flatMap { fields.optionalText($0) } ?? state.fixedName
            slot = state.accounts.count
            state.accountSlots.insert(accountID, slot)
            state.accounts.append(
                RowState.AccountState(
                    account: Account(
                        id: accountID, name: name,
                        kind: kind ?? (accountID.scheme == .card ? .creditCard : .checking),
                        currency: currency),
                    firstLine: line, balance: RunningBalance(newestFirst: dialect.isNewestFirst),
                    start: state.skippedBeforeFirstRow.contains(accountID)
                        ? .unreadableRow : .row(amount: amount, declared: declaredBalance)))
        }
        state.lastSlot = (accountID, slot)
        return slot
    }

    /// Adds the row to its account's total and running balance, and checks its transaction
    /// id; returns that id.
    @inline(__always)
    private func checkRow(
        _ row: RowValues, slot: Int, _ columns: Columns, line: Int, _ state: inout RowState,
        _ fields: inout CSVFieldReader
    ) -> String? {
        let (accountID, date, amount) = (row.accountID, row.date, row.amount)
        let declaredBalance = row.declaredBalance
        // Only statement balances need the sum; canonical CSV declares none.
        if tracksTotals, let total = state.accounts[slot].total {
            let (sum, overflow) = total.addingReportingOverflow(amount.minorUnits)
            state.accounts[slot].total = overflow ? nil : sum
        }
        // Only a file with running balances has days that end with one.
        let mismatch =
            columns[.balance] == nil
            ? state.accounts[slot].balance.add(amount, declared: declaredBalance)
            : state.accounts[slot].balance.add(
                amount, declared: declaredBalance, day: date, line: line)
        if let mismatch {
            fields.report(
                .balance("balance", mismatch), at: columns[.balance] ?? columns.amountField)
        }
        let transactionID = columns[.transactionID].flatMap { fields.identifier($0) }
        if let transactionID,
            let conflict = state.transactionIDs.check(
                id: transactionID, amount: amount, date: date, account: accountID, line: line)
        {
            fields.report(conflict, at: columns[.transactionID]!)
        }
        return transactionID
    }
}

/// A booking's values as read from its fields, before its account's slot is known.
private struct RowValues {
    let date: Day
    let currency: Currency
    let amount: Money
    let beneficiary: String
    let beneficiaryIBAN: IBAN?
    let declaredBalance: Money?
    let kind: Account.Kind?
    let accountID: AccountID

}
