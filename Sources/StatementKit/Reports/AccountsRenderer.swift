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
        // The cells one after another, a row of `header.count` each, and their widths,
        // worked out once: 100,000 accounts make 900,000 cells.
        var cells: [String] = []
        cells.reserveCapacity(accounts.count * header.count)
        for summary in accounts {
            // The id grouped once, for its cell and as the label of an account without name.
            let id = summary.account.id.grouped
            cells += [
                id, (summary.account.name ?? id).neutralized,
                summary.account.kind.rawValue, summary.account.currency.code,
                summary.transactionCount.groupedText, summary.balance.groupedNumber,
                summary.firstDate?.isoText ?? "-", summary.lastDate?.isoText ?? "-",
                summary.lastImport ?? "-",
            ]
        }
        let cellWidths = cells.map(\.displayWidth)
        let (name, rightAligned) = (1, [4, 5] as Set)
        var widths = header.map(\.displayWidth)
        for (index, width) in cellWidths.enumerated() {
            widths[index % header.count] = max(widths[index % header.count], width)
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
        // Written as UTF-8 into one buffer, each line without its trailing spaces.
        var text: [UInt8] = []
        func write(_ row: ArraySlice<String>, _ rowWidths: ArraySlice<Int>) {
            for (position, column) in shown.enumerated() {
                if position > 0 { text.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
                var cell = row[row.startIndex + column]
                var cellWidth = rowWidths[rowWidths.startIndex + column]
                if column == name && cellWidth > widths[name] {
                    cell = cell.truncated(toWidth: widths[name])
                    cellWidth = cell.displayWidth
                }
                let padding = repeatElement(
                    UInt8(ascii: " "), count: max(0, widths[column] - cellWidth))
                if rightAligned.contains(column) { text.append(contentsOf: padding) }
                text.append(contentsOf: cell.utf8)
                if !rightAligned.contains(column) { text.append(contentsOf: padding) }
            }
            while text.last == UInt8(ascii: " ") { text.removeLast() }
            text.append(UInt8(ascii: "\n"))
        }
        write(header[...], header.map(\.displayWidth)[...])
        for start in stride(from: 0, to: cells.count, by: header.count) {
            write(cells[start..<start + header.count], cellWidths[start..<start + header.count])
        }
        return String(decoding: text, as: UTF8.self) + bankBalances(accounts)
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
