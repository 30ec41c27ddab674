import Foundation

/// One `import` run against the ledger: its per-run state (the manifest as committed and as
/// the run changes it, the identities looked at, the tails written) and the merging of files
/// into it. `StateController.importFiles` makes one per run, so nothing of a run outlives it.
///
/// Identity is `TransactionIdentity`'s (<doc:Architecture>). A transaction with the bank's
/// transaction id is looked for in its own month and the months beside it, so that a booking
/// the bank re-dates across a month end is still found; one without is looked for in its own
/// month. An id found again with another amount is an error, never a silent skip. Either way a
/// run reads only the account-months it touches, never the whole history. A file's new rows
/// are appended to the logs every `stagingLimit` bytes, past their committed lengths, so
/// memory does not grow with the file; a rejected file's appends are cut back.
final class ImportRun {
    let storage: StorageController
    /// How many encoded bytes of a file are held before they are written out as uncommitted
    /// tails, so that memory does not grow with the file.
    let stagingLimit: Int
    let reading: ReadSettings
    let isDryRun: Bool
    /// When the run started, in nanoseconds: a file stamp younger than that is not trusted.
    let startTime = POSIXIO.nanosecondsNow()
    /// Files an earlier attempt of the run rejected for their balances, by name, with what
    /// to say: they are not read again.
    private let rejectedFiles: [String: [(line: Int, message: DiagnosticMessage)]]
    /// The manifest as committed on disk when the run started (with the months of the
    /// accounts the run has needed so far).
    var committed: LedgerManifest
    /// The manifest as the run has changed it so far.
    var manifest: LedgerManifest
    /// The identities of the account-months the run has looked at.
    var knownIdentities = AccountMonthTable<KnownIdentities>()

    /// The identity hashes of one account-month, and for those that are transaction ids the
    /// check of the amount they were imported with (the only ones a conflict can concern).
    struct KnownIdentities {
        var hashes = HashSet64()
        var amountChecks: [UInt64: UInt64] = [:]
        /// The last flush of staged rows that looked at them (`flushes`).
        var lastFlush = 0

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
    /// How many times staged rows were written out so far.
    var flushes = 0
    /// How many account-months' identities a run holds before it lets go of those it has
    /// not looked at lately (`evictIdentities`).
    var identityLimit = 1 << 16
    /// The account-months the run has staged rows of, with how far it has written them.
    var tails = MonthTails()
    /// The number of the file being read, counting from 1 (`MonthTail.file`).
    var fileNumber: Int32 = 0
    /// Whether the run appended to the logs (rows of files it rejected included).
    var appendedToLogs = false
    /// What `writeStaged` appends to the logs, kept between calls.
    var logBuffers: (data: [UInt8], ids: [UInt8]) = ([], [])
    /// The ends of the logs: after the rows of the files accepted so far, and after
    /// everything written, including rows of the file being read.
    var acceptedLogs: LedgerManifest.LogLengths
    var writtenLogs: LedgerManifest.LogLengths
    /// The absolute paths of the files the run found.
    var foundPaths: Set<String> = []
    /// Per account, the balances the accepted files stated.
    var statedAssertions: [AccountID: [BalanceAssertion]] = [:]
    /// The accounts each accepted file added rows or balances to, by the file's name.
    var fileTouches: [String: Set<AccountID>] = [:]
    /// The accounts the file being read added rows or balances to.
    var lastFileTouches: Set<AccountID> = []
    /// The files rejected before (`RejectedFiles`), as the run updates them, and the time
    /// of the run for those it rejects now.
    var rejected = RejectedFiles()
    var now = ""

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
        var touched: Set<AccountID> = []
        let tally = FileTally(count: statementFiles.entries.count, progress: reading.progress)
        tally.report(nil)
        rejected = RejectedFiles.load(from: storage.folder)
        let rejectedBefore = rejected
        // The accounts out of balance: said by every run, read whatever it touches.
        try loadAccounts(committed.outOfBalanceIDs)
        now = clock()
        let files = try importFiles(statementFiles, tally: tally, touched: &touched)
        forgetFilesGone(below: statementFiles.roots)
        // The account-months, not their tails, sorted: a first import at a bank's scale grows
        // millions of them.
        let grown = tails.grown
        if !isDryRun {
            for key in grown {
                manifest.accounts[key.accountID]!.months[key.month] = tails[existing: key].written
            }
        }
        // What the run held per account-month is in the manifest now: let go of it before
        // the commit writes the sections (at a bank's scale, a gigabyte for a first import).
        tails = MonthTails()
        knownIdentities.removeAll()
        var balances = BalanceOutcome()
        if !isDryRun {
            do throws(StorageError) { balances = try checkBalances(grown: grown) } catch {
                try? storage.rollBack()
                throw error
            }
            if let rejections = balanceRejections(balances) {
                try storage.rollBack()
                return .rejectedForBalances(rejections)
            }
        }
        let (changed, earliest) = changedMonths(grown: grown, balances: balances)
        try commit(
            grown: grown, balances: balances, changed: changed, earliest: earliest,
            touched: touched, clock: clock)
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

    /// Imports the files in turn, each whole or not at all; rolls back the run's appends when
    /// the ledger cannot be read or written.
    private func importFiles(
        _ statementFiles: StatementFiles, tally: FileTally, touched: inout Set<AccountID>
    ) throws(StorageError) -> [FileImport] {
        var files: [FileImport] = []
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
                    // Shared, not copied, where the name is new (a run at a bank's scale
                    // touches 100,000 accounts).
                    if fileTouches[found.name] == nil {
                        fileTouches[found.name] = lastFileTouches
                    } else {
                        fileTouches[found.name]!.formUnion(lastFileTouches)
                    }
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
        return files
    }

    /// The months whose statements change: the grown months, every later month of the same
    /// accounts, the month before a new earliest one, and the months of accounts whose
    /// balances changed; with the earliest grown month of each account.
    private func changedMonths(grown: [AccountMonth], balances: BalanceOutcome) -> (
        changed: Set<Month>, earliest: [AccountID: Month]
    ) {
        var earliest: [AccountID: Month] = [:]
        for key in grown {
            earliest[key.accountID] = min(earliest[key.accountID] ?? key.month, key.month)
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
        return (changed, earliest)
    }

    /// Commits the run's accepted rows and balances, after checking the months it changes
    /// against their checksums; or, with no transaction changed, what it learnt of its files.
    private func commit(
        grown: [AccountMonth], balances: BalanceOutcome, changed: Set<Month>,
        earliest: [AccountID: Month], touched: Set<AccountID>, clock: () -> String
    ) throws(StorageError) {
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
            if appendedToLogs { try storage.rollBack() }  // only rejected files were written
            // What the run learnt of its files, without a new generation: no transaction
            // changed, so no report needs writing again.
            if manifest.files != committed.files { try storage.commit(&manifest) }
        }
    }
}
