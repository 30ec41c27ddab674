/// What `statements undo` took back (or, in a dry run, would take back).
package struct UndoReport: Hashable, Sendable {
    /// The generation of the ledger taken back, and the generation it is now.
    package let undone: Int
    package let generation: Int
    /// How many transactions the run had added (fewer than none for a `forget`, which took
    /// some out), and the accounts it had changed.
    package let transactionCount: Int
    package let accounts: [AccountID]
    /// The statement files the run recorded as imported, by absolute path (those imported
    /// whole without a warning: the ledger keeps no record of the others).
    package let files: [String]
    /// The account-months the run had made, which the ledger no longer holds.
    package let vanished: [AccountMonthName]
    package let isDryRun: Bool

    /// An account and a month, as report files are named.
    package struct AccountMonthName: Hashable, Sendable {
        package let accountID: AccountID
        package let month: Month
    }
}

/// Why there is no run to take back.
package enum UndoRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// No run since the ledger was made, or since the last undo.
    case nothingToUndo
    /// The last run changed the format or compacted the months log: its start is gone.
    case cannotRestore(String)

    package var description: String {
        switch self {
        case .nothingToUndo:
            "nothing to undo: the ledger keeps the state before its last run that added transactions, and that run was taken back already, or there was none"
        case .cannotRestore(let reason): "the last run cannot be taken back: \(reason)"
        }
    }
}

extension StateController {
    /// Takes back the last run that changed the ledger's transactions (an import or a
    /// process): the ledger returns to its state before that run, in one atomic commit, with
    /// a new generation (so that `process` writes the reports again); the run's files are
    /// no longer recorded, so importing them again adds them again.
    ///
    /// - Throws: `StorageError` when the ledger is locked, unreadable or damaged;
    ///   `UndoRefusal` (in `.failure`) when there is no run to take back.
    package func undoLastRun(dryRun: Bool) throws(StorageError) -> Result<UndoReport, UndoRefusal> {
        if !dryRun { try storage.lockForWriting() }
        defer { storage.unlock() }
        let current = try storage.loadManifest()
        guard var kept = try storage.undoManifest(current: current) else {
            return .failure(.nothingToUndo)
        }
        guard kept.version == LedgerManifest.formatVersion else {
            return .failure(.cannotRestore("it upgraded the ledger from an earlier format"))
        }
        guard storage.canRestore(kept) else {
            return .failure(.cannotRestore("it compacted the ledger's month records"))
        }
        try storage.loadAllAccounts(&kept)
        try storage.loadMonths(of: Array(kept.accounts.keys), in: &kept)
        var count = 0
        var accounts: [AccountID] = []
        var vanished: [UndoReport.AccountMonthName] = []
        // A forget's accounts that went: in the kept manifest only.
        for (accountID, entry) in kept.accounts where current.accounts[accountID] == nil {
            count -= entry.months.values.reduce(0) { $0 + $1.idBytes } / 16
            accounts.append(accountID)
        }
        for (accountID, entry) in current.accounts {
            let before = kept.accounts[accountID]
            for month in entry.months.keys where before?.months[month] == nil {
                vanished.append(UndoReport.AccountMonthName(accountID: accountID, month: month))
            }
            let idBytes = { (months: [Month: LedgerManifest.MonthLength]) in
                months.values.reduce(0) { $0 + $1.idBytes }
            }
            count += (idBytes(entry.months) - idBytes(before?.months ?? [:])) / 16
            if before?.months != entry.months || before?.assertions != entry.assertions {
                accounts.append(accountID)
            }
        }
        let files = current.files.keys.filter { kept.files[$0] == nil }.sorted()
        let report = UndoReport(
            undone: current.generation, generation: current.generation + 1,
            transactionCount: count, accounts: accounts.sorted(), files: files,
            vanished: vanished.sorted { ($0.accountID, $0.month) < ($1.accountID, $1.month) },
            isDryRun: dryRun)
        guard !dryRun else { return .success(report) }
        kept.generation = current.generation + 1
        try storage.commitUndo(&kept)
        storage.appendHistory(
            "\(clock()) undo: took back generation \(report.undone) (\(count >= 0 ? count.counted("transaction") : "a forget: \((-count).counted("transaction")) back") of \(accounts.count.counted("account"))); generation \(report.generation)"
        )
        return .success(report)
    }

    /// The history line of an import that committed a generation.
    static func historyLine(of report: ImportReport, at time: String) -> String {
        let accepted = report.files.count - report.rejectedCount
        return
            "\(time) import: generation \(report.generations.after) (\(report.newCount.counted("new transaction")) from \(accepted.counted("file")), \(report.rejectedCount.counted("file")) rejected)"
    }
}
