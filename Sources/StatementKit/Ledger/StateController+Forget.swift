import Foundation

/// `statements forget FILE`: one statement file's transactions and stated balances taken out
/// of the ledger, in one atomic commit.
///
/// The ledger keeps no copy of a file's rows, only what it holds of each transaction: its
/// identity. Forgetting reads the file again (as it was imported: the same profile and
/// `--account`), works out the identities of its rows as an import does, and takes those
/// transactions out of the months that hold them: each such month is written again, without
/// them, as a new extent past the logs' committed lengths (journaled, as an import appends),
/// and one manifest rename makes it visible, so a crash leaves the ledger before or after.
extension StateController {
    /// The rows of one account-month of the file, and which stored rows they are.
    private struct MonthPlan {
        /// The identity hashes of the file's rows, in file order.
        var hashes: [UInt64] = []
        /// Whether each row has a transaction id (which may be stored a month away).
        var hasTransactionID: [Bool] = []
    }

    /// The file as read again: its rows and what it states.
    private struct ReadFile {
        var rows: [ParsedRow]
        var summary: ParseSummary
    }

    /// Takes one statement file's transactions, and the balances it states, out of the
    /// ledger; refuses (`.failure`) when the ledger does not hold every transaction of it.
    ///
    /// Every file record is forgotten with it, so that the next run reads its files again
    /// and adds back what another file also holds; the files rejected so far are forgotten
    /// (one may have been rejected for what the ledger held). The run before stays the undo
    /// point's: `undo` after `forget` brings the file's transactions back.
    ///
    /// - Parameter statementFiles: the one file, with its dialect and how it is read.
    /// - Throws: `StorageError` when the file cannot be read, or the ledger is locked,
    ///   unreadable or damaged.
    package func forget(_ statementFiles: StatementFiles, dryRun: Bool)
        throws(StorageError) -> Result<ForgetReport, ForgetRefusal>
    {
        precondition(statementFiles.entries.count == 1, "forget reads one file")
        let first = statementFiles.entries[0]
        let file: FileFinder.FoundFile
        switch first.entry {
        case .file(let found): file = found
        case .problem(let path, _, let reason):
            throw .io(path: path, operation: "read", reason: reason)
        case .badProfile(let found, let error):
            return .failure(
                .hasErrors(file: found.name, errors: 1, first: "[PROFILE_INVALID] \(error)"))
        }
        // How the file is read, as an import records it (a part of a split ledger keeps
        // other rows of a file than the whole does).
        var fingerprint = first.reading
        if let shard = reading.shard { fingerprint.feed(Array("shard \(shard)".utf8)) }
        if !dryRun { try storage.lockForWriting() }
        defer { storage.unlock() }
        var manifest = try storage.loadManifest(months: false)
        if !dryRun && manifest.version < LedgerManifest.formatVersion {
            throw .unreadable(
                folder: storage.folder,
                reason:
                    "it is in format \(manifest.version); run 'statements import' once (it upgrades the ledger) before forgetting a file"
            )
        }
        let read: ReadFile
        switch try readAgain(file, dialect: first.dialect) {
        case .success(let file): read = file
        case .failure(let refusal): return .failure(refusal)
        }
        let (order, plans) = Self.plans(of: read.rows)
        let accountIDs = Set(order.map(\.accountID)).union(
            read.summary.statedBalances.map(\.account.id)
        ).filter { manifest.accounts[$0] != nil }
        try storage.loadMonths(of: accountIDs, in: &manifest)
        let committed = manifest
        let (removals, found) = try storedRows(of: order, plans, in: manifest)
        let assertionCount = Self.takeOutBalances(
            read.summary.statedBalances, of: accountIDs, from: &manifest)
        if found < read.rows.count || (found == 0 && assertionCount == 0) {
            let recorded = POSIXIO.canonicalPath(file.path).flatMap { manifest.files[$0] }
            return .failure(
                Self.refusal(
                    file.name, found: found, rows: read.rows.count, recorded: recorded,
                    content: read.summary.contentHash, hasBalances: assertionCount > 0))
        }
        let (changed, vanished) = try rewrite(removals, in: &manifest, dryRun: dryRun)
        let touched = Set(removals.keys.map(\.accountID)).union(
            accountIDs.filter {
                manifest.accounts[$0]!.assertions != committed.accounts[$0]!.assertions
            })
        Self.dropEmpty(touched, in: &manifest)
        // A dry run checks no balance (as an import's): the months it would write are not there.
        let balances =
            dryRun
            ? []
            : try checkBalances(
                of: touched.filter { manifest.accounts[$0] != nil }, changed: changed,
                committed: committed, manifest: &manifest)
        let report = ForgetReport(
            file: file.name,
            wasRecorded: manifest.files.values.contains {
                $0.content == read.summary.contentHash && $0.reading == fingerprint
            },
            transactionCount: found, accounts: touched.sorted(), assertionCount: assertionCount,
            vanished: vanished, changed: changed,
            generations: (committed.generation, committed.generation + (dryRun ? 0 : 1)),
            balances: balances, isDryRun: dryRun)
        guard !dryRun else { return .success(report) }
        try commitForget(
            &manifest, accounts: touched.filter { manifest.accounts[$0] != nil },
            keeping: committed,
            history:
                "\(clock()) forget: \(file.name) (\(found.counted("transaction")) of \(touched.count.counted("account")), \(assertionCount.counted("balance")) taken out); generation \(committed.generation + 1)"
        )
        return .success(report)
    }

