import Foundation

extension ColumnValues {
    /// How the amount of a row is written: one signed column, or a debit and a credit column
    /// of which one is filled per row.
    enum AmountColumns: Hashable {
        case signed(Int)
        case pair(debit: Int, credit: Int)
    }

    /// Words of header texts that name the booking date among several date columns.
    static let postingWords = [
        "book", "post", "buch", "boek", "comptab", "contab", "bokf", "bogf", "kirjaus", "settle",
        "complet", "clear", "valut",
    ]

    /// Words of header texts that name an amount among several decimal columns.
    static let amountWords = [
        "amount", "betrag", "montant", "importe", "bedrag", "importo", "belopp", "beløb",
        "beløp", "summa", "määrä", "value", "valor", "kwota", "částka",
    ]

    func name(_ index: Int) -> String { names.map { $0[index].lowercased() } ?? "" }

    func vocabularyField(_ index: Int) -> Dialect.Field? {
        names.flatMap {
            HeaderVocabulary.field(
                named: HeaderVocabulary.normalized($0[index]).name, at: index, among: $0)
        }
    }

    /// The header that the roles make, with the header words that name the other columns.
    func header(separator: UInt8, line: Int, preamble: [ColumnRoles.Record])
        -> DialectSniffer.Header?
    {
        let columns = self.columns
        let dates = columns.filter(\.isDate)
        guard let date = preferredDate(dates) else { return nil }
        let money = columns.filter { $0.isAmount && $0.index != date.index }
        guard !money.isEmpty else { return nil }
        var open: SniffResult.OpenQuestions?
        var (amount, balance): (AmountColumns, Int?)
        if let decided = amountColumns(money) {
            (amount, balance) = decided
        } else {
            // One answer, for the profile to print; the questions are said.
            let guess = money.first(where: \.hasNegative) ?? money[0]
            (amount, balance) = (.signed(guess.index), nil)
            open = SniffResult.OpenQuestions(
                amountColumns: money.count > 1 ? money.map { columnText($0.index) } : [],
                isSignOpen: !money.contains(where: \.hasNegative))
        }
        var roles: [Dialect.Field: Int] = [.date: date.index]
        switch amount {
        case .signed(let index): roles[.amount] = index
        case .pair(let debit, let credit): (roles[.debit], roles[.credit]) = (debit, credit)
        }
        roles[.balance] = balance
        let taken = Set(roles.values).union(dates.map(\.index)).union(money.map(\.index))
        for column in columns where !taken.contains(column.index) {
            guard let field = vocabularyField(column.index), roles[field] == nil,
                ![.date, .amount, .debit, .credit, .balance].contains(field)
            else { continue }
            roles[field] = column.index
        }
        var descriptions: [Int] = []
        nameByValues(columns, taken: taken, &roles, descriptions: &descriptions)
        if let first = descriptions.first { roles[.description] = first }
        guard roles[.beneficiary] != nil || roles[.description] != nil else { return nil }
        var header = makeHeader(roles, separator: separator, line: line, preamble: preamble)
        if descriptions.count > 1 { header.columns[.description] = descriptions.map(reference) }
        header.openQuestions = open
        return header
    }

    /// A column as a profile names it: its header text, or its number.
    func columnText(_ index: Int) -> String {
        names.map { $0[index].trimmingCharacters(in: .whitespaces) } ?? String(index + 1)
    }

    /// The booking date among the date columns: the one the vocabulary names a date, else one
    /// named like posting, else the first.
    func preferredDate(_ dates: [Column]) -> Column? {
        dates.first { vocabularyField($0.index) == .date }
            ?? dates.first { column in
                Self.postingWords.contains { name(column.index).contains($0) }
            }
            ?? dates.first
    }

