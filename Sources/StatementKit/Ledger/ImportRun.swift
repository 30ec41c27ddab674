import Foundation

/// One `import` run against the ledger: its per-run state (the manifest as committed and as
/// the run changes it, the identities looked at, the tails written) and the merging of files
/// into it. `StateController.importFiles` makes one per run, so nothing of a run outlives it.
///
/// Identity follows SPEC 4 (see `TransactionIdentity`). A transaction with the bank's
/// transaction id is looked for in its own month and the months beside it, so that a booking
/// the bank re-dates across a month end is still found; one without is looked for in its own
/// month. An id found again with another amount is an error, never a silent skip. Either way a
/// run reads only the account-months it touches, never the whole history. A file's new rows
/// are appended to the logs every `stagingLimit` bytes, past their committed lengths, so
/// memory does not grow with the file; a rejected file's appends are cut back.
final class ImportRun {
    private let storage: StorageController
    /// How many encoded bytes of a file are held before they are written out as uncommitted
    /// tails, so that memory does not grow with the file.
    private let stagingLimit: Int
    private let reading: ReadSettings
    /// The manifest as committed on disk when the run started (with the months of the
    /// accounts the run has needed so far).
    private var committed: LedgerManifest
    /// The manifest as the run has changed it so far.
    private var manifest: LedgerManifest
    /// The identities of the account-months the run has looked at.
    private var knownIdentities: [AccountMonth: KnownIdentities] = [:]

    /// The identity hashes of one account-month, and for those that are transaction ids the
    /// check of the amount they were imported with (the only ones a conflict can concern).
    struct KnownIdentities {
        var hashes: Set<UInt64> = []
        var amountChecks: [UInt64: UInt64] = [:]

        /// Adds an identity with the amount check an identity entry stores (0 for content).
        mutating func insert(_ hash: UInt64, amountCheck: UInt64) {
            hashes.insert(hash)
            if amountCheck != 0 { amountChecks[hash] = amountCheck }
        }

        mutating func remove(_ hash: UInt64) {
            hashes.remove(hash)
            amountChecks[hash] = nil
        }
    }
    /// The account-months the run has added rows to, with how far it has written them.
    private var tails: [AccountMonth: MonthTail] = [:]
    /// What `writeStaged` appends to the logs, kept between calls.
    private var logBuffers: (data: [UInt8], ids: [UInt8]) = ([], [])
    /// The ends of the logs: after the rows of the files accepted so far, and after
    /// everything written, including rows of the file being read.
    private var acceptedLogs: LedgerManifest.LogLengths
    private var writtenLogs: LedgerManifest.LogLengths
    private let isDryRun: Bool
    /// When the run started, in nanoseconds: a file stamp younger than that is not trusted.
    private let startTime = POSIXIO.nanosecondsNow()
    /// The absolute paths of the files the run found.
    private var foundPaths: Set<String> = []
    /// Per account, the balances the accepted files stated.
    private var statedAssertions: [AccountID: [BalanceAssertion]] = [:]
    /// The accounts each accepted file added rows or balances to, by the file's name.
    private var fileTouches: [String: Set<AccountID>] = [:]
    /// The accounts the file being read added rows or balances to.
    private var lastFileTouches: Set<AccountID> = []
    /// Files an earlier attempt of the run rejected for their balances, by name, with what
    /// to say: they are not read again.
    private let rejectedFiles: [String: [(line: Int, message: DiagnosticMessage)]]
    /// The files rejected before (`RejectedFiles`), as the run updates them, and the time
    /// of the run for those it rejects now.
    private var rejected = RejectedFiles()
    private var now = ""

    /// What a run did, or the files whose balances cannot be kept (`balanceRejections`):
    /// nothing was committed, and the run is to be made again without them.
    enum Result {
        case imported(ImportReport)
        case rejectedForBalances([String: [(line: Int, message: DiagnosticMessage)]])
    }

    /// One account's month: the unit of storage.
    struct AccountMonth: Hashable, Comparable {
        let accountID: AccountID
        let month: Month

        static func < (lhs: AccountMonth, rhs: AccountMonth) -> Bool {
            (lhs.accountID, lhs.month) < (rhs.accountID, rhs.month)
        }
    }

    /// Starts a run over the committed manifest (of the current format).
    init(
        storage: StorageController, committed: LedgerManifest, stagingLimit: Int, isDryRun: Bool,
        reading: ReadSettings = ReadSettings(),
        rejectedFiles: [String: [(line: Int, message: DiagnosticMessage)]] = [:]
    ) {
        self.reading = reading
        self.rejectedFiles = rejectedFiles
        self.storage = storage
        self.committed = committed
        manifest = committed
        (acceptedLogs, writtenLogs) = (committed.logs, committed.logs)
        self.stagingLimit = stagingLimit
        self.isDryRun = isDryRun
    }

