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

/// The tails of the account-months a run staged rows of (`ImportRun.tails`): a table from
/// each account-month to its place in one array of tails, so that millions of them (a first
/// import at a bank's scale) take a table of small entries beside an array, not a table of
/// large ones (which grows, like any table, to hold up to twice the entries it needs).
struct MonthTails {
    private var places: [ImportRun.AccountMonth: Int32] = [:]
    private var tails: [MonthTail] = []

    /// The tail of an account-month; `nil` when the run staged no rows of it.
    subscript(key: ImportRun.AccountMonth) -> MonthTail? {
        places[key].map { tails[Int($0)] }
    }

    /// The tail of an account-month the run staged rows of, changed in place.
    subscript(existing key: ImportRun.AccountMonth) -> MonthTail {
        get { tails[Int(places[key]!)] }
        _modify { yield &tails[Int(places[key]!)] }
    }

    /// The place of an account-month's tail, made by `make` the first time.
    mutating func place(
        of key: ImportRun.AccountMonth, making make: () -> MonthTail
    ) -> Int {
        if let place = places[key] { return Int(place) }
        places[key] = Int32(tails.count)
        tails.append(make())
        return tails.count - 1
    }

    /// The tail at a place.
    subscript(place: Int) -> MonthTail {
        get { tails[place] }
        _modify { yield &tails[place] }
    }

    /// The account-months accepted files added rows to, sorted.
    var grown: [ImportRun.AccountMonth] {
        places.compactMap { tails[Int($0.value)].hasAcceptedRows ? $0.key : nil }.sorted()
    }
}
