extension SniffEvidence {
    /// The balance equation over the first rows, with the amounts as `dialect` reads them;
    /// `nil` without a balance column, with an account column (several accounts' balances
    /// interleave) or with an indicator column.
    func balanceChain(_ dialect: Dialect) -> BalanceChain? {
        guard dialect.columns[.balance] != nil, dialect.columns[.account] == nil else {
            return nil
        }
        let format = dialect.amountFormat
        var chain = BalanceChain()
        for (line, texts) in moneyTexts {
            var amount: Int64?
            switch dialect.sign {
            case .signed, .chargesPositive:
                amount = BalanceChain.scaled(texts[.amount], format)
            case .debitCredit, .inOut:
                let debit = BalanceChain.scaled(texts[.debit], format).map { 0 &- abs($0) }
                let credit = BalanceChain.scaled(texts[.credit], format).map { abs($0) }
                amount = debit == nil && credit == nil ? nil : (credit ?? 0) &+ (debit ?? 0)
            case .indicator:
                return nil
            }
            if dialect.columns[.fee] != nil, let net = amount,
                let fee = BalanceChain.scaled(texts[.fee], format)
            {
                amount = dialect.feeSign == .deducted ? net &- fee : net &+ fee
            }
            let balance = BalanceChain.scaled(texts[.balance], format)
            chain.rows.append(BalanceChain.Row(line: line, amount: amount, balance: balance))
        }
        return chain
    }

    /// Whether the dates list the rows newest first: most steps from row to row go back in
    /// time, or, where that does not tell, the last date is before the first; `nil` when the
    /// dates are one day or cannot be read.
    func datesListNewestFirst(_ dialect: Dialect) -> Bool? {
        // Most steps from row to row, where the layout orders dates by number: a backdated
        // last row does not turn an oldest-first file around.
        let pattern = dialect.dateFormat.pattern
        let order: DateOrder? =
            switch dateLayout {
            case .yearFirst, .compact: yearFirstOrder
            case .yearLast:
                pattern.hasPrefix("yy")
                    ? twoDigitYearFirstOrder
                    : pattern.hasPrefix("d")
                        ? dayFirstOrder : pattern.hasPrefix("M") ? monthFirstOrder : nil
            default: nil
            }
        if let mostly = order?.fallsMostly { return mostly }
        let format = dialect.dateFormat
        let day = { (sample: Sample) in try? format.day(parsing: sample.text.utf8.span) }
        guard let firstDate, let lastDate, let first = day(firstDate),
            let last = try? format.day(parsing: lastDate.span),
            first != last
        else { return nil }
        return first > last
    }

    /// What the balance column proves of the sign convention.
    enum BalanceProof {
        case proved, unproved
        /// On a card account, a positive balance that rises by each amount while most
        /// amounts are negative: what is owed, with payments outnumbering charges, or a
        /// prepaid card's money, spent; the file cannot tell.
        case open
    }

    /// Decides the row order and the sign convention from the balance column, when the
    /// balance equation holds in exactly one reading and the dates do not list the rows the
    /// other way (a column of balances *before* each booking holds in the other order with
    /// the other sign, and proves nothing); each conclusion that is more than the file's plain
    /// reading is said.
    ///
    /// When the dates cannot tell the order (one day) and the reading would turn the signs
    /// the file writes, the two readings give every amount opposite signs: refused.
    func decideByBalance(
        into dialect: inout Dialect, isCard: Bool, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) -> BalanceProof {
        guard let chain = balanceChain(dialect), let reading = chain.provenReading else {
            return .unproved
        }
        let datesSay = datesListNewestFirst(dialect)
        if let datesSay, datesSay != reading.isNewestFirst { return .unproved }
        let (positive, count) = chain.positiveBalances
        // A card's positive balance is what is owed, unless rows typed as sales are negative
        // while the balance rises by the amounts as written: money, on an account that pays
        // by card.
        let chargesWrittenNegative = charges.negative > 0 && charges.positive == 0
        let owes =
            isCard && positive * 2 > count
            && !(chargesWrittenNegative && !reading.isOpposite)
        if owes, dialect.sign == .signed, !reading.isOpposite,
            negativeAmounts * 3 > amountCount
        {
            // A card's charges outnumber its payments: amounts that are not two-thirds
            // positive may as well be a prepaid card's money (top-ups in, spending out).
            return .open
        }
        if dialect.sign == .signed, negativeAmounts == 0, reading.isOpposite, !owes {
            // Amounts without a sign that the balance falls by: the first row, which no
            // balance before it checks, may be money in or out.
            return .open
        }
        if datesSay == nil, reading.isOpposite, !owes || dialect.sign == .signed {
            throw refuse(firstDate, .balanceEitherWay)
        }
        dialect.isNewestFirst = reading.isNewestFirst
        func say(_ message: DiagnosticMessage) {
            assumptions.append(Diagnostic.Finding(line: header.line, column: 1, message: message))
        }
        switch (dialect.sign, reading.isOpposite) {
        case (.signed, false) where owes:
            dialect.sign = .chargesPositive
            say(.balanceOwed)
        case (.signed, true) where owes:
            // Charges written negative that a positive balance rises by: what is owed.
            dialect.columns[.balance] = nil
            say(.balanceOwedByCharges)
        case (.signed, true) where !isCard:
            // A balance that falls by each positive amount on an account not known as a card:
            // charges written positive beside the money left, or charges written negative
            // beside what is owed; only the account's kind tells.
            return .open
        case (.signed, true), (.chargesPositive, true):
            dialect.sign = .chargesPositive
            dialect.columns[.balance] = nil
            say(.balanceFallsByAmounts)
        case (.debitCredit, true) where owes, (.inOut, true) where owes:
            dialect.columns[.balance] = nil
            say(.balanceOwedByDebits)
        case (.debitCredit, true), (.inOut, true):
            let (debit, credit) = (dialect.columns[.debit], dialect.columns[.credit])
            (dialect.columns[.debit], dialect.columns[.credit]) = (credit, debit)
            say(
                .balanceSwapsDebitCredit(
                    debit: debit?.first.map(Self.columnText) ?? "debit",
                    credit: credit?.first.map(Self.columnText) ?? "credit"))
        default:
            break
        }
        return .proved
    }

