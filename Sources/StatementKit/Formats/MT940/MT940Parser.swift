import Foundation

/// Reads SWIFT MT940 customer statements (and MT942 interim reports) into validated
/// transactions, streaming line by line.
///
/// A file holds one statement or many, with or without the `{1:}{2:}{4:` … `-}` envelope,
/// of one account or several. Per statement: `:20:` opens it, `:25:` names the account (an
/// IBAN, with or without a currency after it, or a bank code and account number, kept as
/// `name:`), `:60F:`/`:60M:` the opening balance and its currency, each `:61:` an entry
/// (value date, entry date, `C`/`D`/`RC`/`RD`, the amount with a decimal comma, the type,
/// the customer reference and `//` the bank's reference, which is the transaction id) with
/// its `:86:` information, and `:62F:`/`:62M:` the closing balance, which the opening balance
/// plus the entries must make. `:86:` in the German `?20`–`?63` form and the Dutch `/NAME/`,
/// `/REMI/`, `/IBAN/`, `/CNTP/` form gives the counterparty and the purpose; any other text is
/// the description. Lines that are not valid UTF-8 are read as Windows-1252. An MT942's entries
/// are intraday and not bookings yet: they are checked, counted as not booked, and left out.
///
/// A line is copied once, into the text of its field (a buffer reused from field to field);
/// an entry keeps its references as ranges of that text, and strings are made only for the
/// rows that are built.
package struct MT940Parser: Sendable {
    /// Whether valid rows are built and handed to `onRow`; `validate` checks them only.
    var buildsRows = true
}

extension MT940Parser: StatementParser {
    static let formatName = "SWIFT MT940/MT942"

    /// One of the first ten lines starts with `{1:`, `:20:` or `:25:` (banks put lines such as
    /// `ABNANL2A` and `940` before them), whatever the file's name (`.sta`, `.940`, `.mt940`,
    /// `.swi`, `.txt` all occur).
    static func recognizes(_ head: ArraySlice<UInt8>) -> Bool {
        let lines = head.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }
        ).prefix(10)
        return lines.contains { line in
            [":20:", ":25:", "{1:"].contains { line.starts(with: Array($0.utf8)) }
        }
    }
}

extension MT940Parser.State {
    /// Reads the file line by line, then ends its last field and statement.
    mutating func read<Source: ByteSource>(_ source: Source, _ onRow: (ParsedRow) -> Void) {
        var reader = LineReader(source: source)
        do {
            let limit = reader.maximumLength
            while try reader.next({ line, number, wasCut in
                if wasCut {
                    diagnostics.report(
                        .mt940Syntax("a line longer than \(limit) bytes; the rest is not read"),
                        line: number, column: 1)
                }
                read(line: line, number: number, onRow)
            }) {}
        } catch {
            diagnostics.report(
                .unreadable(nil, .pathUnreadable, reason: "\(error)"), line: 0, column: 0)
            return
        }
        flushField(onRow)
        endStatement(onRow)
        if lineCount == 0 {
            diagnostics.report(.fileEmpty(requiring: "a :20: statement"), line: 1, column: 1)
        } else if summary.rowCount == 0 && !sawStatement {
            diagnostics.report(.noStatement(format: "MT940", first: ":20:"), line: 1, column: 1)
        }
    }
}
