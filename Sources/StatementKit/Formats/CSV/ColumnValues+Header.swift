import Foundation

extension ColumnValues {
    /// Names by their values the columns that header words left unnamed: currency codes, a
    /// status of known words, and every column of text as the description, joined.
    func nameByValues(
        _ columns: [Column], taken: Set<Int>, _ roles: inout [Dialect.Field: Int],
        descriptions: inout [Int]
    ) {
        let named = Set(roles.values)
        var free = columns.filter { !taken.contains($0.index) && !named.contains($0.index) }
        func take(_ field: Dialect.Field, where fits: (Column) -> Bool) {
            guard roles[field] == nil, let column = free.first(where: fits) else { return }
            roles[field] = column.index
            free.removeAll { $0.index == column.index }
        }
        take(.currency) { column in
            column.filled > 0 && column.values.allSatisfy { Currency(code: $0) != nil }
        }
        let statuses = SniffEvidence.bookedStatuses.union(SniffEvidence.notBookedStatuses)
        take(.status) { column in
            column.filled > 0 && column.values.allSatisfy { statuses.contains($0.uppercased()) }
        }
        if names == nil {
            // Without a header: a column of debit/credit words beside unsigned amounts gives
            // the sign; a column of one valid IBAN on every row names the account (said as an
            // assumption, `DialectSniffer`).
            if roles[.amount] != nil {
                // Two such columns that say debit and credit differently on a row (`D` beside
                // `H`) leave the sign open.
                let indicators = free.filter { column in
                    column.filled == column.cells.count
                        && SniffEvidence.isIndicatorPair(Set(column.values.map { $0.uppercased() }))
                }
                let says = indicators.map { column in
                    column.cells.map { SniffEvidence.indicatorWords[$0.uppercased()] }
                }
                if let first = indicators.first, says.allSatisfy({ $0 == says[0] }) {
                    take(.indicator) { $0.index == first.index }
                }
            }
            // Several IBANs, each on a block of rows, are several accounts' (refused when
            // the whole file is read, `DialectSniffer`); IBANs that change from row to row
            // are the counterparties'.
            take(.account) { column in
                column.cells.count >= 2 && column.filled == column.cells.count
                    && column.values.allSatisfy(SniffEvidence.isIBANShaped)
                    && Self.isInBlocks(column.cells)
                    && (Set(column.values).count > 1 || Self.holdsIBANs(column))
            }
            take(.beneficiaryIBAN) { column in column.filled > 0 && Self.holdsIBANs(column) }
        }
        guard roles[.beneficiary] == nil, roles[.description] == nil else { return }
        // Every column of text, in file order: which one tells the rows apart most depends
        // on the rows a file holds, and two overlapping exports must read the same row alike.
        // Not a column of a few words among which are status or debit/credit words, which
        // another file of the same export may read as a status or a sign: the text of the
        // rows they share would differ.
        let words = statuses.union(SniffEvidence.indicatorWords.keys)
        let texts = free.filter { column in
            column.filled > 0 && column.values.contains { $0.contains(where: \.isLetter) }
                && !(Set(column.values).count <= 5
                    && column.values.contains { words.contains($0.uppercased()) })
        }
        descriptions = texts.map(\.index)
    }

    /// Whether every filled cell of a column is a valid IBAN.
    static func holdsIBANs(_ column: Column) -> Bool {
        column.values.allSatisfy { (try? IBAN(parsing: $0)) != nil }
    }

    /// Whether each value of the cells stands on one run of rows, with two rows a value at
    /// least on the average.
    static func isInBlocks(_ cells: [String]) -> Bool {
        var runs = 0
        for (index, cell) in cells.enumerated() where index == 0 || cells[index - 1] != cell {
            runs += 1
        }
        return runs == Set(cells).count && runs * 2 <= cells.count
    }

    /// A column by its header text; by number when the file has no header, or two columns
    /// share a text.
    func reference(_ index: Int) -> Dialect.ColumnReference {
        guard let names else { return .number(index + 1) }
        let text = names[index].trimmingCharacters(in: .whitespaces)
        let shared = names.count { $0.trimmingCharacters(in: .whitespaces) == text } > 1
        return shared || text.isEmpty ? .number(index + 1) : .name(text)
    }

    /// The header of the roles found, naming each column by its header text (by number when
    /// the file has no header, or two columns share a text).
    func makeHeader(
        _ roles: [Dialect.Field: Int], separator: UInt8, line: Int,
        preamble: [ColumnRoles.Record]
    ) -> DialectSniffer.Header {
        var columns: [Dialect.Field: [Dialect.ColumnReference]] = [:]
        var currency: Currency?
        for (field, index) in roles {
            columns[field] = [reference(index)]
            if let names, [.amount, .debit, .credit].contains(field) {
                let text = names[index].trimmingCharacters(in: .whitespaces)
                // `Amount (EUR)`, `Betrag in CHF`; or a code with a sign, such as `CAD$`.
                currency =
                    currency ?? HeaderVocabulary.normalized(text).currency
                    ?? Currency(code: text.filter(\.isLetter).uppercased())
            }
        }
        let lower = (names ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let type = lower.firstIndex(where: HeaderVocabulary.typeNames.contains)
        var header = DialectSniffer.Header(
            separator: separator, line: line, columns: columns, indices: roles,
            currency: currency, preamble: preamble.map { ($0.line, $0.fields) },
            typeColumn: roles[.amount] != nil && roles[.indicator] == nil
                ? type.map { ($0, names![$0].trimmingCharacters(in: .whitespaces)) } : nil)
        header.noteNamedColumns(lower: lower, texts: names ?? [])
        return header
    }
}
