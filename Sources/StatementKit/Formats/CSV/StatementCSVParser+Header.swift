/// The head of a CSV file: its preamble and its header row, and the column layout they give.
extension StatementCSVParser {
    /// The column layout found in the header: the source field of each row field.
    struct Columns: Sendable {
        let count: Int
        /// The first source field of each row field, by its ordinal; -1 when absent.
        private let fieldIndex: [Int]
        /// The fields joined into the beneficiary and the description, in order.
        let beneficiaryFields: [Int]
        let descriptionFields: [Int]

        init(count: Int, fields: [Dialect.Field: [Int]]) {
            self.count = count
            fieldIndex = Dialect.Field.allCases.map { fields[$0]?.first ?? -1 }
            beneficiaryFields = fields[.beneficiary] ?? []
            descriptionFields = fields[.description] ?? []
        }

        subscript(field: Dialect.Field) -> Int? {
            let index = fieldIndex[field.ordinal]
            return index >= 0 ? index : nil
        }

        /// The fields of a dialect that splits the amount.
        var debit: Int? { self[.debit] }
        var credit: Int? { self[.credit] }
        var indicator: Int? { self[.indicator] }

        /// The field a problem with the amount is reported at.
        var amountField: Int { self[.amount] ?? debit ?? 0 }
    }

    func readHeader(_ record: CSVRecord, _ diagnostics: inout DiagnosticCollector)
        -> Columns?
    {
        guard reportIssues(record, &diagnostics) else { return nil }
        if !dialect.columns.isEmpty { return mappedColumns(record, &diagnostics) }
        var index: [Dialect.Field: Int] = [:]
        var unknown: [(name: String, field: Int)] = []
        for field in record.fields.indices {
            let name = record.withField(field) { String(decoding: $0, as: UTF8.self) }
            guard let column = Dialect.Field(canonicalHeader: name) else {
                unknown.append((name, field))
                continue
            }
            if index[column] != nil {
                let (line, col) = record.location(ofField: field)
                diagnostics.report(.columnTwice(name), line: line, column: col)
                return nil
            }
            index[column] = field
        }
        let missing = Dialect.Field.canonicalRequired.filter { index[$0] == nil }
        if !missing.isEmpty {
            diagnostics.report(
                .headerLacks(missing.map(\.rawValue)), line: record.line, column: 1)
            return nil
        }
        if let first = unknown.first {
            let (line, col) = record.location(ofField: first.field)
            // Name a few; a hostile header can have 100,000 columns.
            let names = unknown.prefix(5).map { Diagnostic.quote($0.name) }
            diagnostics.report(
                .ignoringColumns(names, more: unknown.count - names.count), line: line,
                column: col)
        }
        return Columns(count: record.fields.count, fields: index.mapValues { [$0] })
    }

    /// Finds the columns a dialect maps, by header text or position.
    func mappedColumns(
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
                            .profileColumnAmbiguous(
                                name, columns: matches.map { $0 + 1 }, field: field.rawValue),
                            line: record.line, column: 1)
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
                dialect.hasNoHeader
                    ? .firstRowLacksProfileColumns(missing, fieldCount: names.count)
                    : .headerLacksProfileColumns(missing), line: record.line, column: 1)
            return nil
        }
        return Columns(count: names.count, fields: fields)
    }

    /// A header text as profiles match it: without surrounding spaces, in lower case.
    static func normalizedHeader(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Reads what the dialect takes from a preamble line; `pending` keeps the items not found.
    func readPreamble(
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
            case .openingBalance, .closingBalance:
                state.declaredBalances[item] = RowState.DeclaredBalance(
                    text: text, line: line, column: column)
            case .name:
                state.fixedName = text.isEmpty ? nil : text
            case .currency:
                state.fixedCurrency = Currency(code: text)
                if state.fixedCurrency == nil {
                    diagnostics.report(
                        .currency(name, Diagnostic.quote(text)), line: line, column: column)
                }
            case .iban:
                // The IBAN may follow a label in the same field, as in "IBAN: DE89 …".
                if let iban = HeaderVocabulary.iban(in: text) {
                    state.fixedAccount = AccountID(iban)
                    continue
                }
                do throws(IBANError) {
                    state.fixedAccount = AccountID(try IBAN(parsing: text))
                } catch {
                    diagnostics.report(
                        text.isEmpty ? .required(name) : .iban(name, Diagnostic.quote(text), error),
                        line: line, column: column)
                }
            }
        }
    }

    /// Reports the preamble items that were never found; returns whether the account is known.
    func preambleIsComplete(
        _ pending: Set<Dialect.PreambleItem>, _ state: RowState,
        _ diagnostics: inout DiagnosticCollector
    ) -> Bool {
        for item in pending.sorted(by: { $0.rawValue < $1.rawValue }) {
            let position = dialect.preamble[item]!
            diagnostics.report(
                .preambleLacksField(
                    position.field, line: position.line, for: item.rawValue, in: "preamble"),
                line: position.line, column: 1)
        }
        return pending.isEmpty && (dialect.preamble[.iban] == nil || state.fixedAccount != nil)
            && (dialect.preamble[.currency] == nil || state.fixedCurrency != nil)
    }
}
