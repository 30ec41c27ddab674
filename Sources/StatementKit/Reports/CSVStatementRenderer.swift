/// Renders a monthly statement as RFC 4180 CSV: one row per transaction, amounts as plain
/// decimals that a spreadsheet sums, cells safe against formula injection.
///
/// Every row names the account in its last column, so that statements pasted together stay
/// apart. The first row after the header is the opening balance (dated the day before the
/// month, at whose end it holds, with the account's name as its description) and the last the
/// closing balance (the month's last day): rows with no amount, so that sums stay right, and
/// the balance in the balance column, as the bank's stated balances the ledger does not hold.
package struct CSVStatementRenderer: Sendable {
    /// The header row.
    package static let header =
        "date,beneficiary,description,reference,amount,balance,currency,account"
    /// The UTF-8 byte order mark, by which Excel on Windows knows a CSV file's encoding.
    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether the file starts with a byte order mark (for Excel on Windows, which reads a CSV
    /// file without one in the system's code page: "CafÃ©").
    package let hasByteOrderMark: Bool

    /// Creates a renderer.
    package init(byteOrderMark: Bool = false) {
        hasByteOrderMark = byteOrderMark
    }

    package func render(_ statement: MonthlyStatement, into out: inout some TextOutputStream) {
        var bytes: [UInt8] = []
        render(statement, into: &bytes)
        out.write(String(decoding: bytes, as: UTF8.self))
    }

    /// Renders the statement as UTF-8 bytes, appended to `out`.
    package func render(_ statement: MonthlyStatement, into out: inout [UInt8]) {
        if hasByteOrderMark { out += Self.byteOrderMark }
        out.append(utf8: Self.header)
        out.append("\r\n")
        let currency = statement.account.currency.code
        let account = statement.account.id.text
        // Every row ends with its balance, the currency and the account.
        func endRow(balance: Money) {
            balance.appendDecimalText(to: &out)
            out.append(UInt8(ascii: ","))
            out.append(utf8: currency)
            out.append(UInt8(ascii: ","))
            out.append(utf8: account)
            out.append("\r\n")
        }
        statement.month.dayBefore.appendISOText(to: &out)
        out.append(utf8: ",Opening balance,")
        String.withReportField(statement.account.name) { Self.appendCell($0, to: &out) }
        out.append(utf8: ",,,")
        endRow(balance: statement.openingBalance)
        // By index: each field read in place, not a copy of each entry and its texts.
        let entries = statement.entries
        for index in entries.indices {
            // Dates, amounts and the currency code are plain by construction; text is not.
            entries[index].transaction.date.appendISOText(to: &out)
            out.append(UInt8(ascii: ","))
            String.withReportField(entries[index].transaction.beneficiary) {
                Self.appendCell($0, to: &out)
            }
            out.append(UInt8(ascii: ","))
            String.withReportField(entries[index].transaction.description) {
                Self.appendCell($0, to: &out)
            }
            out.append(UInt8(ascii: ","))
            String.withReportField(entries[index].transaction.reference) {
                Self.appendCell($0, to: &out)
            }
            out.append(UInt8(ascii: ","))
            entries[index].transaction.amount.appendDecimalText(to: &out)
            out.append(UInt8(ascii: ","))
            endRow(balance: entries[index].balance)
        }
        // A balance the bank stated that the ledger does not hold: a row without an amount
        // (so sums stay right), the bank's balance in the balance column.
        for disagreement in statement.bankDisagreements {
            disagreement.day.appendISOText(to: &out)
            out.append(utf8: ",Bank balance,ledger ")
            disagreement.ledger.appendDecimalText(to: &out)
            out.append(utf8: " difference ")
            disagreement.difference.appendDecimalText(to: &out)
            out.append(utf8: ",,,")
            endRow(balance: disagreement.bank)
        }
        statement.month.lastDay.appendISOText(to: &out)
        out.append(utf8: ",Closing balance,,,,")
        endRow(balance: statement.closingBalance)
    }

    /// Appends `cell(text)`: most texts as they are, without making another string.
    private static func appendCell(_ text: String, to out: inout [UInt8]) {
        if isPlain(text) {
            out.append(utf8: text)
        } else if text.isPrintableASCII, let first = text.utf8.first, !isGuarded(first) {
            // Printable ASCII with `,` or `"` that needs no guard: only quoted.
            appendQuoted(text, to: &out)
        } else {
            out.append(utf8: cell(text))
        }
    }

    /// Whether `cell` leaves the text as it is: neutral text (`String.isNeutral`) that starts
    /// with none of ` =+-@` and holds no `,` or `"`.
    private static func isPlain(_ text: String) -> Bool {
        let isQuoting = { (byte: UInt8) in byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") }
        guard
            text.isPrintableASCII(avoiding: isQuoting)
                || text.withUTF8Bytes({
                    String.isNeutral(utf8: $0, avoiding: isQuoting)
                })
        else { return false }
        guard let first = text.utf8.first else { return true }
        return !isGuarded(first)
    }

    /// Whether a cell starting with the byte may need a guard: ` `, `=`, `+`, `-` or `@`.
    private static func isGuarded(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "@"):
            true
        default: false
        }
    }

    /// One cell: neutralised against formula injection (OWASP), then quoted when needed.
    ///
    /// Control characters become spaces or U+FFFD first (line breaks and tabs become spaces);
    /// then a cell that started with a tab or CR, or whose first character after any spaces
    /// is `=`, `+`, `-` or `@`, and that is not a plain number, gets a leading `'`, so that no
    /// spreadsheet evaluates it.
    static func cell(_ text: String) -> String {
        // Plain text stays as it is, as the steps below would leave it.
        if isPlain(text) { return text }
        var value = text.neutralized
        let start = value.drop { $0 == " " }
        let startsWithControl = text.unicodeScalars.first.map { $0 == "\t" || $0 == "\r" }
        if let first = start.unicodeScalars.first,
            startsWithControl == true || "=+-@".unicodeScalars.contains(first),
            !isPlainNumber(String(start))
        {
            value = "'" + value
        }
        guard value.contains(where: { $0 == "," || $0 == "\"" }) else { return value }
        var quoted: [UInt8] = []
        appendQuoted(value, to: &quoted)
        return String(decoding: quoted, as: UTF8.self)
    }

    /// Appends the text in quotes, its quotes doubled (RFC 4180).
    private static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: "\"") { out.append(byte) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether the text is a number such as `-12.34`, which a spreadsheet may evaluate.
    private static func isPlainNumber(_ text: String) -> Bool {
        var rest = Substring(text)
        if let sign = rest.first, sign == "-" || sign == "+" { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber }
            }
    }
}
