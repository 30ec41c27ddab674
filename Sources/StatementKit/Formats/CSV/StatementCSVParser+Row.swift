/// One record of a statement CSV read into a row: which records are bookings, the values of
/// a booking's fields, its account's slot in the file, and the row built or lent.
///
/// This is the path every row of a CSV file takes, so its parts are inlined into `readRow`:
/// only what a few rows need (an account's first row, a conflict, a pocket) is called.
extension StatementCSVParser {
    /// Reads one record: returns its row, or lends it to `lending` and returns `nil`.
    func readRow(
        _ record: CSVRecord, _ columns: Columns, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector, lending: ((LentRow) -> Void)? = nil
    ) -> ParsedRow? {
        guard isBooking(record, columns, &state, &diagnostics) else { return nil }
        // Move the collector in and out, so that reporting never copies its storage.
        // Texts lent as the file's bytes are never made strings.
        var fields = CSVFieldReader(
            record: record, diagnostics: DiagnosticCollector(file: ""),
            buildsText: buildsRows && (lending == nil || joinsTexts),
            amountFormat: amountFormat, accountsByName: accountsByName)
        swap(&fields.diagnostics, &diagnostics)
        defer { swap(&fields.diagnostics, &diagnostics) }

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
            accountID = pocket(of: id, currency, among: pockets, &fields, columns)
        }
        // Without its currency an amount cannot be checked: the currency alone is reported.
        let amount = currency.flatMap { signedAmount(&fields, columns, currency: $0) }
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
        guard
            let slot = slot(
                of: accountID, currency, kind: kind, first: (amount, declaredBalance), &fields,
                columns, &state, line: record.line)
        else { return nil }
        count(amount, declared: declaredBalance, on: date, into: slot, &fields, columns, &state)
        let transactionID = columns[.transactionID].flatMap { fields.identifier($0) }
        if let transactionID,
            let conflict = state.transactionIDs.check(
                id: transactionID, amount: amount, date: date, account: accountID,
                line: record.line)
        {
            fields.report(conflict, at: columns[.transactionID]!)
        }
        guard buildsRows else { return nil }
        return deliver(
            (date, amount, beneficiary, beneficiaryIBAN, transactionID),
            of: state.accounts[slot].account, &fields, columns, lending: lending)
    }

    /// Hands on a valid row: lends its fields as the file's bytes where the texts are fields
    /// as the file holds them, or builds its transaction (the description and reference read
    /// now) and returns it or lends it.
    @inline(__always)
    private func deliver(
        _ read: (
            date: Day, amount: Money, beneficiary: String, beneficiaryIBAN: IBAN?,
            transactionID: String?
        ), of account: Account, _ fields: inout CSVFieldReader,
        _ columns: Columns, lending: ((LentRow) -> Void)?
    ) -> ParsedRow? {
        let record = fields.record
        if let lending, !joinsTexts {
            // The very bytes the strings of a built transaction would hold.
            lending(
                LentRow(
                    account: account,
                    fields: TransactionFields(
                        date: read.date, amount: read.amount,
                        beneficiary: record.field(columns[.beneficiary]!),
                        beneficiaryIBAN: read.beneficiaryIBAN,
                        description: columns[.description].flatMap { fields.optionalBytes($0) },
                        reference: columns[.reference].flatMap { fields.optionalBytes($0) },
                        transactionID: columns[.transactionID].flatMap {
                            fields.identifierBytes($0)
                        }), line: record.line))
            return nil
        }
        let transaction = Transaction(
            date: read.date, amount: read.amount, beneficiary: read.beneficiary,
            beneficiaryIBAN: read.beneficiaryIBAN,
            description: !joinsTexts
                ? columns[.description].flatMap { fields.optionalText($0) }
                : fields.joinedText(columns.descriptionFields),
            reference: columns[.reference].flatMap { fields.optionalText($0) },
            transactionID: read.transactionID)
        let row = ParsedRow(account: account, transaction: transaction, line: record.line)
        guard let lending else { return row }
        row.withLent(lending)
        return nil
    }

    /// Whether a record is a booking to read: not a record with byte-level problems (whose
    /// account's balance is then forgotten), a record of another field count, a booking not
    /// booked yet, or a row that only states a balance (kept, to be reconciled).
    @inline(__always)
    private func isBooking(
        _ record: CSVRecord, _ columns: Columns, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector
    ) -> Bool {
        guard reportIssues(record, &diagnostics) else {
            forgetBalance(of: record, columns, &state)
            return false
        }
        guard record.fields.count == columns.count || hasTrailingBlanks(record, columns) else {
            let (line, column) = record.location(ofField: min(record.fields.count, columns.count))
            diagnostics.report(
                .fieldCount(record.fields.count, header: columns.count), line: line,
                column: column)
            return false
        }
        if let field = columns[.status],
            record.withField(
                field, { notBooked.contains(where: $0.trimmingSpaces.equalsUppercased) })
        {
            state.notBookedCount += 1
            return false
        }
        if joinsTexts, let balance = columns[.balance], let item = balanceRow(record, columns) {
            // A row that only states a balance: reconciled as the preamble's would be.
            let (line, column) = record.location(ofField: balance)
            state.declaredBalances[item] = RowState.DeclaredBalance(
                text: record.trimmedText(balance), line: line, column: column)
            return false
        }
        return true
    }

    /// Forgets the balance of the account a record with byte-level problems names, if its
    /// account field can be read.
    private func forgetBalance(of record: CSVRecord, _ columns: Columns, _ state: inout RowState) {
        if let field = columns[.account], field < record.fields.count,
            let accountID = record.withField(field, { try? $0.withSpan(AccountID.init(parsing:)) })
        {
            state.skipUnreadableRow(of: accountID)
        }
    }

    /// Whether the fields after the last column are empty: a trailing separator on data rows.
    private func hasTrailingBlanks(_ record: CSVRecord, _ columns: Columns) -> Bool {
        record.fields.count > columns.count
            && (columns.count..<record.fields.count).allSatisfy { field in
                record.withField(field) { $0.allSatisfy { $0 == UInt8(ascii: " ") } }
            }
    }

    /// The pocket of an account of several currencies that a row in `currency` goes to.
    private func pocket(
        of id: AccountID, _ currency: Currency, among pockets: [Currency],
        _ fields: inout CSVFieldReader, _ columns: Columns
    ) -> AccountID? {
        guard pockets.contains(currency) else {
            fields.report(
                .notAccountCurrency(currency, of: pockets),
                at: columns[.currency] ?? columns.amountField)
            return id
        }
        guard let pocket = AccountID(id, pocket: currency) else {
            fields.report(
                .accountID(
                    Dialect.Field.account.rawValue, Diagnostic.quote(id.text),
                    .accountID(.pocket)), at: columns[.account] ?? columns.amountField)
            return nil
        }
        return pocket
    }

    /// The row's amount, signed the way the dialect writes it, with any fee.
    @inline(__always)
    private func signedAmount(
        _ fields: inout CSVFieldReader, _ columns: Columns, currency: Currency
    )
        -> Money?
    {
        let amount: Money? =
            switch dialect.sign {
            case .signed:
                fields.money(columns[.amount]!, Dialect.Field.amount.rawValue, currency: currency)
            case .chargesPositive:
                fields.money(columns[.amount]!, Dialect.Field.amount.rawValue, currency: currency)?
                    .negated
            case .debitCredit, .inOut:
                fields.debitCredit(
                    columns.debit!, columns.credit!, currency: currency,
                    bothFilled: dialect.sign == .inOut)
            case .indicator:
                fields.indicated(
                    columns[.amount]!, columns.indicator!, currency: currency,
                    debit: debitIndicators, credit: creditIndicators)
            }
        guard let fee = columns[.fee], let net = amount else { return amount }
        return fields.withFee(net, fee, sign: dialect.feeSign)
    }

    /// The slot of a row's account in the file: the previous row's, a known one, or a new one
    /// that `first` starts; `nil` when the row's currency is not the account's.
    @inline(__always)
    private func slot(
        of accountID: AccountID, _ currency: Currency, kind: Account.Kind?,
        first: (Money, declared: Money?),
        _ fields: inout CSVFieldReader, _ columns: Columns, _ state: inout RowState, line: Int
    ) -> Int? {
        let cached = state.lastSlot.flatMap { $0.accountID == accountID ? $0.slot : nil }
        let slot: Int
        if let known = cached ?? state.accountSlots[accountID] {
            guard state.accounts[known].account.currency == currency else {
                reportCurrency(currency, of: known, &fields, columns, &state)
                return nil
            }
            slot = known
        } else {
            slot = addAccount(
                accountID, currency, kind: kind, first: first, &fields, columns, &state, line)
        }
        state.lastSlot = (accountID, slot)
        return slot
    }

    /// Starts an account at its first row.
    private func addAccount(
        _ accountID: AccountID, _ currency: Currency, kind: Account.Kind?,
        first: (Money, declared: Money?),
        _ fields: inout CSVFieldReader, _ columns: Columns, _ state: inout RowState, _ line: Int
    ) -> Int {
        let name = columns[.accountName].flatMap { fields.optionalText($0) } ?? state.fixedName
        let slot = state.accounts.count
        state.accountSlots.insert(accountID, slot)
        state.accounts.append(
            RowState.AccountState(
                account: Account(
                    id: accountID, name: name,
                    kind: kind ?? (accountID.scheme == .card ? .creditCard : .checking),
                    currency: currency),
                firstLine: line, balance: RunningBalance(newestFirst: dialect.isNewestFirst),
                start: state.skippedBeforeFirstRow.contains(accountID)
                    ? .unreadableRow : .row(amount: first.0, declared: first.declared)))
        return slot
    }

    /// Reports a row in another currency than its account's.
    private func reportCurrency(
        _ currency: Currency, of slot: Int, _ fields: inout CSVFieldReader, _ columns: Columns,
        _ state: inout RowState
    ) {
        let account = state.accounts[slot]
        state.accounts[slot].hasCurrencyConflicts = true
        fields.report(
            .rowCurrency(
                currency, account: account.account.id,
                accountCurrency: account.account.currency, line: account.firstLine),
            at: columns[.currency] ?? columns.amountField)
    }

    /// Counts a row's amount into its account's total and running balance, reporting a
    /// balance the row states that the amounts do not reach.
    @inline(__always)
    private func count(
        _ amount: Money, declared declaredBalance: Money?, on date: Day, into slot: Int,
        _ fields: inout CSVFieldReader, _ columns: Columns, _ state: inout RowState
    ) {
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
                amount, declared: declaredBalance, day: date, line: fields.record.line)
        if let mismatch {
            fields.report(
                .balance("balance", mismatch), at: columns[.balance] ?? columns.amountField)
        }
    }
}