    /// Imports the files, each whole or not at all, and commits the accepted ones at once
    /// (unless a dry run); `clock` gives the time recorded as the accounts' last import.
    func run(_ statementFiles: StatementFiles, clock: () -> String) throws(StorageError)
        -> Result
    {
        var files: [FileImport] = []
        var touched: Set<AccountID> = []
        let tally = FileTally(count: statementFiles.entries.count, progress: reading.progress)
        tally.report(nil)
        rejected = RejectedFiles.load(from: storage.folder)
        let rejectedBefore = rejected
        now = clock()
        do throws(StorageError) {
            for (entry, dialect, fingerprint) in statementFiles.entries {
                switch entry {
                case .file(let found):
                    if let rejections = rejectedFiles[found.name] {
                        var collector = DiagnosticCollector(
                            file: found.name, isStrict: true, limit: reading.diagnosticLimit)
                        for (line, message) in rejections {
                            collector.report(message, line: line, column: line > 0 ? 1 : 0)
                        }
                        files.append(
                            FileImport(
                                outcome: .rejected,
                                validation: FileValidation(
                                    path: found.name, rowCount: 0, collector: collector)))
                        break
                    }
                    lastFileTouches = []
                    files.append(
                        try importUnlessUnchanged(
                            found, dialect: dialect, reading: fingerprint, tally: tally,
                            touched: &touched))
                    fileTouches[found.name, default: []].formUnion(lastFileTouches)
                case .problem(let path, let code, let reason):
                    files.append(
                        FileImport(
                            outcome: .rejected,
                            validation: FileValidation.unreadable(
                                path, code, reason, isStrict: reading.isStrict,
                                limit: reading.diagnosticLimit)))
                case .badProfile(let found, let error):
                    files.append(
                        FileImport(
                            outcome: .rejected,
                            validation: FileValidation.badProfile(
                                found.name, error, isStrict: reading.isStrict,
                                limit: reading.diagnosticLimit)))
                }
                tally.report(files.last!.validation)
            }
        } catch {
            if !isDryRun { try? storage.rollBack() }
            throw error
        }
        forgetFilesGone(below: statementFiles.roots)
        let grown = tails.values.filter(\.hasAcceptedRows)
            .sorted { ($0.accountID, $0.month) < ($1.accountID, $1.month) }
        var balances = BalanceOutcome()
        if !isDryRun {
            for tail in grown {
                manifest.accounts[tail.accountID]!.months[tail.month] = tail.accepted
            }
            do throws(StorageError) { balances = try checkBalances(grown: grown) } catch {
                try? storage.rollBack()
                throw error
            }
            if let rejections = balanceRejections(balances) {
                try storage.rollBack()
                return .rejectedForBalances(rejections)
            }
        }
        var earliest: [AccountID: Month] = [:]
        for tail in grown {
            earliest[tail.accountID] = min(earliest[tail.accountID] ?? tail.month, tail.month)
        }
        // An account whose opening balance or balance state changed: every month.
        var balanceOnlyMonths: Set<Month> = []
        for accountID in balances.moved.union(balances.changed) {
            let entry = manifest.accounts[accountID]!
            if let first = entry.months.keys.min() {
                if balances.moved.contains(accountID) {
                    earliest[accountID] = min(earliest[accountID] ?? first, first)
                }
            } else {
                // An account with balances and no booking: a statement for each of their months.
                balanceOnlyMonths.formUnion(entry.assertions.map { Month($0.day) })
            }
        }
        // The grown months (not yet in the manifest of a dry run), every later month of the
        // same accounts, and, when the earliest is a new month of its account, the month
        // before it, whose statement now links to it.
        var changed = Set(grown.map(\.month)).union(balanceOnlyMonths)
        for (accountID, first) in earliest {
            changed.insert(first)
            let months = manifest.accounts[accountID]!.months.keys
            for month in months where month >= first {
                changed.insert(month)
            }
            if committed.accounts[accountID]?.months[first] == nil,
                let before = months.filter({ $0 < first }).max()
            {
                changed.insert(before)
            }
        }
        if !isDryRun && !(grown.isEmpty && balances.changed.isEmpty) {
            // The months whose statements change are read back against their checksums
            // first (of the accounts the run touched, or of every account when the run's
            // reports follow: `process`), so that a run never commits on top of damage that
            // it, or its reports, would reach.
            let touchedAccounts = Set(earliest.keys).union(balances.moved).union(balances.changed)
            do throws(StorageError) {
                try storage.verifyChecksums(of: committed) { accountID, month in
                    changed.contains(month)
                        && (reading.reportsChangedMonths || touchedAccounts.contains(accountID))
                }
            } catch {
                try? storage.rollBack()
                throw error
            }
            reading.progress?(RunProgress(phase: .saving, done: 0, total: grown.count))
            let now = clock()
            for accountID in touched.union(statedAssertions.keys) {
                manifest.accounts[accountID]!.lastImport = now
            }
            manifest.logs = acceptedLogs
            manifest.generation += 1
            try storage.commit(
                &manifest, changed: Set(grown.map(\.accountID)).union(balances.changed),
                keepingForUndo: committed.version == LedgerManifest.formatVersion ? committed : nil)
        } else if !isDryRun {
            if !tails.isEmpty { try storage.rollBack() }  // only rejected files were written
            // What the run learnt of its files, without a new generation: no transaction
            // changed, so no report needs writing again.
            if manifest.files != committed.files { try storage.commit(&manifest) }
        }
        rejected.forget(below: statementFiles.roots, except: foundPaths)
        if !isDryRun, storage.isLocked, rejected != rejectedBefore {
            // A memory that saves work: losing it costs a read, never the run.
            try? rejected.save(to: storage.folder)
        }
        return .imported(
            ImportReport(
                files: files, isDryRun: isDryRun, changedMonths: changed,
                generations: (committed.generation, manifest.generation),
                balances: balances.reports + standingOutOfBalance(besides: balances.reports)))
    }