    /// Commits the ledger without the file's rows, with a new generation and no file
    /// records, keeping the ledger before it as the undo point; then forgets the rejected
    /// files and writes the history line.
    private func commitForget(
        _ manifest: inout LedgerManifest, accounts: Set<AccountID>,
        keeping committed: LedgerManifest, history: String
    ) throws(StorageError) {
        manifest.files = [:]
        manifest.generation += 1
        do throws(StorageError) {
            try storage.commit(&manifest, changed: accounts, keepingForUndo: committed)
        } catch {
            try? storage.rollBack()
            throw error
        }
        storage.forgetRejectedFiles()
        storage.appendHistory(history)
    }

    /// Reads the file again as an import reads it (through the sniffer when it turns out to
    /// be Windows-1252), keeping the rows and balances of this part of a split ledger.
    private func readAgain(_ file: FileFinder.FoundFile, dialect: Dialect?)
        throws(StorageError) -> Result<ReadFile, ForgetRefusal>
    {
        var collector = DiagnosticCollector(file: file.name, isStrict: false, limit: 1)
        var rows: [ParsedRow] = []
        var summary = StatementFileReader.read(
            path: file.path, dialect: dialect, hashing: true, diagnostics: &collector,
            onRow: { rows.append($0) })
        if summary.needsSniffing {
            (rows, collector) = (
                [], DiagnosticCollector(file: file.name, isStrict: false, limit: 1)
            )
            summary = StatementFileReader.read(
                path: file.path, dialect: dialect, sniffing: true, hashing: true,
                diagnostics: &collector, onRow: { rows.append($0) })
        }
        guard collector.errorCount == 0 else {
            if collector.hasEnvironmentError {
                throw .io(
                    path: file.name, operation: "read",
                    reason: collector.diagnostics.first?.message ?? "unreadable")
            }
            return .failure(
                .hasErrors(
                    file: file.name, errors: collector.errorCount,
                    first: collector.diagnostics.first.map {
                        "line \($0.line):\($0.column): [\($0.code.rawValue)] \($0.message)"
                    } ?? ""))
        }
        // A part of a split ledger holds the rows and balances of its own accounts only.
        if let shard = reading.shard {
            rows.removeAll { !shard.contains($0.account.id) }
            summary.statedBalances.removeAll { !shard.contains($0.account.id) }
        }
        return .success(ReadFile(rows: rows, summary: summary))
    }

    /// The file's rows by account-month, in the order first met, with their identities as
    /// an import works them out (content rows numbered within the file and month).
    private static func plans(of rows: [ParsedRow]) -> (
        order: [ImportRun.AccountMonth], plans: [ImportRun.AccountMonth: MonthPlan]
    ) {
        var byMonth: [ImportRun.AccountMonth: [Transaction]] = [:]
        var order: [ImportRun.AccountMonth] = []
        for row in rows {
            let key = ImportRun.AccountMonth(
                accountID: row.account.id, month: Month(row.transaction.date))
            if byMonth[key] == nil { order.append(key) }
            byMonth[key, default: []].append(row.transaction)
        }
        var plans: [ImportRun.AccountMonth: MonthPlan] = [:]
        for key in order {
            let transactions = byMonth[key]!
            let entries = TransactionIdentity.entries(of: transactions, account: key.accountID)
            plans[key] = MonthPlan(
                hashes: entries.map(\.hash),
                hasTransactionID: transactions.map { $0.transactionID != nil })
        }
        return (order, plans)
    }

