/// One valid transaction read from a file, with its account and where it stands.
package struct ParsedRow: Sendable {
    /// The account the transaction belongs to, as the file describes it.
    package let account: Account
    /// The transaction.
    package let transaction: Transaction
    /// The 1-based line on which the row starts.
    package let line: Int
}

/// One valid row lent by a parser as its fields, its texts pointing into the parser's buffer:
/// valid only during the call it is passed to. An import encodes it without making strings.
struct LentRow {
    /// The account the transaction belongs to, as the file describes it.
    let account: Account
    let fields: TransactionFields
    /// The 1-based line on which the row starts.
    let line: Int
}

extension ParsedRow {
    /// Calls `body` with the row lent as its fields.
    func withLent<R>(_ body: (LentRow) -> R) -> R {
        transaction.withFields { body(LentRow(account: account, fields: $0, line: line)) }
    }
}

/// What a parser found in one file besides its rows.
package struct ParseSummary: Hashable, Sendable {
    /// How many transaction rows the file holds, valid or not.
    package var rowCount = 0
    /// How many of the rows were left out as not booked yet (`Dialect.notBooked`).
    package var notBookedCount = 0
    /// The opening balances by account: declared, or implied by a first row's running balance.
    package var openingBalances: [AccountID: Money] = [:]
    /// The balances the file states, in the order found: as readers report them, and placed
    /// at the end of a day once `StatementFileReader` has read the file.
    package var statedBalances: [StatedBalance] = []
    /// The lines on which the file's statements start, for a file of several (JSON, camt,
    /// MT940, OFX): a statement's rows are those up to the next one's start.
    package var statementLines: [Int] = []
    /// Whether a file streamed as canonical UTF-8 CSV turned out to be Windows-1252 text: its
    /// findings are void, and it is read again through the sniffer (`sniffing: true`).
    package var needsSniffing = false
    /// The hash of the file's bytes, when the reader was asked for it (`hashing`).
    package var contentHash: ContentHash?
}