    /// The accounts out of balance that the run did not check: they stay so, and a nightly
    /// run says it (and exits 1) every night until a file makes their balances hold.
    private func standingOutOfBalance(besides checked: [AccountBalanceReport])
        -> [AccountBalanceReport]
    {
        let reported = Set(checked.map(\.account.id))
        return manifest.accounts.filter {
            $0.value.outOfBalance != nil && !reported.contains($0.key)
        }
        .sorted { $0.key < $1.key }
        .map { _, entry in
            AccountBalanceReport(
                account: entry.account, failures: [], outOfBalance: entry.outOfBalance,
                wasOutOfBalance: entry.outOfBalance)
        }
    }

    /// Imports a file, unless the ledger recorded it as imported whole and it is unchanged:
    /// its stamp the same (a `stat`), or, when the stamp moved, its bytes (a hash, and no
    /// parsing). Records a file imported whole without a warning, unless it changed while it
    /// was read; forgets the record of a file that changed and was not.
    private func importUnlessUnchanged(
        _ found: FileFinder.FoundFile, dialect: Dialect?, reading given: Checksum,
        tally: FileTally, touched: inout Set<AccountID>
    ) throws(StorageError) -> FileImport {
        // A part of a split ledger keeps other rows of a file than the whole does.
        var fingerprint = given
        if let shard = reading.shard { fingerprint.feed(Array("shard \(shard)".utf8)) }
        // The hash of the bytes the import read, recorded with the file.
        var hashed: ContentHash?
        func read() throws(StorageError) -> FileImport {
            try importFile(
                at: found.path, named: found.name, dialect: dialect, tally: tally,
                touched: &touched, hashed: &hashed)
        }
        // Standard input is a new copy every run, and is never recorded.
        guard found.archivePath != nil, let path = POSIXIO.canonicalPath(found.path),
            let stamp = POSIXIO.stamp(of: found.path)
        else { return try read() }
        foundPaths.insert(path)
        let recorded = manifest.files[path].flatMap { $0.reading == fingerprint ? $0 : nil }
        if let recorded, recorded.stamp == stamp {
            return unchanged(recorded, named: found.name, stamp: stamp)
        }
        let settled = stamp.isSettled(at: startTime) ? stamp : .unsettled
        // A recorded file whose stamp moved is hashed before it is parsed: its bytes may be
        // the same.
        if var recorded, recorded.content == (try? FileByteSource(path: found.path).contentHash()) {
            recorded.stamp = settled
            manifest.files[path] = recorded
            return unchanged(
                recorded, named: found.name,
                stamp: POSIXIO.stamp(of: found.path) == stamp ? stamp : nil)
        }
        var rejectedReading = fingerprint
        if reading.isStrict { rejectedReading.feed(Array("strict".utf8)) }
        if let still = stillRejected(found, path: path, reading: rejectedReading, stamp: stamp) {
            return still
        }
        var result = try read()
        let isSteady = POSIXIO.stamp(of: found.path) == stamp
        if isSteady { result.readStamp = stamp }
        if result.outcome == .rejected, let content = hashed, isSteady {
            rejected.note(
                path, content: content, reading: rejectedReading, validation: result.validation,
                now: now)
        } else {
            rejected.entries[path] = nil
        }
        let validation = result.validation
        let count: Int
        switch result.outcome {
        case .imported(let new, let present): count = new + present
        case .alreadyPresent(let present): count = present
        case .rejected: count = -1
        }
        guard count >= 0, validation.warningCount == 0, let content = hashed, isSteady else {
            manifest.files[path] = nil
            return result
        }
        manifest.files[path] = ImportedFile(
            stamp: settled, content: content, reading: fingerprint, transactionCount: count,
            rowCount: validation.rowCount, notBookedCount: validation.notBookedCount)
        return result
    }

