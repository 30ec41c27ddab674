/// Writes the accounts of the ledger as an aligned table or as JSON.
package struct AccountsRenderer: Sendable {
    /// The output formats of `statements accounts`.
    package enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    package let format: Format

    /// Creates a renderer for a format.
    package init(format: Format) {
        self.format = format
    }

    package func render(_ accounts: [AccountSummary], into out: inout some TextOutputStream) {
        switch format {
        case .text: out.write(table(accounts))
        case .json: out.write(json(accounts))
        }
    }

    private func table(_ accounts: [AccountSummary]) -> String {
        guard !accounts.isEmpty else { return "no accounts in the ledger yet\n" }
        let header = [
            accounts.allSatisfy { $0.account.id.iban != nil } ? "IBAN" : "ACCOUNT", "NAME", "KIND",
            "CUR", "TRANSACTIONS", "BALANCE", "FROM", "TO", "LAST IMPORT",
        ]
        let rows = accounts.map { summary in
            [
                summary.account.id.grouped, Diagnostic.sanitized(summary.account.name ?? "-"),
                summary.account.kind.rawValue, summary.account.currency.code,
                summary.transactionCount.groupedText,
                String(summary.balance.groupedText.dropLast(4)), summary.firstDate?.isoText ?? "-",
                summary.lastDate?.isoText ?? "-", summary.lastImport ?? "-",
            ]
        }
        let rightAligned: Set = [4, 5]
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max()!
        }
        return ([header] + rows).map { row in
            row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return rightAligned.contains(column) ? padding + row[column] : row[column] + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n") + "\n"
    }

    private func json(_ accounts: [AccountSummary]) -> String {
        let objects = accounts.map { summary in
            let fields = [
                "\"id\": \(jsonString(summary.account.id.text))",
                "\"iban\": \(summary.account.id.iban.map { jsonString($0.electronic) } ?? "null")",
                "\"name\": \(summary.account.name.map(jsonString) ?? "null")",
                "\"kind\": \"\(summary.account.kind.rawValue)\"",
                "\"currency\": \"\(summary.account.currency.code)\"",
                "\"balance\": {\"minorUnits\": \(summary.balance.minorUnits), \"decimal\": \"\(summary.balance.decimalText)\"}",
                "\"transactionCount\": \(summary.transactionCount)",
                "\"firstDate\": \(summary.firstDate.map { "\"\($0.isoText)\"" } ?? "null")",
                "\"lastDate\": \(summary.lastDate.map { "\"\($0.isoText)\"" } ?? "null")",
                "\"lastImport\": \(summary.lastImport.map(jsonString) ?? "null")",
            ]
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }
}

extension String {
    /// The text without spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
    }
}
