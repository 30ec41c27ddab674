/// Writes a register as a table of at most `width` columns (100 unless told), CSV or JSON.
package struct RegisterRenderer: Sendable {
    /// The output formats of `statements register`.
    package enum Format: String, CaseIterable, Sendable {
        case text, csv, json
    }

    package let format: Format
    /// The columns a line of the table may take (a line is wider only where a table of
    /// this width cannot be: the transaction's text keeps 12 columns).
    package let width: Int

    /// Creates a renderer for a format.
    package init(format: Format, width: Int = TextStatementRenderer.maximumWidth) {
        self.format = format
        self.width = width
    }

    package func render(_ register: Register, into out: inout some TextOutputStream) {
        switch format {
        case .text: table(register, into: &out)
        case .csv: csv(register, into: &out)
        case .json: json(register, into: &out)
        }
    }

    /// Date, account (when several), beneficiary · description, amount and balance; long
    /// texts cut with `…` so that a line fits `width` columns.
    private func table(_ register: Register, into out: inout some TextOutputStream) {
        guard !register.rows.isEmpty else {
            out.write("no transactions\n")
            return
        }
        let rows = register.rows.map { row in
            let transaction = row.transaction
            let text = [transaction.beneficiary, transaction.descriptionBesideBeneficiary ?? ""]
                .filter { !$0.isEmpty }.joined(separator: " · ")
            return [
                transaction.date.isoText,
                Diagnostic.sanitized(row.account.label),
                text.neutralized, transaction.amount.groupedText, row.balance.groupedText,
            ]
        }
        let header = ["DATE", "ACCOUNT", "TRANSACTION", "AMOUNT", "BALANCE"]
        let shown = register.hasSeveralAccounts ? [0, 1, 2, 3, 4] : [0, 2, 3, 4]
        var widths = header.indices.map { column in
            ([header] + rows).map { $0[column].displayWidth }.max()!
        }
        widths[1] = min(widths[1], 20)
        let others = shown.filter { $0 != 2 }.reduce(0) { $0 + widths[$1] }
        widths[2] = max(
            12, min(widths[2], width - others - 2 * (shown.count - 1)))
        for row in [header] + rows {
            let cells = shown.map { column in
                column >= 3
                    ? row[column].padded(toWidth: widths[column], right: true)
                    : row[column].truncated(toWidth: widths[column]).padded(toWidth: widths[column])
            }
            out.write(cells.joined(separator: "  ") + "\n")
        }
        out.write("\(register.rows.count.counted("transaction"))\n")
    }

    private func csv(_ register: Register, into out: inout some TextOutputStream) {
        let field = { (text: String) in CSVStatementRenderer.cell(text.reportField) }
        out.write("date,account,beneficiary,description,reference,amount,currency,balance\r\n")
        for row in register.rows {
            let transaction = row.transaction
            let fields = [
                transaction.date.isoText, field(row.account.id.text),
                field(transaction.beneficiary),
                field(transaction.description ?? ""), field(transaction.reference ?? ""),
                transaction.amount.decimalText, transaction.amount.currency.code,
                row.balance.decimalText,
            ]
            out.write(fields.joined(separator: ",") + "\r\n")
        }
    }

    private func json(_ register: Register, into out: inout some TextOutputStream) {
        let objects = register.rows.map { row in
            let transaction = row.transaction
            let fields = [
                "\"date\": \"\(transaction.date.isoText)\"",
                "\"account\": \(jsonString(row.account.id.text))",
                "\"beneficiary\": \(jsonString(transaction.beneficiary))",
                "\"description\": \(transaction.description.map(jsonString) ?? "null")",
                "\"reference\": \(transaction.reference.map(jsonString) ?? "null")",
                "\"currency\": \"\(transaction.amount.currency.code)\"",
                "\"amount\": \(transaction.amount.jsonObject)",
                "\"balance\": \(row.balance.jsonObject)",
            ]
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        out.write(objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n")
    }
}
