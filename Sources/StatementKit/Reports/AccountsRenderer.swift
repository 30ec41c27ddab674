/// Writes the accounts of the ledger as an aligned table or as JSON.
package struct AccountsRenderer: Sendable {
    /// The output formats of `statements accounts`.
    package enum Format: String, CaseIterable, Sendable {
        case text, json
    }

    package let format: Format
    /// The columns a line of the table may take.
    package let width: Int

    /// Creates a renderer for a format.
    package init(format: Format, width: Int = TextStatementRenderer.maximumWidth) {
        self.format = format
        self.width = width
    }

    package func render(_ accounts: [AccountSummary], into out: inout some TextOutputStream) {
        switch format {
        case .text: out.write(table(accounts))
        case .json: out.write(json(accounts))
        }
    }

    /// An aligned table of at most `width` columns: long names are cut with `…`, and when the
    /// account ids are long, the last import, the kind and the first date are left out, in
    /// that order (JSON has them all).
    private func table(_ accounts: [AccountSummary]) -> String {
        guard !accounts.isEmpty else { return "no accounts in the ledger yet\n" }
        let header = [
            accounts.allSatisfy { $0.account.id.iban != nil } ? "IBAN" : "ACCOUNT", "NAME", "KIND",
            "CUR", "TRANSACTIONS", "BALANCE", "FROM", "TO", "LAST IMPORT",
        ]
        let rows = accounts.map { summary in
            [
                summary.account.id.grouped, summary.account.label.neutralized,
                summary.account.kind.rawValue, summary.account.currency.code,
                summary.transactionCount.groupedText,
                String(summary.balance.groupedText.dropLast(4)), summary.firstDate?.isoText ?? "-",
                summary.lastDate?.isoText ?? "-", summary.lastImport ?? "-",
            ]
        }
        let (name, rightAligned) = (1, [4, 5] as Set)
        var widths = header.indices.map { column in
            ([header] + rows).map { $0[column].displayWidth }.max()!
        }
        var shown = Array(header.indices)
        let limit = self.width
        func width(nameWidth: Int) -> Int {
            shown.reduce(0) { $0 + ($1 == name ? nameWidth : widths[$1]) } + 2 * (shown.count - 1)
        }
        for optional in [8, 2, 6] where width(nameWidth: min(widths[name], 24)) > limit {
            shown.removeAll { $0 == optional }
        }
        widths[name] = max(4, min(widths[name], limit - width(nameWidth: 0)))
        return ([header] + rows).map { row in
            shown.map { column in
                let cell =
                    column == name ? row[column].truncated(toWidth: widths[name]) : row[column]
                return cell.padded(toWidth: widths[column], right: rightAligned.contains(column))
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n") + "\n" + bankBalances(accounts)
    }

    /// A line per account with balances its bank stated: the latest, the day it holds at
    /// the end of, and whether the ledger agrees.
    private func bankBalances(_ accounts: [AccountSummary]) -> String {
        let lines = accounts.compactMap { summary -> String? in
            guard let (assertion, ledger) = summary.bankBalance else { return nil }
            let difference = Money(
                minorUnits: ledger.minorUnits &- assertion.balance.minorUnits,
                currency: ledger.currency)
            let agreement =
                difference.minorUnits == 0
                ? "the ledger agrees"
                : "the ledger has \(ledger.groupedText), \(difference.moreOrLessText)"
            let state = summary.outOfBalance.map {
                "; out of balance since \($0.since.isoText), \($0.difference.moreOrLessText)"
            }
            return
                "  \(summary.account.id.grouped): \(assertion.balance.groupedText) at the end of \(assertion.day.isoText), \(agreement)\(state ?? "")"
        }
        return lines.isEmpty ? "" : "bank balances:\n" + lines.joined(separator: "\n") + "\n"
    }

    private func json(_ accounts: [AccountSummary]) -> String {
        let objects = accounts.map { summary in
            let fields = [
                "\"id\": \(jsonString(summary.account.id.text))",
                "\"iban\": \(summary.account.id.iban.map { jsonString($0.electronic) } ?? "null")",
                "\"name\": \(summary.account.name.map(jsonString) ?? "null")",
                "\"kind\": \"\(summary.account.kind.rawValue)\"",
                "\"currency\": \"\(summary.account.currency.code)\"",
                "\"balance\": \(summary.balance.jsonObject)",
                "\"transactionCount\": \(summary.transactionCount)",
                "\"firstDate\": \(summary.firstDate.map { "\"\($0.isoText)\"" } ?? "null")",
                "\"lastDate\": \(summary.lastDate.map { "\"\($0.isoText)\"" } ?? "null")",
                "\"lastImport\": \(summary.lastImport.map(jsonString) ?? "null")",
                "\"bankBalance\": \(bankBalance(summary))",
                "\"outOfBalance\": \(ImportReportRenderer.json(summary.outOfBalance))",
            ]
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }
}

/// The latest balance the bank stated as JSON, with the ledger's balance at its day.
private func bankBalance(_ summary: AccountSummary) -> String {
    guard let (assertion, ledger) = summary.bankBalance else { return "null" }
    return
        "{\"day\": \"\(assertion.day.isoText)\", \"balance\": \(assertion.balance.jsonObject), "
        + "\"ledger\": \(ledger.jsonObject), \"source\": \(jsonString(assertion.source)), "
        + "\"line\": \(assertion.line)}"
}

extension Money {
    /// A difference of the ledger's balance from the bank's in words: `1,329.17 EUR more`,
    /// `12.00 EUR less`.
    package var moreOrLessText: String {
        minorUnits < 0 ? "\(negated.groupedText) less" : "\(groupedText) more"
    }
}

extension String {
    /// The text without spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
    }
}
