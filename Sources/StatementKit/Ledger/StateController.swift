import Foundation

/// Holds the ledger and its business logic: merging statement files into accounts exactly
/// once (each run an `ImportRun`), upgrading an older ledger format, deciding when to save,
/// and answering the read-only queries of `accounts`, `report` and `process`.
package final class StateController {
    let storage: StorageController
    let clock: () -> String
    /// How many encoded bytes of a file are held before they are written out as uncommitted
    /// tails, so that memory does not grow with the file.
    private let stagingLimit: Int
    /// How many account-months' identities an import holds before it lets go of those it
    /// has not looked at lately; tests make it small.
    var identityLimit = 1 << 16
    /// How imports read their files: strictness, diagnostics kept, cores, progress.
    package var reading = ReadSettings()

    /// Creates a controller over a storage controller.
    ///
    /// - Parameter clock: the time recorded as an account's last import.
    package convenience init(
        storage: StorageController, clock: @escaping () -> String = StateController.currentTime
    ) {
        self.init(storage: storage, clock: clock, stagingLimit: 16 << 20)
    }

    /// Creates a controller that writes a file's rows out every `stagingLimit` bytes; tests
    /// make it small.
    init(storage: StorageController, clock: @escaping () -> String, stagingLimit: Int) {
        self.storage = storage
        self.clock = clock
        self.stagingLimit = stagingLimit
    }

    /// The current time as ISO 8601 in UTC, such as `2026-11-22T22:58:00Z`.
    package static func currentTime() -> String {
        Date().formatted(.iso8601)
    }

    // MARK: Import

    /// Imports every statement file at or below the paths, each file whole or not at all, and
    /// saves the result in one atomic commit; a format 1 ledger is upgraded first.
    ///
    /// - Parameter dryRun: report what would happen, take no lock and write nothing.
    /// - Throws: `StorageError` when the state folder cannot be locked, read or written;
    ///   nothing of the run is then visible.
    package func importFiles(_ statementFiles: StatementFiles, dryRun: Bool = false)
        throws(StorageError) -> ImportReport
    {
        // Paths that name no file at all leave the ledger (or its absence) untouched, unless
        // it recorded files below them that are gone (an inbox emptied by `--archive`), whose
        // records the run forgets: otherwise the run has nothing to commit, and takes no lock
        // (which creates the folder).
        var writes =
            !dryRun
            && statementFiles.entries.contains {
                if case .file = $0.entry { true } else { false }
            }
        if !dryRun && !writes && !statementFiles.roots.isEmpty {
            writes = !(try storage.loadManifest(months: false, accounts: false))
                .filesRecorded(below: statementFiles.roots).isEmpty
        }
        if writes { try storage.lockForWriting() }
        defer { storage.unlock() }
        // The months of the accounts the run touches are read as it needs them.
        var committed = try storage.loadManifest(months: false, accounts: false)
        let version = committed.version
        // A ledger of an earlier format is moved into the logs first.
        if writes && committed.version < 4 {
            committed = try upgrade(committed)
        } else if writes {
            storage.removeEarlierFormatFiles()
        }
        if writes && version < LedgerManifest.formatVersion {
            // Format 4 kept no balances: its files are read again (their rows found present),
            // so that their balances become assertions.
            if version < 5 { committed.files = [:] }
            // Format 6 lacks pages only: the run's commit writes them.
            if version < 6 {
                committed = try summarizeMonths(committed)
            } else {
                committed.version = LedgerManifest.formatVersion
            }
        }
        // Files whose balances cannot be kept (beyond a 64-bit amount, or under --strict out
        // of balance) are rejected and the run made again without them (each attempt rejects
        // at least one more file).
        var rejections: [String: [(line: Int, message: DiagnosticMessage)]] = [:]
        while true {
            let run = ImportRun(
                storage: storage, committed: committed, stagingLimit: stagingLimit,
                isDryRun: dryRun, reading: reading, rejectedFiles: rejections)
            run.identityLimit = identityLimit
            switch try run.run(statementFiles, clock: clock) {
            case .imported(let report):
                if report.generations.after != report.generations.before {
                    storage.appendHistory(Self.historyLine(of: report, at: clock()))
                }
                return report
            case .rejectedForBalances(let more): rejections.merge(more) { $0 + $1 }
            }
        }
    }

    /// Upgrades a ledger of formats 1 to 3 to the current format in one commit: each
    /// account-month's bytes are copied into the logs as one extent, with the checksums of
    /// what was copied; a format 1 ledger also gets its identity indexes anew (references
    /// became content, the entries carry amount checks) and each account's turnover. A crash
    /// before the commit leaves the old format in force, and the next writer upgrades again;
    /// the month files go only after the commit.
    private func upgrade(_ committed: LedgerManifest) throws(StorageError) -> LedgerManifest {
        var upgraded = committed
        upgraded.version = LedgerManifest.formatVersion
        do throws(StorageError) {
            try copyIntoLogs(committed, &upgraded)
            try storage.commit(&upgraded, changed: Set(upgraded.accounts.keys))
        } catch {
            try? storage.rollBack()
            throw error
        }
        storage.removeEarlierFormatFiles()
        return upgraded
    }

    /// Records the summary of every month that has none (its total and first and last day,
    /// absent before format 6) in one commit of the current format, so that `accounts` reads
    /// month records, not transactions: each such month's lines are read once, checked
    /// against their checksum. A crash before the commit leaves the earlier format in force.
    private func summarizeMonths(_ committed: LedgerManifest) throws(StorageError)
        -> LedgerManifest
    {
        var upgraded = committed
        upgraded.version = LedgerManifest.formatVersion
        do throws(StorageError) {
            try storage.loadAllMonths(&upgraded)
            for accountID in upgraded.accounts.keys.sorted() {
                let entry = upgraded.accounts[accountID]!
                for (month, length) in entry.months where !length.hasSummary {
                    let bytes = try storage.dataBytes(of: accountID, in: month, length: length)
                    do throws(LedgerRecord.DecodingError) {
                        let summary = try LedgerRecord.summary(
                            bytes, currency: entry.account.currency)
                        upgraded.accounts[accountID]!.months[month]!.total =
                            summary.total.minorUnits
                        upgraded.accounts[accountID]!.months[month]!.days = summary.days
                    } catch {
                        throw storage.damaged(
                            error, account: entry.account, in: month, length: length)
                    }
                }
            }
            try storage.commit(&upgraded, changed: Set(upgraded.accounts.keys))
        } catch {
            try? storage.rollBack()
            throw error
        }
        return upgraded
    }

    /// Appends each account-month of a ledger of an earlier format to the logs, recording
    /// where in `upgraded`.
    private func copyIntoLogs(_ committed: LedgerManifest, _ upgraded: inout LedgerManifest)
        throws(StorageError)
    {
        let empty = LedgerManifest.LogLengths()
        for accountID in committed.accounts.keys.sorted() {
            let entry = committed.accounts[accountID]!
            var turnover = Int64(entry.openingBalance?.minorUnits.magnitude ?? 0)
            for month in entry.months.keys.sorted() {
                let length = entry.months[month]!
                let data: [UInt8]
                var index: [UInt8] = []
                if committed.version < 2 {
                    // Read once: its lines give the identities and the turnover.
                    let transactions: [Transaction]
                    (transactions, data) = try storage.transactionsAndBytes(
                        of: entry.account, in: month, length: length)
                    for (hash, check) in TransactionIdentity.entries(
                        of: transactions, account: accountID)
                    {
                        TransactionIdentity.appendEntry(hash: hash, amountCheck: check, to: &index)
                    }
                    for transaction in transactions {
                        let (sum, overflow) = turnover.addingReportingOverflow(
                            Int64(exactly: transaction.amount.minorUnits.magnitude) ?? .max)
                        turnover = overflow ? .max : sum
                    }
                } else {
                    data = try storage.dataBytes(of: accountID, in: month, length: length)
                    index = try storage.identityBytes(of: accountID, in: month, length: length)
                }
                try storage.appendToLogs(
                    data: data, ids: index, at: upgraded.logs, committed: empty)
                var moved = LedgerManifest.MonthLength.empty
                // Swift 6.3 rejects a span of `data`, a constant given its value in two
                // branches; one of a plain constant shares the array, copying no bytes.
                let movedData = data
                moved.advance(data: movedData.span, ids: index.span, at: upgraded.logs)
                (moved.total, moved.days) = (nil, nil)  // worked out by the upgrade after
                upgraded.logs.advance(data: data.count, ids: index.count)
                upgraded.accounts[accountID]!.months[month] = moved
            }
            if committed.version < 2 { upgraded.accounts[accountID]!.turnover = turnover }
        }
    }

    // MARK: Reading

    /// How many runs have committed to the ledger so far.
    package func generation() throws(StorageError) -> Int {
        try storage.loadManifest(months: false, accounts: false).generation
    }

    /// The months whose reports must be written after an import: the months it changed, when
    /// the reports reflected the ledger as it was just before it; otherwise every month (a new
    /// output folder, a run killed before its reports were all written, another run's import;
    /// with the months a dry run would change, which are not in the ledger yet).
    package func monthsToReport(after report: ImportReport, reportedGeneration: Int?)
        throws(StorageError) -> Set<Month>
    {
        reportedGeneration == report.generations.before
            ? report.changedMonths : report.changedMonths.union(try allMonths())
    }

    /// Verifies every account-month's bytes against their checksums when the reports that
    /// follow an import will read them all (`reportedGeneration`, the output's, is not the
    /// ledger's): `process` then refuses damage before it imports, not after it committed.
    ///
    /// - Complexity: nothing when the output is current; else one read of the ledger's bytes.
    package func verifyForReports(reportedGeneration: Int?) throws(StorageError) {
        guard
            try storage.loadManifest(months: false, accounts: false).generation
                != reportedGeneration
        else {
            return
        }
        try storage.verifyChecksums(of: try storage.loadManifest()) { _, _ in true }
    }

    /// Every month with transactions in the ledger.
    package func allMonths() throws(StorageError) -> Set<Month> {
        Set(
            try storage.loadManifest().accounts.values.flatMap { entry in
                // An account with balances and no booking: the months of its balances.
                entry.months.isEmpty
                    ? entry.assertions.map { Month($0.day) } : Array(entry.months.keys)
            })
    }

    /// The months with transactions of each of the given accounts (all when `nil`), for the
    /// links between statements.
    package func accountMonths(of accounts: Set<AccountID>? = nil) throws(StorageError)
        -> [AccountID: [Month]]
    {
        try manifest(with: accounts).accounts.compactMapValues {
            $0.monthsLoaded ? $0.months.keys.sorted() : nil
        }
    }

    /// The manifest with the months of the given accounts (of all when `nil`): a statement
    /// of some accounts reads their month records only.
    func manifest(with accounts: Set<AccountID>?) throws(StorageError) -> LedgerManifest {
        var manifest = try storage.loadManifest(months: false)
        // Most of the accounts: the months log read in one go.
        guard let accounts, accounts.count * 2 < manifest.accounts.count else {
            return try storage.loadManifest()
        }
        try storage.loadMonths(of: accounts, in: &manifest)
        return manifest
    }

    /// The ledger's accounts, by id, read from the manifest alone.
    package func accounts() throws(StorageError) -> [Account] {
        try storage.loadManifest(months: false).accounts.values.map(\.account)
            .sorted { $0.id < $1.id }
    }

    /// The ids of the ledger's accounts.
    package func accountIDs() throws(StorageError) -> Set<AccountID> {
        Set(try storage.loadManifest(months: false).accounts.keys)
    }

    /// The latest month with transactions in the ledger, if any.
    package func latestMonth() throws(StorageError) -> Month? {
        try storage.loadManifest().accounts.values.compactMap { $0.months.keys.max() }.max()
    }

    /// The accounts out of balance with their banks, by id, from the manifest alone.
    package func accountsOutOfBalance() throws(StorageError) -> [(Account, OutOfBalance)] {
        let manifest = try storage.loadManifest(months: false)
        return manifest.accounts.keys.sorted().compactMap { accountID in
            let entry = manifest.accounts[accountID]!
            return entry.outOfBalance.map { (entry.account, $0) }
        }
    }
}

/// How a command reads statement files, beside what it does with them.
package struct ReadSettings: Sendable {
    /// Whether warnings count as errors (and so reject a file in an import).
    package var isStrict = false
    /// How many diagnostics to keep per file (0: all); all are counted.
    package var diagnosticLimit = 100
    /// How many cores to use: with more than one, a file is parsed on one core while its
    /// rows are merged on another.
    package var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Told how far the run has got, when set.
    package var progress: ProgressHandler?
    /// The part of a ledger split by account that an import keeps; `nil`: every account.
    /// Files are still read and checked whole, so every part rejects the same files.
    package var shard: Shard?
    /// Whether the statements of the months an import changes are written right after it
    /// (`process`): every account's bytes in those months are then verified before the
    /// commit, not only the touched accounts'.
    package var reportsChangedMonths = false

    /// Creates the default settings.
    package init() {}
}
