extension ColumnRoles {
    /// What the columns of a file without a readable header hold, for its refusal: the dates
    /// and amounts recognised and what a statement needs beside them; `nil` when no line of
    /// the first 50 has rows with a date or an amount under it, or names canonical columns
    /// (canonical CSV with a fault, which the canonical reader reports).
    static func recognition(_ text: [UInt8]) -> Diagnostic.Finding? {
        var best: (finding: Diagnostic.Finding, score: Int)?
        for separator in DialectSniffer.separators {
            let records = self.records(text, separator: separator)
            for start in records.indices.prefix(DialectSniffer.headerSearchLimit) {
                let fields = records[start].fields
                guard fields.count >= 2 else { continue }
                if fields.contains(where: {
                    Dialect.Field(rawValue: $0)?.rawValue.contains("_") == true
                }) {
                    return nil
                }
                let isRow = fields.contains { ColumnValues.dateShape($0) != nil }
                if isRow && start > 0 { continue }
                let rows = records[(isRow ? start : start + 1)...].filter {
                    $0.fields.count == fields.count
                }.prefix(rowLimit)
                guard !rows.isEmpty else { continue }
                let values = ColumnValues(rows: Array(rows), names: isRow ? nil : fields)
                guard let (message, score) = values.recognition(), score > (best?.score ?? 0)
                else { continue }
                let finding = Diagnostic.Finding(
                    line: records[start].line, column: 1, message: message)
                best = (finding, score)
                break
            }
        }
        return best?.finding
    }
}

extension ColumnValues {
    /// What the columns hold, as a refusal, and how many columns were recognised.
    func recognition() -> (DiagnosticMessage, Int)? {
        let columns = self.columns
        let dates = columns.filter(\.isDate)
        let money = columns.filter(\.isAmount)
        guard !dates.isEmpty || !money.isEmpty else { return nil }
        func named(_ list: [Column]) -> String {
            list.map {
                names == nil ? "column \($0.index + 1)" : Diagnostic.quote(columnText($0.index))
            }.joined(separator: ", ")
        }
        var recognised: [String] = []
        if !dates.isEmpty { recognised.append("dates in \(named(dates))") }
        if !money.isEmpty { recognised.append("amounts in \(named(money))") }
        let taken = Set((dates + money).map(\.index))
        let texts = columns.filter { column in
            !taken.contains(column.index)
                && column.values.contains { $0.contains(where: \.isLetter) }
        }
        var missing: [String] = []
        if dates.isEmpty { missing.append("a column of dates") }
        if money.isEmpty {
            missing.append("a column of amounts")
        } else if !money.contains(where: \.hasNegative), money.count > 1 {
            missing.append("which column is the amount")
        }
        if texts.isEmpty { missing.append("a column of text (a payee or description)") }
        if missing.isEmpty { missing.append("a reading its header words or a balance prove") }
        return (
            .recognisedOnly(recognised: recognised, missing: missing), dates.count + money.count
        )
    }
}