    /// Reads a fee in a column of its own (`Fee`, `Gebühr`) the one way the balance column
    /// proves: taken from the amount, or added with its sign; refuses a fee that no balance
    /// shows how to count (the account would miss it).
    func decideFee(into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding])
        throws(DialectSniffer.Refusal)
    {
        guard let fee, let column = header.feeColumn else { return }
        let holds = { (dialect: Dialect) in
            self.balanceChain(dialect).map { !$0.holdingReadings().readings.isEmpty } ?? false
        }
        // Three readings: the fee already in the amount (PayPal's `Net`), taken from it, or
        // added with its sign. Exactly one must hold: a fee on a row that no balance before
        // it checks holds every way.
        let included = holds(dialect)
        dialect.columns[.fee] = [header.line == 0 ? .number(column.index + 1) : .name(column.text)]
        let holding = Dialect.FeeSign.allCases.filter { sign in
            dialect.feeSign = sign
            return holds(dialect)
        }
        guard holding.count + (included ? 1 : 0) == 1 else {
            dialect.columns[.fee] = nil
            throw refuse(fee, .feeBesideAmount(column: column.text, example: quoted(fee)))
        }
        if included {
            dialect.columns[.fee] = nil
            assumptions.append(
                Diagnostic.Finding(
                    line: fee.line, column: fee.column,
                    message: .feeInAmount(column: column.text, example: quoted(fee))))
            return
        }
        dialect.feeSign = holding[0]
        assumptions.append(
            Diagnostic.Finding(
                line: fee.line, column: fee.column,
                message: .feeByBalance(
                    column: column.text, example: quoted(fee), sign: holding[0])))
    }

    /// Takes a dated last row labelled as the closing balance (`31.10.2026;Neuer
    /// Kontostand;1.700,00`) as the footer's closing balance, said; refuses a row labelled as a
    /// balance anywhere else, which is no booking and which the parser would read as one.
    func decideBalanceRow(
        into dialect: inout Dialect, _ assumptions: inout [Diagnostic.Finding]
    ) throws(DialectSniffer.Refusal) {
        if let misplacedBalanceRow {
            throw refuse(misplacedBalanceRow, .balanceRowAmongBookings(quoted(misplacedBalanceRow)))
        }
        guard let row = balanceRow else { return }
        // The last row of a file listed newest first is the oldest: a balance labelled as the
        // opening one is the balance before the rows. One labelled only as a balance
        // (`Kontostand`) may be either, dated before the rows or after them: refused.
        let item: Dialect.PreambleItem
        switch (row.item, dialect.isNewestFirst) {
        case (.balance(.closingBalance), false): item = .closingBalance
        case (.balance(.openingBalance), true): item = .openingBalance
        default: throw refuse(row.sample, .balanceRowAmongBookings(quoted(row.sample)))
        }
        dialect.footerLines += 1
        dialect.footer[item] = Dialect.PreamblePosition(
            line: dialect.footerLines, field: row.field + 1)
        assumptions.append(
            Diagnostic.Finding(
                line: row.sample.line, column: row.sample.column,
                message: .balanceRowAsFooter(quoted(row.sample), item)))
    }
}
