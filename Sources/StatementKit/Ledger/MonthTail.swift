/// How far a run has written one account-month past its committed bytes, and what the file
/// being read has staged of it; the run keeps one per account-month it staged rows of
/// (`ImportRun.tails`), which names it. It holds what the commit makes visible (`written`,
/// once the file is accepted or undone), not a copy: a first import at a bank's scale keeps
/// millions.
struct MonthTail: Sendable {
    /// The bytes of transaction lines the month held when the run started (0 for a month new
    /// to the ledger): the logs only grow, so the month has accepted rows when it holds more
    /// once its file is done.
    let committedDataBytes: Int
    /// The month with everything written, including rows of the file being read.
    var written: LedgerManifest.MonthLength
    /// The file (`ImportRun.fileNumber`) that staged rows of the month last.
    var file: Int32 = 0
    /// The content hashes of that file's rows of the month without transaction id, so that
    /// identical rows are numbered.
    var occurrences = TransactionIdentity.OccurrenceCounter()

    /// Whether accepted files added rows to the month (between files: the one being read
    /// is not yet accepted).
    var hasAcceptedRows: Bool { written.dataBytes != committedDataBytes }

    /// The tail of a month with these lengths in the manifest when the run started; `nil` for
    /// a month new to the ledger.
    init(committed: LedgerManifest.MonthLength?) {
        committedDataBytes = committed?.dataBytes ?? 0
        written = committed ?? .empty
    }
}

/// The tails of the account-months a run staged rows of (`ImportRun.tails`), in an
/// `AccountMonthTable`: millions of them (a first import at a bank's scale) take an array of
/// tails beside a table of 8-byte slots, not a table of large entries (which grows, like any
/// table, to hold up to twice the entries it needs).
struct MonthTails {
    private var table = AccountMonthTable<MonthTail>()

    /// The tail of an account-month; `nil` when the run staged no rows of it.
    subscript(key: ImportRun.AccountMonth) -> MonthTail? {
        table[key]
    }

    /// The tail of an account-month the run staged rows of, changed in place.
    subscript(existing key: ImportRun.AccountMonth) -> MonthTail {
        get { table[table.place(of: key)!] }
        _modify { yield &table[table.place(of: key)!] }
    }

    /// The place of an account-month's tail, made by `make` the first time.
    mutating func place(
        of key: ImportRun.AccountMonth, making make: () -> MonthTail
    ) -> Int {
        table.place(of: key, making: make)
    }

    /// The tail at a place.
    subscript(place: Int) -> MonthTail {
        get { table[place] }
        _modify { yield &table[place] }
    }

    /// The account-months accepted files added rows to, sorted.
    var grown: [ImportRun.AccountMonth] {
        table.entries.compactMap { $1.hasAcceptedRows ? $0 : nil }.sorted()
    }
}
