import Foundation

/// Rows staged in memory, sorted into present and new, and appended to the logs.
extension ImportRun {
    /// The rows of one file staged in memory: their encoded bytes one after another in the
    /// order read (one buffer, not one per account-month, so that staging 16 MB takes 16 MB),
    /// and each account-month's rows, placed in it.
    struct StagedRows {
        private(set) var bytes: [UInt8] = []
        private(set) var months = AccountMonthTable<[StagedRow]>()

        /// Makes room for `count` bytes at once, so that the buffer does not grow by doubling
        /// (and copying) on the way to the staging limit.
        mutating func reserve(_ count: Int) {
            if bytes.capacity < count { bytes.reserveCapacity(count) }
        }

        /// Stages a row encoded in `batchBytes` (an `EncodedRows`' bytes).
        mutating func append(_ row: EncodedRows.Row, of batchBytes: Span<UInt8>) {
            let start = bytes.count
            bytes.append(batchBytes.extracting(row.staged.start..<row.staged.end))
            months[months.place(of: row.key) { [] }].append(row.staged.moved(to: start))
        }

        /// Takes the rows of an account-month out.
        mutating func removeRows(of key: AccountMonth) -> [StagedRow] {
            months.removeValue(forKey: key) ?? []
        }

        /// Lets go of every row, keeping the buffer's memory for the next ones.
        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            months.removeAll()
        }

