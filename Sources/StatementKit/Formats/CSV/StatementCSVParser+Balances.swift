/// Reconciling a file's rows with the opening and closing balances its preamble declares,
/// as a JSON statement's are: the opening balance must be the one the first row's running
/// balance implies, and the opening balance plus the rows must be the closing balance.
extension StatementCSVParser {
    func reconcile(
        _ account: RowState.AccountState,
        _ declared: [Dialect.PreambleItem: RowState.DeclaredBalance],
        _ summary: inout ParseSummary, _ diagnostics: inout DiagnosticCollector
    ) {
        // Rows with errors leave the sum short: their diagnostics say what is wrong.
        guard diagnostics.errorCount == 0 else { return }
        let currency = account.account.currency
        func read(_ item: Dialect.PreambleItem) -> Money? {
            guard let balance = declared[item] else { return nil }
            let name = "preamble \(item.rawValue)"
            let format = dialect.amountFormat
            let result = Result { () throws(AmountError) in
                try format.money(parsing: balance.text.utf8.span, currency: currency)
            }
            switch result {
            case .success(let money):
                return dialect.sign == .chargesPositive ? money.negated : money
            case .failure(let error):
                diagnostics.report(
                    balance.text.isEmpty
                        ? .required(name)
                        : .amount(
                            name, Diagnostic.quote(balance.text), error, currency: currency,
                            example: dialect.amountFormat.example),
                    line: balance.line, column: balance.column)
                return nil
            }
        }
        let opening = read(.openingBalance)
        let closing = read(.closingBalance)
        guard diagnostics.errorCount == 0, let total = account.total else { return }
        let sum = Money(minorUnits: total, currency: currency)
        if let opening, let implied = account.balance.impliedOpening, implied != opening {
            let place = declared[.openingBalance]!
            diagnostics.report(
                .openingBalance(opening, implied: implied), line: place.line,
                column: place.column)
            return
        }
        let known = opening ?? account.balance.impliedOpening
        for (item, money) in [
            (Dialect.PreambleItem.openingBalance, opening), (.closingBalance, closing),
        ] {
            guard let money, item == .closingBalance || account.balance.impliedOpening == nil
            else { continue }
            summary.statedBalances.append(
                StatedBalance(
                    account: account.account, point: item == .openingBalance ? .opening : .closing,
                    balance: money, line: declared[item]!.line))
        }
        guard let closing else { return }
        guard let known else {
            // Only the closing balance: it tells the opening one.
            summary.openingBalances[account.account.id] = try? closing.subtracting(sum)
            return
        }
        summary.openingBalances[account.account.id] = known
        let place = declared[.closingBalance]!
        guard let computed = try? known.adding(sum) else {
            diagnostics.report(.sumOverflow, line: place.line, column: place.column)
            return
        }
        if computed != closing {
            diagnostics.report(
                .balance(
                    "preamble closingBalance",
                    .closingBalanceMismatch(declared: closing, computed: computed)),
                line: place.line, column: place.column)
        }
    }
}

extension StatementCSVParser {
    /// The balance a row states instead of a transaction: its amount is blank, its balance is
    /// not, and its text starts with a balance's label (`Beginning balance as of …`).
    func balanceRow(_ record: CSVRecord, _ columns: Columns) -> Dialect.PreambleItem? {
        let blank = { (field: Int?) in
            field.map { record.withField($0) { $0.trimmingSpaces.isEmpty } } ?? true
        }
        guard blank(columns[.amount]), blank(columns.debit), blank(columns.credit),
            !blank(columns[.balance])
        else { return nil }
        return (columns.beneficiaryFields + columns.descriptionFields).lazy.compactMap { field in
            HeaderVocabulary.balanceLabel(
                record.withField(field) { String(decoding: $0, as: UTF8.self) })
        }.first
    }

    /// Reads the balances the footer declares (`Dialect.footer`) into `state`.
    ///
    /// - Parameter firstLine: the line of the file the footer starts on.
    func readFooter(
        _ footer: [UInt8], firstLine: Int, _ state: inout RowState,
        _ diagnostics: inout DiagnosticCollector
    ) {
        var reader = makeReader(MemoryByteSource(footer), firstLine: firstLine)
        var lines: [(line: Int, fields: [(text: String, column: Int)])] = []
        while (try? reader.nextRecord()) == true {
            lines.append(
                reader.withRecord { record in
                    (
                        record.line,
                        record.fields.indices.map { field in
                            (
                                record.trimmedText(field),
                                record.location(ofField: field).column
                            )
                        }
                    )
                })
        }
        lines.removeAll { $0.fields.allSatisfy(\.text.isEmpty) }
        for (item, position) in dialect.footer.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let index = lines.count - position.line
            guard index >= 0, position.field <= lines[index].fields.count else {
                let line = index >= 0 ? lines[index].line : firstLine
                diagnostics.report(
                    .preambleLacksField(
                        position.field, line: line, for: item.rawValue, in: "footer"),
                    line: line, column: 1)
                continue
            }
            let (text, column) = lines[index].fields[position.field - 1]
            state.declaredBalances[item] = RowState.DeclaredBalance(
                text: text, line: lines[index].line, column: column)
        }
    }
}