    /// Which stored rows are the file's: per account-month, the indexes to take out, and
    /// how many of the file's rows were found. The stored identities are indexed by hash
    /// (the places of each, in order), and each of the file's rows claims the first place
    /// of its hash not claimed yet.
    private func storedRows(
        of order: [ImportRun.AccountMonth], _ plans: [ImportRun.AccountMonth: MonthPlan],
        in manifest: LedgerManifest
    ) throws(StorageError) -> (removals: [ImportRun.AccountMonth: Set<Int>], found: Int) {
        var removals: [ImportRun.AccountMonth: Set<Int>] = [:]
        var places: [ImportRun.AccountMonth: [UInt64: [Int]]] = [:]
        var claimed: [ImportRun.AccountMonth: [UInt64: Int]] = [:]
        func stored(_ key: ImportRun.AccountMonth) throws(StorageError) -> [UInt64: [Int]] {
            if let known = places[key] { return known }
            var known: [UInt64: [Int]] = [:]
            if let length = manifest.accounts[key.accountID]?.months[key.month] {
                let entries = try storage.identities(
                    of: key.accountID, in: key.month, length: length)
                for (index, entry) in entries.enumerated() {
                    known[entry.hash, default: []].append(index)
                }
            }
            places[key] = known
            return known
        }
        var found = 0
        for key in order {
            let plan = plans[key]!
            for (hash, hasID) in zip(plan.hashes, plan.hasTransactionID) {
                // A transaction id may be stored in the month before or after (re-dated).
                let months =
                    hasID
                    ? [key.month, key.month.previous, key.month.next].compactMap { $0 }
                    : [key.month]
                for month in months {
                    let place = ImportRun.AccountMonth(accountID: key.accountID, month: month)
                    let indexes = try stored(place)[hash] ?? []
                    let taken = claimed[place]?[hash] ?? 0
                    guard taken < indexes.count else { continue }
                    removals[place, default: []].insert(indexes[taken])
                    claimed[place, default: [:]][hash] = taken + 1
                    found += 1
                    break
                }
            }
        }
        return (removals, found)
    }

    /// Takes the balances the file states out of its accounts' assertions, by what they
    /// state (the same balance at the end of the same day); how many went.
    private static func takeOutBalances(
        _ stated: [StatedBalance], of accountIDs: Set<AccountID>,
        from manifest: inout LedgerManifest
    ) -> Int {
        var count = 0
        for accountID in accountIDs {
            let own = stated.filter { $0.account.id == accountID }
            guard !own.isEmpty else { continue }
            let before = manifest.accounts[accountID]!.assertions.count
            manifest.accounts[accountID]!.assertions.removeAll { assertion in
                own.contains { $0.day == assertion.day && $0.balance == assertion.balance }
            }
            count += before - manifest.accounts[accountID]!.assertions.count
        }
        return count
    }

    /// Why the ledger does not hold the file: none of it (never imported), other bytes
    /// recorded at its path (changed since), or only some of it.
    private static func refusal(
        _ name: String, found: Int, rows: Int, recorded: ImportedFile?, content: ContentHash?,
        hasBalances: Bool
    ) -> ForgetRefusal {
        if found == 0 && !hasBalances && recorded == nil {
            return .notImported(file: name, rows: rows)
        }
        if let recorded, recorded.content != content {
            return .changedSinceImport(file: name, found: found, rows: rows)
        }
        return .partlyPresent(file: name, found: found, rows: rows)
    }

    /// Drops an account left with no transaction and no balance; one left with no balance
    /// has no opening balance or balance state any more.
    private static func dropEmpty(_ accountIDs: Set<AccountID>, in manifest: inout LedgerManifest) {
        for accountID in accountIDs {
            let entry = manifest.accounts[accountID]!
            if entry.months.isEmpty && entry.assertions.isEmpty {
                manifest.accounts[accountID] = nil
            } else if entry.assertions.isEmpty {
                manifest.accounts[accountID]!.openingBalance = nil
                manifest.accounts[accountID]!.outOfBalance = nil
            }
        }
    }

