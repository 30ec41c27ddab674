/// Writes a dialect as the JSON of a profile, in the schema `Dialect(profile:path:)` reads,
/// with keys in a fixed order so that the output is stable and diffs well.
package struct ProfileRenderer {
    package init() {}

    /// The profile's JSON; with `lacksAccount`, `account.id` holds a placeholder that the
    /// user must replace (a profile with it cannot be used as it is), and so do the columns
    /// and the sign that `open` leaves open.
    package func render(
        _ dialect: Dialect, lacksAccount: Bool = false, open: SniffResult.OpenQuestions? = nil
    ) -> String {
        var lines: [String] = []
        func character(_ byte: UInt8) -> String { jsonString(String(UnicodeScalar(byte))) }
        lines.append("\"encoding\": \(jsonString(dialect.encoding.rawValue))")
        lines.append("\"separator\": \(character(dialect.separator))")
        lines.append("\"quote\": \(character(dialect.quote))")
        lines.append("\"decimalMark\": \(character(dialect.amountFormat.decimalMark))")
        lines.append(
            "\"thousandsSeparator\": \(dialect.amountFormat.thousandsSeparator.map(character) ?? "\"\"")"
        )
        let dateFormats = open?.dateFormats ?? []
        lines.append(
            "\"dateFormat\": "
                + jsonString(
                    dateFormats.isEmpty
                        ? dialect.dateFormat.pattern
                        : "FILL IN " + dateFormats.joined(separator: " or ")))
        lines.append("\"headerLine\": \(dialect.headerLine)")
        lines.append("\"footerLines\": \(dialect.footerLines)")
        lines.append(
            "\"rowOrder\": \(dialect.isNewestFirst ? "\"newest-first\"" : "\"oldest-first\"")")
        lines.append(
            "\"sign\": "
                + (open?.isSignOpen == true
                    ? "\"FILL IN signed (positive is money in) or charges-positive\""
                    : jsonString(dialect.sign.rawValue)))
        if dialect.sign == .indicator {
            let debit = dialect.debitIndicators.map(jsonString).joined(separator: ", ")
            let credit = dialect.creditIndicators.map(jsonString).joined(separator: ", ")
            lines.append("\"indicator\": { \"debit\": [\(debit)], \"credit\": [\(credit)] }")
        }
        if dialect.columns[.fee] != nil {
            lines.append("\"fee\": \(jsonString(dialect.feeSign.rawValue))")
        }
        if !dialect.notBooked.isEmpty {
            lines.append(
                "\"notBooked\": [\(dialect.notBooked.map(jsonString).joined(separator: ", "))]")
        }
        if let columns = columns(dialect, open: open) { lines.append(columns) }
        if let account = account(dialect, lacksAccount: lacksAccount) { lines.append(account) }
        if !dialect.accountsByName.isEmpty {
            let pairs = dialect.accountsByName.sorted { $0.key < $1.key }.map {
                "\(jsonString($0.key)): \(jsonString($0.value.text))"
            }
            lines.append("\"accounts\": { \(pairs.joined(separator: ", ")) }")
        }
        for (key, positions) in [("preamble", dialect.preamble), ("footer", dialect.footer)]
        where !positions.isEmpty {
            let items = Dialect.PreambleItem.allCases.compactMap { item in
                positions[item].map {
                    "\(jsonString(item.rawValue)): { \"line\": \($0.line), \"field\": \($0.field) }"
                }
            }
            lines.append("\"\(key)\": { \(items.joined(separator: ", ")) }")
        }
        return "{\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n}\n"
    }

    /// The `columns` member, with the amount column a question leaves open to fill in.
    private func columns(_ dialect: Dialect, open: SniffResult.OpenQuestions?) -> String? {
        guard !dialect.columns.isEmpty else { return nil }
        var columns = dialect.columns.sorted { $0.key < $1.key }.map { field, references in
            let values = references.map { reference in
                switch reference {
                case .name(let name): jsonString(name)
                case .number(let number): String(number)
                }
            }
            let value = values.count == 1 ? values[0] : "[\(values.joined(separator: ", "))]"
            return "    \(jsonString(field.rawValue)): \(value)"
        }
        if let choices = open?.amountColumns, !choices.isEmpty,
            let index = columns.firstIndex(where: { $0.hasPrefix("    \"amount\":") })
        {
            columns[index] =
                "    \"amount\": "
                + jsonString("FILL IN one of " + choices.joined(separator: ", "))
        }
        return "\"columns\": {\n\(columns.joined(separator: ",\n"))\n  }"
    }

    /// The `account` member, with a placeholder for an account the file does not name.
    private func account(_ dialect: Dialect, lacksAccount: Bool) -> String? {
        var account: [String] = []
        if let id = dialect.accountID {
            account.append(
                id.iban.map { "\"iban\": \(jsonString($0.electronic))" }
                    ?? "\"id\": \(jsonString(id.text))")
        } else if lacksAccount {
            account.append("\"id\": \"FILL IN the account's IBAN or scheme:value\"")
        }
        if let name = dialect.accountName { account.append("\"name\": \(jsonString(name))") }
        if let currency = dialect.accountCurrency {
            account.append("\"currency\": \(jsonString(currency.code))")
        }
        if !dialect.accountCurrencies.isEmpty {
            let codes = dialect.accountCurrencies.map { jsonString($0.code) }
            account.append("\"currencies\": [\(codes.joined(separator: ", "))]")
        }
        if let kind = dialect.accountKind {
            account.append("\"kind\": \(jsonString(kind.rawValue))")
        }
        return account.isEmpty ? nil : "\"account\": { \(account.joined(separator: ", ")) }"
    }
}
