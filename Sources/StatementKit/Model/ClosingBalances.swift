/// Each account's closing balance in one month: what the index across all months shows,
/// kept beside a month's reports as `.closing-balances.tsv` (one line per account: id,
/// name, currency, closing balance in minor units) so that the index can be built from the
/// output folder alone.
package struct ClosingBalances: Hashable, Sendable {
    /// One account's line.
    package struct Line: Hashable, Sendable {
        package let account: AccountID
        package let name: String?
        package let balance: Money
    }

    package let month: Month
    package let lines: [Line]

    /// The closing balances of a month's statements, by account.
    package init(month: Month, statements: [MonthlyStatement]) {
        self.month = month
        lines = statements.sorted { $0.account.id < $1.account.id }.map {
            Line(account: $0.account.id, name: $0.account.name, balance: $0.closingBalance)
        }
    }

    /// The lines of several files of one month (the parts of a ledger split by account each
    /// write their own), by account; an account in more than one takes its line from the
    /// first.
    package init(month: Month, merging parts: [ClosingBalances]) {
        var lines: [AccountID: Line] = [:]
        for part in parts {
            for line in part.lines where lines[line.account] == nil { lines[line.account] = line }
        }
        self.month = month
        self.lines = lines.values.sorted { $0.account < $1.account }
    }

    /// The file's text.
    package var tsv: String {
        lines.map { line in
            let name = (line.name ?? "").map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }
            return
                "\(line.account.text)\t\(String(name))\t\(line.balance.currency.code)\t\(line.balance.minorUnits)\n"
        }.joined()
    }

    /// Reads a file written from `tsv`; `nil` when it is not one (the index then leaves the
    /// month out rather than show something wrong).
    package init?(month: Month, tsv: String) {
        var lines: [Line] = []
        for row in tsv.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let account = try? AccountID(parsing: String(fields[0])),
                let currency = Currency(code: String(fields[2])),
                let minorUnits = Int64(fields[3])
            else { return nil }
            lines.append(
                Line(
                    account: account, name: fields[1].isEmpty ? nil : String(fields[1]),
                    balance: Money(minorUnits: minorUnits, currency: currency)))
        }
        self.month = month
        self.lines = lines
    }
}