    /// Writes again each account-month that loses rows, without them, as one new extent past
    /// the logs' committed lengths (nothing in a dry run); a month that loses every row goes.
    ///
    /// - Returns: the account-months whose rows changed, and those that went.
    private func rewrite(
        _ removals: [ImportRun.AccountMonth: Set<Int>], in manifest: inout LedgerManifest,
        dryRun: Bool
    ) throws(StorageError) -> (
        changed: [UndoReport.AccountMonthName], vanished: [UndoReport.AccountMonthName]
    ) {
        var changed: [UndoReport.AccountMonthName] = []
        var vanished: [UndoReport.AccountMonthName] = []
        let committedLogs = manifest.logs
        var ends = manifest.logs
        do throws(StorageError) {
            for key in removals.keys.sorted() {
                let removed = removals[key]!
                let name = UndoReport.AccountMonthName(accountID: key.accountID, month: key.month)
                changed.append(name)
                let entry = manifest.accounts[key.accountID]!
                let length = entry.months[key.month]!
                let lines = try storage.dataBytes(of: key.accountID, in: key.month, length: length)
                let ids = try storage.identityBytes(
                    of: key.accountID, in: key.month, length: length)
                var (data, index) = ([UInt8](), [UInt8]())
                var start = 0
                var row = 0
                for (offset, byte) in lines.enumerated() where byte == 10 {
                    if !removed.contains(row) {
                        data += lines[start...offset]
                        index += ids[(16 * row)..<(16 * row + 16)]
                    }
                    (start, row) = (offset + 1, row + 1)
                }
                let removedSum: Int64
                let days: ClosedRange<Int>?
                do throws(LedgerRecord.DecodingError) {
                    let total = try LedgerRecord.sum(lines, currency: entry.account.currency)
                    let kept = try LedgerRecord.summary(data, currency: entry.account.currency)
                    removedSum = total.minorUnits &- kept.total.minorUnits
                    days = kept.days
                } catch {
                    throw storage.damaged(
                        error, account: entry.account, in: key.month, length: length)
                }
                let turnover =
                    (manifest.accounts[key.accountID]!.turnover ?? 0) - removedSum.magnitudeClamped
                manifest.accounts[key.accountID]!.turnover = max(0, turnover)
                guard !data.isEmpty else {
                    manifest.accounts[key.accountID]!.months[key.month] = nil
                    vanished.append(name)
                    continue
                }
                var rewritten = LedgerManifest.MonthLength.empty
                rewritten.advance(data: data.span, ids: index.span, at: ends, days: days)
                rewritten.total = length.total.map { $0 &- removedSum }
                if !dryRun {
                    try storage.appendToLogs(
                        data: data, ids: index, at: ends, committed: committedLogs)
                }
                ends.advance(data: data.count, ids: index.count)
                manifest.accounts[key.accountID]!.months[key.month] = rewritten
            }
        } catch {
            if !dryRun { try? storage.rollBack() }
            throw error
        }
        manifest.logs = ends
        return (changed, vanished)
    }

    /// Checks the balances of the accounts the file touched again, as an import does after
    /// its rows are merged, setting each one's opening balance and balance state.
    private func checkBalances(
        of accounts: Set<AccountID>, changed: [UndoReport.AccountMonthName],
        committed: LedgerManifest, manifest: inout LedgerManifest
    ) throws(StorageError) -> [AccountBalanceReport] {
        let run = ImportRun(
            storage: storage, committed: committed, stagingLimit: 1 << 24, isDryRun: true,
            reading: reading)
        run.manifest = manifest
        var grown = changed.filter { accounts.contains($0.accountID) }.map {
            ImportRun.AccountMonth(accountID: $0.accountID, month: $0.month)
        }
        // An account that lost balances only: its assertions are checked from its first.
        for accountID in accounts where !grown.contains(where: { $0.accountID == accountID }) {
            let entry = manifest.accounts[accountID]!
            guard
                let first = entry.months.keys.min()
                    ?? entry.assertions.first.map({ Month($0.day) })
            else { continue }
            grown.append(ImportRun.AccountMonth(accountID: accountID, month: first))
        }
        let outcome = try run.checkBalances(grown: grown)
        manifest = run.manifest
        return outcome.reports.filter { $0.outOfBalance != nil || $0.hasCleared }
    }
}

extension Int64 {
    /// The magnitude as an `Int64`, `Int64.max` for `Int64.min`'s.
    fileprivate var magnitudeClamped: Int64 { Int64(exactly: magnitude) ?? .max }
}

extension StorageController {
    /// Forgets the files rejected so far (`RejectedFiles`): one may have been rejected for
    /// what the ledger held, which changed.
    func forgetRejectedFiles() {
        _ = unlink(folder + "/" + RejectedFiles.fileName)
    }
}