        /// The day of the month of a row.
        func dayOfMonth(_ row: StagedRow) -> Int? {
            LedgerRecord.dayOfMonth(line: bytes.span, at: row.start)
        }
    }

    /// The identities of an account-month's staged rows in order. Rows without transaction
    /// id are numbered by `occurrences`, the counts of content hashes seen earlier in the
    /// file: identical rows share a date, so they share a month.
    static func identities(
        of rows: [StagedRow], account: AccountID,
        occurrences: inout TransactionIdentity.OccurrenceCounter
    ) -> [TransactionIdentity] {
        let prefix = TransactionIdentity.contentPrefix(account)
        return rows.map { row in
            if row.hasTransactionID {
                return TransactionIdentity(hash: row.hash, isTransactionID: true)
            }
            return TransactionIdentity(
                prefix: prefix, contentHash: row.hash, occurrence: occurrences.next(row.hash))
        }
    }

    /// Rows of a file encoded for storage on the core that reads it, handed to the merging
    /// core (the busier one) a few thousand at a time. They hold no text, so no string made
    /// on one core is freed on the other.
    struct EncodedRows: Sendable {
        struct Row: Sendable {
            let key: AccountMonth
            /// The row, its bytes at `staged.start..<staged.end` of `bytes`.
            let staged: StagedRow
        }

        /// How many rows a batch holds.
        static let capacity = 4096

        var bytes: [UInt8]
        var rows: [Row]
        /// The accounts first seen in these rows, with the line of the first row of each.
        var accounts: [(account: Account, line: Int)] = []
        /// Rows read but kept by another part of a split ledger (`--shard`).
        var otherShardRows = 0

        init() {
            bytes = []
            bytes.reserveCapacity(Self.capacity * 128)
            rows = []
            rows.reserveCapacity(Self.capacity)
        }

        var count: Int { rows.count + otherShardRows }

        /// Encodes a row, with its identity hash when it has a transaction id, else its
        /// content hash.
        mutating func append(_ row: LentRow) {
            let fields = row.fields
            let start = bytes.count
            LedgerRecord.encode(fields, into: &bytes)
            let hash =
                if let id = fields.transactionID {
                    id.withSpan {
                        TransactionIdentity(account: row.account.id, transactionID: $0).hash
                    }
                } else {
                    TransactionIdentity.contentHash(fields)
                }
            rows.append(
                Row(
                    key: AccountMonth(accountID: row.account.id, month: Month(fields.date)),
                    staged: StagedRow(
                        hash: hash, hasTransactionID: fields.transactionID != nil,
                        start: start, end: bytes.count, amount: fields.amount.minorUnits,
                        line: row.line)
                ))
        }
    }

    /// A staged row in 40 bytes, as a large import holds hundreds of thousands of them: its
    /// identity hash when it has a transaction id, else its content hash; where its encoded
    /// bytes lie; its amount; and its line, for the messages of conflicts.
    struct StagedRow: Sendable {
        let hash: UInt64
        let start: Int
        /// The end offset, with whether the row has a transaction id in the top bit.
        private let packedEnd: UInt64
        let amount: Int64
        let line: Int

        init(
            hash: UInt64, hasTransactionID: Bool, start: Int, end: Int, amount: Int64, line: Int
        ) {
            self.hash = hash
            self.start = start
            packedEnd = UInt64(end) | (hasTransactionID ? 1 << 63 : 0)
            self.amount = amount
            self.line = line
        }

        var end: Int { Int(packedEnd & ~(1 << 63)) }
        var hasTransactionID: Bool { packedEnd >> 63 == 1 }

        /// The same row with its bytes moved to start at `start`.
        func moved(to start: Int) -> StagedRow {
            StagedRow(
                hash: hash, hasTransactionID: hasTransactionID, start: start,
                end: start + end - self.start, amount: amount, line: line)
        }
    }

    /// What reading one file has done so far: rows staged in memory, rows written out.
    struct FileProgress {
        var staged = StagedRows()
        /// The account-months the file staged rows of, in the order it first did: a list,
        /// not a dictionary, as a first import at a bank's scale adds to millions.
        var stagedMonths: [AccountMonth] = []
        /// What those of them that earlier files of the run added rows to held before this
        /// file: what undoing it returns them to (the others return to their committed
        /// lengths).
        var acceptedBefore: [AccountMonth: LedgerManifest.MonthLength] = [:]
        /// In a dry run, the identities the file added, to forget if it is rejected. A run
        /// that writes reads a rejected file's account-months again instead, so it keeps no
        /// hashes (8 MB for 1M rows).
        var addedHashes: [AccountMonth: [UInt64]] = [:]
        /// Per account, the magnitudes of the new rows' amounts, added up.
        var turnover: [AccountID: Int64] = [:]
        /// Rows that cannot join the ledger: a transaction id already there with another
        /// amount, or an amount that would take the account's balance out of range.
        var conflicts: [(line: Int, message: DiagnosticMessage)] = []
        var new = 0
        var present = 0
    }

    /// How many bytes of the data log a flush gathers before it writes them: a quarter of
    /// what is staged (4 MB of the 16 a real run stages).
    var logChunk: Int { max(1, stagingLimit / 4) }

    /// Sorts the staged rows into present and new, and appends the new ones to the logs a
    /// `logChunk` at a time (only counted in a dry run). A transaction id found with another
    /// amount, and an amount the account's balance could not hold, become conflicts.
    func writeStaged(_ progress: inout FileProgress, accounts: [AccountID: Account])
        throws(StorageError)
    {
        let start = writtenLogs
        // Buffers kept from one flush to the next, so that their pages are not taken and
        // cleared again every time; taken out of the run before they are emptied, as emptying
        // a shared buffer copies it (a 1M-row import peaked with two 50 MB data logs).
        var (dataLog, idLog) = (logBuffers.data, logBuffers.ids)
        logBuffers = ([], [])
        dataLog.removeAll(keepingCapacity: true)
        idLog.removeAll(keepingCapacity: true)
        defer { logBuffers = (dataLog, idLog) }
        // Written out every `logChunk` bytes, so that a flush holds a few megabytes of log
        // beside its staged rows, not a copy of them all.
        var chunkStart = start
        func writeOut() throws(StorageError) {
            guard !dataLog.isEmpty else { return }
            try storage.appendToLogs(
                data: dataLog, ids: idLog, at: chunkStart, committed: committed.logs)
            appendedToLogs = true
            chunkStart = writtenLogs
            dataLog.removeAll(keepingCapacity: true)
            idLog.removeAll(keepingCapacity: true)
        }
        // The months of the accounts in hand, read at once (decoded on every core).
        try loadMonths(of: progress.staged.months.keys.lazy.map(\.accountID))
        for key in progress.staged.months.keys.sorted() {
            try writeStagedMonth(
                key, &progress, accounts: accounts, dataLog: &dataLog, idLog: &idLog)
            if dataLog.count >= logChunk { try writeOut() }
        }
        try writeOut()
        progress.staged.removeAll()
        flushes += 1
        evictIdentities()
    }

    /// Lets go of the identities of the account-months no flush touched lately, once the
    /// run holds more than `identityLimit` of them, so that memory follows the work in hand
    /// (a file in date order leaves its earlier months behind); a later row of such a month
    /// reads them again from the logs. A dry run writes nothing to read again, and keeps all.
    private func evictIdentities() {
        guard !isDryRun, knownIdentities.count > identityLimit else { return }
        knownIdentities.removeAll { $0.lastFlush + 2 < flushes }
    }

    /// Sorts the staged rows of one account-month into present and new, and stages the new
    /// ones for the logs.
    private func writeStagedMonth(
        _ key: AccountMonth, _ progress: inout FileProgress, accounts: [AccountID: Account],
        dataLog: inout [UInt8], idLog: inout [UInt8]
    ) throws(StorageError) {
        try loadMonths(of: [key.accountID])
        let rows = progress.staged.removeRows(of: key)
        let currency = accounts[key.accountID]!.currency
        // Taken out of the dictionaries while they grow, so that they are not copied; read
        // before the month has a tail, so that a month first read is checked
        // (`identities(of:)`).
        var known = try identities(of: key)
        knownIdentities[key] = nil
        let place = takeTail(of: key, &progress)
        let rowIdentities = Self.identities(
            of: rows, account: key.accountID, occurrences: &tails[place].occurrences)
        // A row with a transaction id is looked for in the months beside its own too.
        let neighbours = try neighbourIdentities(of: key, rows)
        var added = isDryRun ? progress.addedHashes.removeValue(forKey: key) ?? [] : []
        var turnover =
            (manifest.accounts[key.accountID]?.turnover ?? 0)
            + (progress.turnover[key.accountID] ?? 0)
        defer {
            known.lastFlush = flushes
            knownIdentities[key] = known
            if !added.isEmpty { progress.addedHashes[key] = added }
            let base = manifest.accounts[key.accountID]?.turnover ?? 0
            progress.turnover[key.accountID] = turnover - base
        }
        var newRows: [StagedRow] = []
        var newTotal: Int64 = 0
        var ids: [UInt8] = []
        for (row, identity) in zip(rows, rowIdentities) {
            let hash = identity.hash
            // Only a transaction id's amount is checked when it is found again.
            let check =
                identity.isTransactionID
                ? TransactionIdentity.amountCheck(
                    Money(minorUnits: row.amount, currency: currency)) : 0
            let found =
                known.hashes.contains(hash)
                ? key.month
                : identity.isTransactionID
                    ? neighbours.first { $0.1.hashes.contains(hash) }?.0 : nil
            if let foundMonth = found {
                let stored =
                    foundMonth == key.month
                    ? known.amountChecks[hash]
                    : neighbours.first { $0.0 == foundMonth }?.1.amountChecks[hash]
                if identity.isTransactionID && stored != check {
                    progress.conflicts.append(
                        (
                            row.line,
                            .ledgerTransactionID(account: key.accountID, month: foundMonth)
                        ))
                }
                progress.present += 1
                continue
            }
            let (sum, overflow) = turnover.addingReportingOverflow(
                Int64(exactly: row.amount.magnitude) ?? .max)
            guard !overflow else {
                progress.conflicts.append(
                    (row.line, .balanceOutOfRange(account: key.accountID)))
                continue
            }
            turnover = sum
            known.insert(hash, amountCheck: check)
            if isDryRun { added.append(hash) }
            newRows.append(row)
            newTotal &+= row.amount
            TransactionIdentity.appendEntry(hash: hash, amountCheck: check, to: &ids)
        }
        guard !newRows.isEmpty else { return }
        append(
            newRows, key, total: newTotal, ids: ids, &progress, dataLog: &dataLog, idLog: &idLog)
    }

    /// The identities of the months beside an account-month, where a row with a transaction
    /// id is looked for too; none when the month has no such row.
    private func neighbourIdentities(of key: AccountMonth, _ rows: [StagedRow])
        throws(StorageError) -> [(Month, KnownIdentities)]
    {
        return rows.contains(where: \.hasTransactionID)
            ? try [key.month.previous, key.month.next].compactMap { $0 }.map {
                (month) throws(StorageError) in
                (
                    month,
                    try identities(of: AccountMonth(accountID: key.accountID, month: month))
                )
            } : []
    }

    /// The place in `tails` of an account-month's tail, made the first time the run stages
    /// rows of it and taken over by the file being read the first time it does: its
    /// occurrences start again, and what it held before is noted for an undo.
    private func takeTail(of key: AccountMonth, _ progress: inout FileProgress) -> Int {
        let place = tails.place(of: key) {
            MonthTail(committed: committed.accounts[key.accountID]?.months[key.month])
        }
        guard tails[place].file != fileNumber else { return place }
        tails[place].file = fileNumber
        tails[place].occurrences = .init()
        progress.stagedMonths.append(key)
        if tails[place].hasAcceptedRows { progress.acceptedBefore[key] = tails[place].written }
        return place
    }

    /// Stages the new rows of an account-month for the logs (only counted in a dry run), and
    /// advances its tail.
    private func append(
        _ newRows: [StagedRow], _ key: AccountMonth, total newTotal: Int64, ids: [UInt8],
        _ progress: inout FileProgress, dataLog: inout [UInt8], idLog: inout [UInt8]
    ) {
        progress.new += newRows.count
        // The rows' bytes onto the data log (taken off again in a dry run), rows that lie one
        // after another in the staged bytes (a month's rows read together) in one copy; and
        // their first and last day.
        let dataStart = dataLog.count
        var days: ClosedRange<Int>?
        var run = newRows[0].start..<newRows[0].start
        for row in newRows {
            if let day = progress.staged.dayOfMonth(row) {
                days = days.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
            }
            if row.start != run.upperBound {
                dataLog.append(progress.staged.bytes.span.extracting(run))
                run = row.start..<row.start
            }
            run = run.lowerBound..<row.end
        }
        dataLog.append(progress.staged.bytes.span.extracting(run))
        tails[existing: key].written.advance(
            data: dataLog.span.extracting(dataStart...), ids: ids.span, at: writtenLogs,
            total: newTotal, days: days)
        writtenLogs.advance(data: dataLog.count - dataStart, ids: ids.count)
        if isDryRun {
            dataLog.removeSubrange(dataStart...)
        } else {
            idLog += ids
        }
    }

    /// Reads the records of the given accounts (their pages of the manifest) the first time
    /// the run needs them: a run reads the records of the accounts it touches only, and
    /// looks an account up only after this.
    func loadAccounts(_ accountIDs: some Sequence<AccountID>) throws(StorageError) {
        guard !committed.unloadedPages.isEmpty || !committed.undecoded.isEmpty else { return }
        let read = try storage.loadAccounts(accountIDs, in: &committed)
        manifest.accounts.reserveCapacity(manifest.accounts.count + read.count)
        for accountID in read where manifest.accounts[accountID] == nil {
            manifest.accounts[accountID] = committed.accounts[accountID]
        }
        manifest.unloadedPages = committed.unloadedPages
        manifest.undecoded = committed.undecoded
    }

    /// Reads an account's months from the ledger the first time the run needs them: a run
    /// reads the month records of the accounts it touches only.
    func loadMonths(of accountIDs: some Sequence<AccountID>) throws(StorageError) {
        let pending = Set(accountIDs).filter { committed.accounts[$0]?.monthsLoaded == false }
        guard !pending.isEmpty else { return }
        try storage.loadMonths(of: pending, in: &committed)
        for accountID in pending {
            manifest.accounts[accountID]!.months = committed.accounts[accountID]!.months
            manifest.accounts[accountID]!.assertions = committed.accounts[accountID]!.assertions
            manifest.accounts[accountID]!.monthsLoaded = true
        }
    }

    /// The identities stored in an account-month plus those this run added, loaded once,
    /// after checking the month's files against their checksums: an import never writes onto
    /// a damaged month.
    private func identities(of key: AccountMonth) throws(StorageError) -> KnownIdentities {
        if let known = knownIdentities[key] { return known }
        var known = KnownIdentities()
        if let tail = tails[key], !isDryRun {
            // Let go of (`evictIdentities`) after the run wrote to it: read again from what
            // is written, the committed bytes (checked when first read) and the run's own.
            for (hash, check) in try storage.identities(
                of: key.accountID, in: key.month, length: tail.written)
            {
                known.insert(hash, amountCheck: check)
            }
        } else if let length = committed.accounts[key.accountID]?.months[key.month] {
            if committed.version < 2 {
                // A dry run over a format 1 ledger: the identities as an upgrade computes them.
                let account = committed.accounts[key.accountID]!.account
                for (hash, check) in TransactionIdentity.entries(
                    of: try storage.transactions(of: account, in: key.month, length: length),
                    account: key.accountID)
                {
                    known.insert(hash, amountCheck: check)
                }
            } else {
                _ = try storage.dataBytes(of: key.accountID, in: key.month, length: length)
                for (hash, check) in try storage.identities(
                    of: key.accountID, in: key.month, length: length)
                {
                    known.insert(hash, amountCheck: check)
                }
            }
        }
        knownIdentities[key] = known
        return known
    }
}
