import Foundation

/// The files of a run: each read, or skipped as unchanged or still rejected, and merged.
extension ImportRun {
    /// Imports a file, unless the ledger recorded it as imported whole and it is unchanged:
    /// its stamp the same (a `stat`), or, when the stamp moved, its bytes (a hash, and no
    /// parsing). Records a file imported whole without a warning, unless it changed while it
    /// was read; forgets the record of a file that changed and was not.
    func importUnlessUnchanged(
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
    func forgetFilesGone(below roots: [String]) {
        for path in manifest.filesRecorded(below: roots) where !foundPaths.contains(path) {
            manifest.files[path] = nil
        }
    }

    /// Imports one file, read from `path` and shown as `name`.
    private func importFile(
        at path: String, named name: String, dialect: Dialect?, sniffing: Bool = false,
        tally: FileTally, touched: inout Set<AccountID>, hashed: inout ContentHash?
    ) throws(StorageError) -> FileImport {
        fileNumber += 1
        var progress = FileProgress()
        var writeError: StorageError?
        var fileAccounts: [AccountID: Account] = [:]
        var conflicts: [(line: Int, message: DiagnosticMessage)] = []
        let (isStrict, limit) = (reading.isStrict, reading.diagnosticLimit)
        let shard = reading.shard
        let read = Self.reader(
            path: path, named: name, dialect: dialect, sniffing: sniffing, isStrict: isStrict,
            limit: limit, shard: shard)
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
            do throws(StorageError) {
                try note(batch.accounts, in: &fileAccounts, conflicts: &conflicts)
            } catch { writeError = writeError ?? error }
            // The batch's bytes are borrowed once, not retained and released for every row.
            let batchBytes = batch.bytes.span
            // Room for a flush's rows, made once the file has rows: the staging limit and a
            // batch more.
            progress.staged.reserve(stagingLimit + batch.bytes.count)
            for row in batch.rows {
                guard writeError == nil else { break }
                progress.staged.append(row, of: batchBytes)
                if progress.staged.bytes.count >= stagingLimit {
                    do throws(StorageError) {
                        try writeStaged(&progress, accounts: fileAccounts)
                    } catch { writeError = error }
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
        try checkAgainstLedger(
            summary, accounts: fileAccounts, &progress, collector: &collector)
        let validation = FileValidation(
            path: name, rowCount: summary.rowCount, notBookedCount: summary.notBookedCount,
            collector: collector)
        guard collector.errorCount == 0 else {
            try undo(progress)
            if summary.needsSniffing {
                // Windows-1252 text streamed as UTF-8: undone above, read again as such.
                return try importFile(
                    at: path, named: name, dialect: dialect, sniffing: true, tally: tally,
                    touched: &touched, hashed: &hashed)
            }
            return FileImport(
                outcome: .rejected, validation: validation, otherShardRows: otherShardRows)
        }
        accept(progress, summary, accounts: fileAccounts, named: name, touched: &touched)
        let (new, present) = (progress.new, progress.present)
        return FileImport(
            outcome: new == 0 ? .alreadyPresent(present) : .imported(new: new, present: present),
            validation: validation, otherShardRows: otherShardRows)
    }

    /// What an account-month held before the file being read staged rows of it: what an
    /// earlier file of the run left it at, or its committed record.
    private func length(of key: AccountMonth, before progress: FileProgress)
        -> LedgerManifest.MonthLength
    {
        progress.acceptedBefore[key] ?? committed.accounts[key.accountID]?.months[key.month]
            ?? .empty
    }

    /// Undoes what a rejected file staged: its identities and the bytes appended to the logs.
    private func undo(_ progress: FileProgress) throws(StorageError) {
        for key in progress.stagedMonths {
            // Read again from the accepted rows when needed.
            if !isDryRun { knownIdentities[key] = nil }
            tails[existing: key].written = length(of: key, before: progress)
        }
        for (key, hashes) in progress.addedHashes {
            guard let place = knownIdentities.place(of: key) else { continue }
            for hash in hashes { knownIdentities[place].remove(hash) }
        }
        if !isDryRun && writtenLogs != acceptedLogs { try storage.cutBack(to: acceptedLogs) }
        writtenLogs = acceptedLogs
    }

    /// Reads a file into batches of encoded rows, handed to `yield`; the rows of another
    /// part's accounts are counted, not kept.
    private static func reader(
        path: String, named name: String, dialect: Dialect?, sniffing: Bool, isStrict: Bool,
        limit: Int, shard: Shard?
    ) -> @Sendable ((EncodedRows) -> Void) -> (ParseSummary, DiagnosticCollector) {
        { @Sendable (yield: (EncodedRows) -> Void) in
            var collector = DiagnosticCollector(file: name, isStrict: isStrict, limit: limit)
            // One variable, so that a row costs one exclusive access to what the closure
            // captures, not one for each of its parts.
            var batcher = Batcher(shard: shard)
            func take(_ row: LentRow) { batcher.take(row, yield) }
            let summary = withoutActuallyEscaping(take) { take in
                StatementFileReader.read(
                    path: path, dialect: dialect, sniffing: sniffing, hashing: true,
                    diagnostics: &collector, onRow: { _ in }, lending: take)
            }
            if batcher.batch.count > 0 { yield(batcher.batch) }
            return (summary, collector)
        }
    }

    /// What the reading core gathers a file's rows in: the batch being filled, and the
    /// accounts seen so far.
    private struct Batcher {
        let shard: Shard?
        var batch = EncodedRows()
        var seen = AccountTable<Void>()
        var lastSeen: AccountID?

        init(shard: Shard?) { self.shard = shard }

        /// Adds a row; a full batch goes to `yield`.
        mutating func take(_ row: LentRow, _ yield: (EncodedRows) -> Void) {
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
    }

    /// Notes the accounts of a batch among the file's, with a conflict for each kept in the
    /// ledger in another currency.
    private func note(
        _ accounts: [(account: Account, line: Int)], in fileAccounts: inout [AccountID: Account],
        conflicts: inout [(line: Int, message: DiagnosticMessage)]
    ) throws(StorageError) {
        try loadAccounts(accounts.map(\.account.id))
        for (account, line) in accounts {
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
    }

    /// What only the ledger can tell about a file: the currency of an account it states a
    /// balance of without rows here; and, when it has no error, its last rows written, a new
    /// account's turnover in range, and its conflicts reported.
    private func checkAgainstLedger(
        _ summary: ParseSummary, accounts fileAccounts: [AccountID: Account],
        _ progress: inout FileProgress, collector: inout DiagnosticCollector
    ) throws(StorageError) {
        // An account the file states a balance of, without rows here: the ledger's currency.
        try loadAccounts(summary.statedBalances.map(\.account.id))
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
    }

    /// Takes a file without errors into the run's manifest: its new accounts, its stated
    /// balances, its turnover and its months' tails.
    private func accept(
        _ progress: FileProgress, _ summary: ParseSummary,
        accounts fileAccounts: [AccountID: Account],
        named name: String, touched: inout Set<AccountID>
    ) {
        let shard = reading.shard
        for (accountID, account) in fileAccounts {
            guard manifest.accounts[accountID] == nil else {
                // An account first read from a file that did not name it takes the name the
                // first file that does gives it, whatever order the files come in.
                if manifest.accounts[accountID]!.account.name == nil, let name = account.name {
                    manifest.accounts[accountID]!.account.name = name
                }
                continue
            }
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
        for key in progress.stagedMonths {
            // `length(of:before:)`, without looking the month up in the manifest: the tail
            // keeps its committed length.
            let tail = tails[existing: key]
            let before =
                progress.acceptedBefore.isEmpty
                ? tail.committedDataBytes
                : progress.acceptedBefore[key]?.dataBytes ?? tail.committedDataBytes
            guard tail.written.dataBytes != before else { continue }
            touched.insert(key.accountID)
            lastFileTouches.insert(key.accountID)
        }
        acceptedLogs = writtenLogs
    }
}