    /// A file rejected before and found with the same bytes (a hash, no parsing): rejected
    /// again with its first error, said to be still there.
    private func stillRejected(
        _ found: FileFinder.FoundFile, path: String, reading fingerprint: Checksum,
        stamp: FileStamp
    ) -> FileImport? {
        guard rejected.entries[path] != nil,
            let content = try? FileByteSource(path: found.path).contentHash(),
            let validation = rejected.stillRejected(
                path, named: found.name, content: content, reading: fingerprint,
                isStrict: reading.isStrict, limit: reading.diagnosticLimit)
        else { return nil }
        var result = FileImport(outcome: .rejected, validation: validation)
        if POSIXIO.stamp(of: found.path) == stamp { result.readStamp = stamp }
        return result
    }

    /// What reading a recorded file again would give: every transaction already present, no
    /// diagnostic.
    private func unchanged(_ file: ImportedFile, named name: String, stamp: FileStamp?)
        -> FileImport
    {
        let collector = DiagnosticCollector(
            file: name, isStrict: reading.isStrict, limit: reading.diagnosticLimit)
        var result = FileImport(
            outcome: .alreadyPresent(file.transactionCount),
            validation: FileValidation(
                path: name, rowCount: file.rowCount, notBookedCount: file.notBookedCount,
                collector: collector),
            isUnchanged: true)
        result.readStamp = stamp
        return result
    }

    /// Forgets the records of files below the run's folders that the run did not find: they
    /// were moved away or deleted.
    private func forgetFilesGone(below roots: [String]) {
        for path in manifest.filesRecorded(below: roots) where !foundPaths.contains(path) {
            manifest.files[path] = nil
        }
    }

    /// The rows of one file in one account-month, encoded for storage.
    private struct StagedMonth {
        var bytes: [UInt8] = []
        var rows: [StagedRow] = []

        /// Stages a row encoded in `batchBytes` (an `EncodedRows`' bytes); returns how many
        /// bytes its encoding takes.
        mutating func append(_ row: EncodedRows.Row, of batchBytes: UnsafeRawBufferPointer)
            -> Int
        {
            let encoded = UnsafeRawBufferPointer(rebasing: batchBytes[row.start..<row.staged.end])
            bytes.append(bytes: encoded)
            rows.append(row.staged.ending(at: bytes.count))
            return encoded.count
        }

        /// The identities of the rows in order. Rows without transaction id are numbered by
        /// `occurrences`, the counts of content hashes seen earlier in the file: identical rows
        /// share a date, so they share a month.
        func identities(of account: AccountID, occurrences: inout [UInt64: Int])
            -> [TransactionIdentity]
        {
            let prefix = TransactionIdentity.contentPrefix(account)
            return rows.map { row in
                if row.hasTransactionID {
                    return TransactionIdentity(hash: row.hash, isTransactionID: true)
                }
                let occurrence = occurrences[row.hash, default: 0] + 1
                occurrences[row.hash] = occurrence
                return TransactionIdentity(
                    prefix: prefix, contentHash: row.hash, occurrence: occurrence)
            }
        }
    }