    /// The amount columns and the balance column: those the balance equation proves, else the
    /// one signed column, or the one named like an amount; `nil` when the values leave two
    /// readings open.
    func amountColumns(_ money: [Column]) -> (AmountColumns, Int?)? {
        guard !money.isEmpty else { return nil }
        let format = AmountFormat(decimalMark: Self.decimalMark(money), thousandsSeparator: nil)
        // An amount column is filled on every row; a pair fills one of its two.
        var candidates = money.filter { $0.filled == $0.cells.count }.map {
            AmountColumns.signed($0.index)
        }
        for first in money {
            for second in money where first.index != second.index && isPair(first, second) {
                candidates.append(.pair(debit: first.index, credit: second.index))
            }
        }
        let balances = money.filter { $0.filled == $0.cells.count }
        var proven: [(AmountColumns, Int)] = []
        // A balance after each row as written comes before one that holds only with the
        // signs turned (a column of balances before each row holds that way too).
        var plainlyProven: [(AmountColumns, Int)] = []
        for candidate in candidates {
            for balance in balances where !candidate.uses(balance.index) {
                let chain = self.chain(candidate, balance: balance.index, format)
                let (readings, links) = chain.holdingReadings()
                guard links >= 2 else { continue }
                let fitting = readings.filter { !$0.isOpposite || !candidate.isPair }
                if fitting.contains(where: { !$0.isOpposite }) {
                    plainlyProven.append((candidate, balance.index))
                } else if !fitting.isEmpty {
                    proven.append((candidate, balance.index))
                }
            }
        }
        if !plainlyProven.isEmpty { proven = plainlyProven }
        if proven.count == 1 { return proven[0] }
        if proven.count > 1 {
            // Two readings give the same money only when their amounts are the same.
            let sums = Set(proven.map { sum($0.0, format) })
            return sums.count == 1 ? proven[0] : nil
        }
        // Columns named debit and credit that each row fills one of.
        if let debit = money.first(where: { vocabularyField($0.index) == .debit }),
            let credit = money.first(where: { vocabularyField($0.index) == .credit }),
            isPair(debit, credit)
        {
            return (.pair(debit: debit.index, credit: credit.index), nil)
        }
        // Columns of the same amounts (a subtotal and a total without fees) are one reading;
        // a column of zeros (fees, round-ups) is none.
        let nonZero = money.filter { $0.values.contains(where: Self.isNonZero) }
        let named = nonZero.filter { column in
            vocabularyField(column.index) == .amount
                || Self.amountWords.contains { name(column.index).contains($0) }
        }.filter { vocabularyField($0.index) != .balance }
        if named.count == 1, named[0].hasNegative { return (.signed(named[0].index), nil) }
        if let first = (named.first ?? nonZero.first), first.hasNegative,
            nonZero.allSatisfy({ $0.cells == first.cells })
        {
            return (.signed(first.index), nil)
        }
        return nil
    }

    /// Whether two columns are a debit/credit pair: each row fills one of them, not both.
    func isPair(_ first: Column, _ second: Column) -> Bool {
        guard first.filled > 0, second.filled > 0 else { return false }
        return zip(first.cells, second.cells).allSatisfy { a, b in
            let (hasA, hasB) = (Self.isNonZero(a), Self.isNonZero(b))
            return hasA != hasB || (!hasA && !hasB && (!a.isEmpty || !b.isEmpty))
        }
    }

    static func isNonZero(_ text: String) -> Bool {
        text.contains { ("1"..."9").contains($0) }
    }

    func chain(_ amount: AmountColumns, balance: Int, _ format: AmountFormat) -> BalanceChain {
        var chain = BalanceChain()
        for row in rows {
            chain.rows.append(
                BalanceChain.Row(
                    line: row.line, amount: self.amount(amount, row.fields, format),
                    balance: BalanceChain.scaled(row.fields[balance], format)))
        }
        return chain
    }

    func amount(_ amount: AmountColumns, _ fields: [String], _ format: AmountFormat) -> Int64? {
        switch amount {
        case .signed(let index):
            return BalanceChain.scaled(fields[index], format)
        case .pair(let debit, let credit):
            let out = BalanceChain.scaled(fields[debit], format).map(abs)
            let into = BalanceChain.scaled(fields[credit], format).map(abs)
            return out == nil && into == nil ? nil : (into ?? 0) - (out ?? 0)
        }
    }

    func sum(_ amount: AmountColumns, _ format: AmountFormat) -> Int64 {
        rows.reduce(0) { $0 &+ (self.amount(amount, $1.fields, format) ?? 0) }
    }
}

extension ColumnValues.AmountColumns {
    var isPair: Bool {
        if case .pair = self { true } else { false }
    }

    func uses(_ index: Int) -> Bool {
        switch self {
        case .signed(let column): column == index
        case .pair(let debit, let credit): debit == index || credit == index
        }
    }
}
