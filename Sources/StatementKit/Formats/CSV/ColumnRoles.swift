import Foundation

/// Finds the header and the columns of a bank export by what its columns hold, for a file
/// whose header words `HeaderVocabulary` does not know, or that has no header: a person reading
/// such a file never needs the words.
///
/// A date column is one whose cells all have one date shape; an amount column holds decimals;
/// the amount and balance columns are those for which the balance equation holds
/// (`BalanceChain`). Header words, where known, break ties and name the other columns.
enum ColumnRoles {
    /// How many records below a header are looked at.
    static let rowLimit = 200

    typealias Record = (line: Int, fields: [String])

    /// The header that the columns' values make, for the separator that gives the most roles.
    static func header(_ text: [UInt8]) -> DialectSniffer.Header? {
        var best: (header: DialectSniffer.Header, score: Int)?
        for separator in DialectSniffer.separators {
            let records = self.records(text, separator: separator)
            guard let header = header(records, separator: separator) else { continue }
            let score = header.indices.count
            if score > (best?.score ?? 0) { best = (header, score) }
        }
        return best?.header
    }

    /// Words of a header that say its rows are orders, products or contacts, not bookings.
    static let otherWords: Set<String> = [
        "order id", "order number", "order no.", "order #", "sku", "product id",
        "product name", "email", "e-mail", "phone", "telephone", "mobile", "first name",
        "last name", "street", "zip", "postcode", "postal code", "birthday", "asin",
        "shipping address",
    ]

    /// The first header text that names an order's, a product's or a contact's column.
    static func otherWord(_ fields: [String]) -> String? {
        fields.first { otherWords.contains(HeaderVocabulary.normalized($0).name) }
    }

    /// Why a file in which no header was found is not a statement at all: its first line
    /// names orders or contacts, or no row of it has a date beside an amount; `nil` when it
    /// may be a statement that needs a profile.
    static func notStatement(_ text: [UInt8]) -> Diagnostic.Finding? {
        let tables = DialectSniffer.separators.map { records(text, separator: $0) }
        guard
            let records = tables.max(by: {
                ($0.first?.fields.count ?? 0) < ($1.first?.fields.count ?? 0)
            }), let first = records.first
        else { return nil }
        if let word = otherWord(first.fields) {
            return Diagnostic.Finding(
                line: first.line, column: 1,
                message: .notStatement(
                    "its columns hold orders, products or contacts (\(Diagnostic.quote(word)))"))
        }
        guard records.count > 1 else { return nil }
        let dated = tables.contains { records in
            records.contains { record in
                record.fields.contains { ColumnValues.dateShape($0) != nil }
                    && record.fields.contains(where: ColumnValues.isAmountText)
            }
        }
        guard !dated else { return nil }
        return Diagnostic.Finding(
            line: first.line, column: 1,
            message: .notStatement("no row of it has a date beside an amount"))
    }

    /// The unmapped column whose values are the two words of a debit/credit pair (`C`, `D`;
    /// `Credit`, `Debet`), for a header whose words do not name it.
    static func indicatorColumn(_ text: [UInt8], _ header: DialectSniffer.Header)
        -> (index: Int, text: String)?
    {
        let records = self.records(text, separator: header.separator)
        let names = records.first { $0.line == header.line }?.fields
        let count = names?.count ?? records.first?.fields.count ?? 0
        let rows = records.filter { $0.line > header.line && $0.fields.count == count }
        guard rows.count >= 2 else { return nil }
        let taken = Set(header.indices.values)
        for index in 0..<count where !taken.contains(index) {
            guard SniffEvidence.isIndicatorPair(Set(rows.map { $0.fields[index].uppercased() }))
            else { continue }
            guard let names else { return nil }
            let name = names[index]
            return names.count(where: { $0 == name }) > 1 || name.isEmpty
                ? nil : (index, name)
        }
        return nil
    }

    /// The first records of a text, their fields without surrounding spaces.
    static func records(_ text: [UInt8], separator: UInt8) -> [Record] {
        var reader = CSVReader(source: MemoryByteSource(text), separator: separator)
        var records: [Record] = []
        while records.count < DialectSniffer.headerSearchLimit + rowLimit,
            (try? reader.nextRecord()) == true
        {
            records.append(
                reader.withRecord { record in
                    (
                        record.line,
                        record.fields.indices.map { index in
                            record.trimmedText(index)
                        }
                    )
                })
        }
        return records
    }

    /// The first line, from the top, under which the columns have a date and an amount; the
    /// first line itself when it is already a row (a file without header).
    static func header(_ records: [Record], separator: UInt8) -> DialectSniffer.Header? {
        for start in records.indices.prefix(DialectSniffer.headerSearchLimit) {
            let fields = records[start].fields
            guard fields.count >= 3, otherWord(fields) == nil else { continue }
            // A header with the canonical names (`account_iban`, the Formats article) is canonical CSV
            // with a fault, which the canonical reader reports.
            if fields.contains(where: {
                Dialect.Field(rawValue: $0)?.rawValue.contains("_") == true
            }) {
                return nil
            }
            let isRow = fields.contains { ColumnValues.dateShape($0) != nil }
            if isRow && start > 0 { continue }
            if !isRow, fields.contains(where: { ColumnValues.isAmountText($0) }) { continue }
            let rows = records[(isRow ? start : start + 1)...].filter {
                $0.fields.count == fields.count
            }.prefix(rowLimit)
            guard !rows.isEmpty else { continue }
            let roles = ColumnValues(rows: Array(rows), names: isRow ? nil : fields)
            if let header = roles.header(
                separator: separator, line: isRow ? 0 : records[start].line,
                preamble: Array(records[..<start]))
            {
                return header
            }
        }
        return nil
    }
}