    /// Rows of a file encoded for storage on the core that reads it, handed to the merging
    /// core (the busier one) a few thousand at a time. They hold no text, so no string made
    /// on one core is freed on the other.
    private struct EncodedRows: Sendable {
        struct Row: Sendable {
            let accountID: AccountID
            let month: Month
            /// Where the row's bytes start in `bytes`; `staged.end` is where they end.
            let start: Int
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
                    TransactionIdentity(account: row.account.id, transactionID: id).hash
                } else {
                    TransactionIdentity.contentHash(fields)
                }
            rows.append(
                Row(
                    accountID: row.account.id, month: Month(fields.date), start: start,
                    staged: StagedRow(
                        hash: hash, hasTransactionID: fields.transactionID != nil,
                        end: bytes.count, amount: fields.amount.minorUnits, line: row.line)
                ))
        }
    }

    /// A staged row in 32 bytes, as a large import holds hundreds of thousands of them: its
    /// identity hash when it has a transaction id, else its content hash; the end of its
    /// encoded bytes; its amount; and its line, for the messages of conflicts.
    private struct StagedRow: Sendable {
        let hash: UInt64
        /// The end offset, with whether the row has a transaction id in the top bit.
        private let packedEnd: UInt64
        let amount: Int64
        let line: Int

        init(hash: UInt64, hasTransactionID: Bool, end: Int, amount: Int64, line: Int) {
            self.hash = hash
            packedEnd = UInt64(end) | (hasTransactionID ? 1 << 63 : 0)
            self.amount = amount
            self.line = line
        }

        var end: Int { Int(packedEnd & ~(1 << 63)) }
        var hasTransactionID: Bool { packedEnd >> 63 == 1 }

        /// The same row with its bytes ending at `end`.
        func ending(at end: Int) -> StagedRow {
            StagedRow(
                hash: hash, hasTransactionID: hasTransactionID, end: end, amount: amount,
                line: line)
        }
    }

    /// What reading one file has done so far: rows staged in memory, rows written out.
    private struct FileProgress {
        var staged: [AccountMonth: StagedMonth] = [:]
        var stagedBytes = 0
        /// Per account-month, the counts of content hashes of rows without transaction id.
        var occurrences: [AccountMonth: [UInt64: Int]] = [:]
        /// Per account-month, the identities the file added, to forget if it is rejected.
        var added: [AccountMonth: [UInt64]] = [:]
        /// Per account, the magnitudes of the new rows' amounts, added up.
        var turnover: [AccountID: Int64] = [:]
        /// Rows that cannot join the ledger: a transaction id already there with another
        /// amount, or an amount that would take the account's balance out of range.
        var conflicts: [(line: Int, message: DiagnosticMessage)] = []
        var new = 0
        var present = 0
    }

    /// Imports one file, read from `path` and shown as `name`.
    private func importFile(
        at path: String, named name: String, dialect: Dialect?, sniffing: Bool = false,
        tally: FileTally, touched: inout Set<AccountID>, hashed: inout ContentHash?
    ) throws(StorageError) -> FileImport {
        var progress = FileProgress()
        var writeError: StorageError?
        var fileAccounts: [AccountID: Account] = [:]
        var conflicts: [(line: Int, message: DiagnosticMessage)] = []
        let (isStrict, limit) = (reading.isStrict, reading.diagnosticLimit)
        let shard = reading.shard
        let read = { @Sendable (yield: (EncodedRows) -> Void) in
            var collector = DiagnosticCollector(file: name, isStrict: isStrict, limit: limit)
            var batch = EncodedRows()
            var seen = AccountTable<Void>()
            var lastSeen: AccountID?
            func take(_ row: LentRow) {
                // Another part's account: read and checked, kept by that part's import.
                if let shard, !shard.contains(row.account.id) {
                    batch.otherShardRows += 1
                } else {
                    if row.account.id != lastSeen, !seen.contains(row.account.id) {
                        seen.insert(row.account.id)
                        batch.accounts.append((row.account, row.line))
                    }
                    lastSeen = row.account.id
                    batch.append(row)
                }
                if batch.count == EncodedRows.capacity {
                    yield(batch)
                    batch = EncodedRows()
                }
            }
            let summary = withoutActuallyEscaping(take) { take in
                StatementFileReader.read(
                    path: path, dialect: dialect, sniffing: sniffing, hashing: true,
                    diagnostics: &collector, onRow: { _ in }, lending: take)
            }
            if batch.count > 0 { yield(batch) }
            return (summary, collector)
        }
        // Rows are counted for the progress display as they come; the file's own count
        // replaces them when it is done.
        var (rowsSeen, rowsTold) = (0, 0)
        var otherShardRows = 0
        func consume(_ batch: EncodedRows) {
            rowsSeen += batch.count
            if rowsSeen - rowsTold >= 1 << 14 {
                tally.add(rows: rowsSeen - rowsTold)
                rowsTold = rowsSeen
            }
            otherShardRows += batch.otherShardRows
            for (account, line) in batch.accounts {
                fileAccounts[account.id] = account
                if let known = manifest.accounts[account.id]?.account,
                    known.currency != account.currency
                {
                    conflicts.append(
                        (
                            line,
                            .ledgerCurrency(
                                account: account.id, ledger: known.currency,
                                file: account.currency)
                        ))
                }
            }
            // The batch's bytes are borrowed once, not retained and released for every row.
            batch.bytes.withUnsafeBytes { batchBytes in
                for row in batch.rows {
                    guard writeError == nil else { return }
                    let key = AccountMonth(accountID: row.accountID, month: row.month)
                    progress.stagedBytes += progress.staged[key, default: StagedMonth()].append(
                        row, of: batchBytes)
                    if progress.stagedBytes >= stagingLimit {
                        do throws(StorageError) {
                            try writeStaged(&progress, accounts: fileAccounts)
                        } catch { writeError = error }
                    }
                }
            }
        }
        // With more than one core, the file is parsed on another while its rows are staged
        // and written here. The merging core works in bursts (each 16 MB flush sorts, checks
        // and writes what was staged), so up to 32 batches (about 20 MB) may wait: with 8, the
        // reading core stalled at every flush (1M rows: 1.8 s against 1.4 s).
        var (summary, collector) =
            reading.jobs > 1
            ? produceConcurrently(batchSize: 1, depth: 32, read, consume: consume) : read(consume)
        tally.add(rows: -rowsTold)
        hashed = summary.contentHash
        if let writeError { throw writeError }
        for conflict in conflicts {
            collector.report(conflict.message, line: conflict.line, column: 1)
        }
        // An account the file states a balance of, without rows here: the ledger's currency.
        for stated in summary.statedBalances where fileAccounts[stated.account.id] == nil {
            if let known = manifest.accounts[stated.account.id]?.account,
                known.currency != stated.account.currency
            {
                collector.report(
                    .ledgerCurrency(
                        account: known.id, ledger: known.currency, file: stated.account.currency),
                    line: stated.line, column: 1)
            }
        }
        if collector.errorCount == 0 {
            // The last rows, and what only the ledger can tell about them.
            try writeStaged(&progress, accounts: fileAccounts)
            for accountID in fileAccounts.keys where manifest.accounts[accountID] == nil {
                // A new account's opening balance counts toward its turnover too (money is
                // never Int64.min, so its magnitude fits).
                let opening = Int64(summary.openingBalances[accountID]?.minorUnits.magnitude ?? 0)
                if opening.addingReportingOverflow(progress.turnover[accountID] ?? 0).overflow {
                    progress.conflicts.append((1, .balanceOutOfRange(account: accountID)))
                }
            }
            for conflict in progress.conflicts.sorted(by: { $0.line < $1.line }) {
                collector.report(conflict.message, line: conflict.line, column: 1)
            }
        }
        let validation = FileValidation(
            path: name, rowCount: summary.rowCount, notBookedCount: summary.notBookedCount,
            collector: collector)
        guard collector.errorCount == 0 else {
            for (key, hashes) in progress.added {
                for hash in hashes { knownIdentities[key]!.remove(hash) }
                tails[key]!.written = tails[key]!.accepted
            }
            if !isDryRun && writtenLogs != acceptedLogs { try storage.cutBack(to: acceptedLogs) }
            writtenLogs = acceptedLogs
            if summary.needsSniffing {
                // Windows-1252 text streamed as UTF-8: undone above, read again as such.
                return try importFile(
                    at: path, named: name, dialect: dialect, sniffing: true, tally: tally,
                    touched: &touched, hashed: &hashed)
            }
            return FileImport(
                outcome: .rejected, validation: validation, otherShardRows: otherShardRows)
        }
        for (accountID, account) in fileAccounts where manifest.accounts[accountID] == nil {
            let opening = summary.openingBalances[accountID]
            manifest.accounts[accountID] = LedgerManifest.AccountEntry(
                account: account, openingBalance: opening, lastImport: nil,
                turnover: Int64(opening?.minorUnits.magnitude ?? 0), months: [:])
        }
        for stated in summary.statedBalances {
            let accountID = stated.account.id
            guard let day = stated.day, shard?.contains(accountID) ?? true else { continue }
            if manifest.accounts[accountID] == nil {
                // A statement with a balance and no bookings: the account as the bank states it.
                manifest.accounts[accountID] = LedgerManifest.AccountEntry(
                    account: stated.account, openingBalance: nil, lastImport: nil, turnover: 0,
                    months: [:])
            }
            statedAssertions[accountID, default: []].append(
                BalanceAssertion(day: day, balance: stated.balance, source: name, line: stated.line)
            )
            lastFileTouches.insert(accountID)
        }
        for (accountID, added) in progress.turnover {
            // Proven to fit while staging; a dry run over a format 1 ledger starts from 0.
            manifest.accounts[accountID]!.turnover =
                (manifest.accounts[accountID]!.turnover ?? 0) + added
        }
        for key in progress.added.keys {
            tails[key]!.accepted = tails[key]!.written
            touched.insert(key.accountID)
            lastFileTouches.insert(key.accountID)
        }
        acceptedLogs = writtenLogs
        let (new, present) = (progress.new, progress.present)
        return FileImport(
            outcome: new == 0 ? .alreadyPresent(present) : .imported(new: new, present: present),
            validation: validation, otherShardRows: otherShardRows)
    }

    /// Sorts the staged rows into present and new, and appends the new ones to the logs in
    /// one write each (only counted in a dry run). A transaction id found with another
    /// amount, and an amount the account's balance could not hold, become conflicts.
    private func writeStaged(_ progress: inout FileProgress, accounts: [AccountID: Account])
        throws(StorageError)
    {
        let start = writtenLogs
        // Buffers kept from one write to the next, so that their pages are not taken and
        // cleared again every time.
        var (dataLog, idLog) = (logBuffers.data, logBuffers.ids)
        dataLog.removeAll(keepingCapacity: true)
        idLog.removeAll(keepingCapacity: true)
        logBuffers = ([], [])
        defer { logBuffers = (dataLog, idLog) }
        for key in progress.staged.keys.sorted() {
            try loadMonths(of: key.accountID)
            let month = progress.staged.removeValue(forKey: key)!
            let currency = accounts[key.accountID]!.currency
            let rowIdentities = month.identities(
                of: key.accountID, occurrences: &progress.occurrences[key, default: [:]])
            // A row with a transaction id is looked for in the months beside its own too.
            let neighbours =
                month.rows.contains(where: \.hasTransactionID)
                ? try [key.month.previous, key.month.next].compactMap { $0 }.map {
                    (month) throws(StorageError) in
                    (
                        month,
                        try identities(of: AccountMonth(accountID: key.accountID, month: month))
                    )
                } : []
            // Taken out of the dictionaries while they grow, so that they are not copied.
            var known = try identities(of: key)
            knownIdentities[key] = nil
            var added = progress.added.removeValue(forKey: key) ?? []
            var turnover =
                (manifest.accounts[key.accountID]?.turnover ?? 0)
                + (progress.turnover[key.accountID] ?? 0)
            defer {
                knownIdentities[key] = known
                if !added.isEmpty { progress.added[key] = added }
                let base = manifest.accounts[key.accountID]?.turnover ?? 0
                progress.turnover[key.accountID] = turnover - base
            }
            var newRanges: [Range<Int>] = []
            var newTotal: Int64 = 0
            var ids: [UInt8] = []
            var start = 0
            for (row, identity) in zip(month.rows, rowIdentities) {
                let end = row.end
                defer { start = end }
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
                added.append(hash)
                newRanges.append(start..<end)
                newTotal &+= row.amount
                TransactionIdentity.appendEntry(hash: hash, amountCheck: check, to: &ids)
            }
            guard !newRanges.isEmpty else { continue }
            progress.new += newRanges.count
            // Every row new, as in a first import: the staged bytes whole.
            let data =
                newRanges.count == month.rows.count
                ? month.bytes : newRanges.reduce(into: []) { $0 += month.bytes[$1] }
            var tail =
                tails[key]
                ?? MonthTail(
                    accountID: key.accountID, month: key.month,
                    committed: committed.accounts[key.accountID]?.months[key.month])
            tail.written.advance(data: data, ids: ids, at: writtenLogs, total: newTotal)
            writtenLogs.advance(data: data.count, ids: ids.count)
            tails[key] = tail
            if !isDryRun {
                dataLog += data
                idLog += ids
            }
        }
        if !dataLog.isEmpty {
            try storage.appendToLogs(
                data: dataLog, ids: idLog, at: start, committed: committed.logs)
        }
        progress.stagedBytes = 0
    }

    /// Reads an account's months from the ledger the first time the run needs them: a run
    /// reads the month records of the accounts it touches only.
    private func loadMonths(of accountID: AccountID) throws(StorageError) {
        guard let entry = committed.accounts[accountID], !entry.monthsLoaded else { return }
        try storage.loadMonths(of: [accountID], in: &committed)
        manifest.accounts[accountID]!.months = committed.accounts[accountID]!.months
        manifest.accounts[accountID]!.assertions = committed.accounts[accountID]!.assertions
        manifest.accounts[accountID]!.monthsLoaded = true
    }

    /// The identities stored in an account-month plus those this run added, loaded once,
    /// after checking the month's files against their checksums: an import never writes onto
    /// a damaged month.
    private func identities(of key: AccountMonth) throws(StorageError) -> KnownIdentities {
        if let known = knownIdentities[key] { return known }
        var known = KnownIdentities()
        if let length = committed.accounts[key.accountID]?.months[key.month] {
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

    // MARK: Balance assertions

    /// What checking the balances of the touched accounts found.
    private struct BalanceOutcome {
        var reports: [AccountBalanceReport] = []
        /// Per account out of balance, its failures: the file and line that state each, and
        /// what to say.
        var failures: [AccountID: [(source: String, line: Int, message: DiagnosticMessage)]] = [:]
        /// The accounts whose section changed (assertions, their sums, month totals).
        var changed: Set<AccountID> = []
        /// The accounts whose opening balance or balance state changed: every report of
        /// theirs changes.
        var moved: Set<AccountID> = []
        /// The accounts whose assertions imply a balance beyond a 64-bit amount.
        var overflowing: Set<AccountID> = []
    }

    /// The files that added rows or balances to an account whose assertions imply a balance
    /// beyond a 64-bit amount, and under `--strict` those that touched an account the run
    /// leaves out of balance, each with the failures it states (or, stated elsewhere, one
    /// that names the account); `nil` when there are none.
    private func balanceRejections(_ outcome: BalanceOutcome)
        -> [String: [(line: Int, message: DiagnosticMessage)]]?
    {
        var rejections: [String: [(line: Int, message: DiagnosticMessage)]] = [:]
        for (name, accounts) in fileTouches {
            for accountID in accounts.sorted() {
                if outcome.overflowing.contains(accountID) {
                    rejections[name, default: []].append(
                        (0, .balanceOutOfRange(account: accountID)))
                    continue
                }
                guard reading.isStrict, let failures = outcome.failures[accountID],
                    let state = manifest.accounts[accountID]?.outOfBalance
                else { continue }
                let own = failures.filter { $0.source == name }
                rejections[name, default: []] +=
                    own.isEmpty
                    ? [(0, .leavesOutOfBalance(account: accountID, state))]
                    : own.map { ($0.line, $0.message) }
            }
        }
        return rejections.isEmpty ? nil : rejections
    }

    /// Adds the balances the run's files stated to their accounts and checks every assertion
    /// of each account the run touched against the ledger (`BalanceCheck`), setting each
    /// account's opening balance and balance state.
    ///
    /// - Complexity: the months of an account from the earliest the run added rows to, and
    ///   the totals of the months before it; an assertion checked before keeps the sum of the
    ///   bookings up to its day unless the run added bookings on or before it.
    private func checkBalances(grown: [MonthTail]) throws(StorageError) -> BalanceOutcome {
        var earliest: [AccountID: Day] = [:]
        for tail in grown {
            let first = try! Day(year: tail.month.year, month: tail.month.month, day: 1)
            earliest[tail.accountID] = min(earliest[tail.accountID] ?? first, first)
        }
        var outcome = BalanceOutcome()
        // Failures are said at most `--max-diagnostics` times per file, as its own are.
        var said: [String: Int] = [:]
        let limit = reading.diagnosticLimit == 0 ? Int.max : reading.diagnosticLimit
        for accountID in Set(earliest.keys).union(statedAssertions.keys).sorted() {
            try loadMonths(of: accountID)
            var entry = manifest.accounts[accountID]!
            let added = BalanceAssertion.merge(
                statedAssertions[accountID] ?? [], into: &entry.assertions)
            guard !entry.assertions.isEmpty else { continue }
            let before = entry
            try fillSums(&entry, from: earliest[accountID])
            let check = BalanceCheck(
                assertions: entry.assertions, sums: entry.assertions.map { $0.ledgerSum! })
            if check.overflows { outcome.overflowing.insert(accountID) }
            entry.openingBalance = check.opening
            entry.outOfBalance = check.outOfBalance
            // The turnover counts the opening balance's magnitude.
            let magnitude = { (money: Money?) in Int64(money?.minorUnits.magnitude ?? 0) }
            let (turnover, overflow) = ((entry.turnover ?? 0) - magnitude(before.openingBalance))
                .addingReportingOverflow(magnitude(check.opening))
            entry.turnover = overflow ? .max : turnover
            manifest.accounts[accountID] = entry
            if added || entry != before { outcome.changed.insert(accountID) }
            if before.openingBalance != entry.openingBalance
                || before.outOfBalance != entry.outOfBalance
            {
                outcome.moved.insert(accountID)
            }
            let failures = check.failures.map { failure in
                (
                    source: failure.assertion.source, line: failure.assertion.line,
                    message: DiagnosticMessage.balanceAssertion(failure, account: accountID)
                )
            }
            if !failures.isEmpty { outcome.failures[accountID] = failures }
            let shown = failures.filter { failure in
                said[failure.source, default: 0] += 1
                return said[failure.source]! <= limit
            }
            outcome.reports.append(
                AccountBalanceReport(
                    account: entry.account,
                    failures: shown.map { failure in
                        Diagnostic(
                            file: failure.source, line: failure.line, column: 1,
                            severity: .error, code: failure.message.code,
                            message: failure.message.text)
                    },
                    outOfBalance: entry.outOfBalance,
                    wasOutOfBalance: committed.accounts[accountID]?.outOfBalance))
        }
        return outcome
    }

    /// Works out, for each assertion without one or on or after `from`, the sum of the
    /// account's bookings dated on or before its day: the totals of the months before its
    /// month, and its month's bookings up to its day.
    private func fillSums(_ entry: inout LedgerManifest.AccountEntry, from: Day?)
        throws(StorageError)
    {
        let needed = entry.assertions.indices.filter { index in
            let assertion = entry.assertions[index]
            return assertion.ledgerSum == nil || from.map { assertion.day >= $0 } ?? false
        }
        guard let last = needed.last else { return }
        let lastMonth = Month(entry.assertions[last].day)
        // The sum of the months before each month, up to the last one needed.
        var before: [Month: Int64] = [:]
        var running: Int64 = 0
        for month in entry.months.keys.sorted() where month <= lastMonth {
            before[month] = running
            var length = entry.months[month]!
            if length.total == nil {
                // A month of format 4: its total, worked out once and kept.
                length.total = try storage.total(of: entry.account, in: month, length: length)
                    .minorUnits
                entry.months[month] = length
            }
            running &+= length.total!
        }
        var days: [Month: [(day: Day, sum: Int64)]] = [:]
        for index in needed {
            let day = entry.assertions[index].day
            let month = Month(day)
            let sumBefore =
                before[month]
                ?? entry.months.filter { $0.key < month }.values.reduce(0) {
                    $0 &+ $1.total!
                }
            var partial: Int64 = 0
            if let length = entry.months[month] {
                if days[month] == nil {
                    // The month's bookings summed by day, in order.
                    var sums: [Day: Int64] = [:]
                    for transaction in try storage.transactions(
                        of: entry.account, in: month, length: length)
                    {
                        sums[transaction.date, default: 0] &+= transaction.amount.minorUnits
                    }
                    var cumulative: Int64 = 0
                    days[month] = sums.keys.sorted().map { day in
                        cumulative &+= sums[day]!
                        return (day, cumulative)
                    }
                }
                partial = days[month]!.last { $0.day <= day }?.sum ?? 0
            }
            entry.assertions[index].ledgerSum = sumBefore &+ partial
        }
    }
}
