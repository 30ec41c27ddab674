import Foundation

/// Holds the ledger and its business logic: merging statement files into accounts exactly
/// once, and deciding when to save.
///
/// Identity follows SPEC 4 (see `TransactionIdentity`). A transaction with the bank's
/// transaction id is looked for in its own month and the months beside it, so that a booking
/// the bank re-dates across a month end is still found; one without is looked for in its own
/// month. An id found again with another amount is an error, never a silent skip. Either way a
/// run reads only the account-months it touches, never the whole history. A file's new rows
/// are written out every `stagingLimit` bytes as uncommitted tails of their month files, so
/// memory does not grow with the file; a rejected file's tails are cut back.
package final class StateController {
    private let storage: StorageController
    private let clock: () -> String
    /// The manifest as committed on disk when the run started.
    private var committed = LedgerManifest()
    /// The manifest as the run has changed it so far.
    private var manifest = LedgerManifest()
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
    private var isDryRun = false

    /// How many encoded bytes of a file are held before they are written out as uncommitted
    /// tails, so that memory does not grow with the file.
    private let stagingLimit: Int

    /// One account's month: the unit of storage.
    struct AccountMonth: Hashable, Comparable {
        let iban: IBAN
        let month: Month

        static func < (lhs: AccountMonth, rhs: AccountMonth) -> Bool {
            (lhs.iban, lhs.month) < (rhs.iban, rhs.month)
        }
    }

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
    /// saves the result in one atomic commit.
    ///
    /// - Parameter dryRun: report what would happen, take no lock and write nothing.
    /// - Throws: `StorageError` when the state folder cannot be locked, read or written;
    ///   nothing of the run is then visible.
    package func importFiles(_ statementFiles: StatementFiles, dryRun: Bool = false)
        throws(StorageError) -> ImportReport
    {
        if !dryRun { try storage.lockForWriting() }
        defer { storage.unlock() }
        committed = try storage.loadManifest()
        knownIdentities = [:]
        if !dryRun && committed.version < LedgerManifest.formatVersion {
            try upgrade()
        }
        manifest = committed
        tails = [:]
        isDryRun = dryRun
        var files: [FileImport] = []
        var touched: Set<IBAN> = []
        do throws(StorageError) {
            for (entry, dialect) in statementFiles.entries {
                switch entry {
                case .file(let path, _):
                    files.append(try importFile(at: path, dialect: dialect, touched: &touched))
                case .problem(let path, let code, let reason):
                    files.append(
                        FileImport(
                            outcome: .rejected,
                            validation: FileValidation.unreadable(path, code, reason)))
                }
            }
        } catch {
            if !dryRun { try? storage.rollBack() }
            throw error
        }
        let grown = tails.values.filter(\.hasAcceptedRows)
            .sorted { ($0.iban, $0.month) < ($1.iban, $1.month) }
        if !dryRun && !grown.isEmpty {
            let now = clock()
            for tail in grown {
                manifest.accounts[tail.iban]!.months[tail.month] = tail.accepted
            }
            for iban in touched { manifest.accounts[iban]!.lastImport = now }
            manifest.generation += 1
            try storage.commit(grown, manifest: manifest)
        } else if !dryRun && !tails.isEmpty {
            try storage.rollBack()  // only rejected files were written
        }
        var earliest: [IBAN: Month] = [:]
        for tail in grown {
            earliest[tail.iban] = min(earliest[tail.iban] ?? tail.month, tail.month)
        }
        // The grown months (not yet in the manifest of a dry run), and every later month of
        // the same accounts.
        var changed = Set(grown.map(\.month))
        for (iban, first) in earliest {
            for month in manifest.accounts[iban]!.months.keys where month >= first {
                changed.insert(month)
            }
        }
        return ImportReport(
            files: files, isDryRun: dryRun, changedMonths: changed,
            generations: (committed.generation, manifest.generation))
    }

    /// The rows of one file in one account-month, encoded for storage.
    private struct StagedMonth {
        var bytes: [UInt8] = []
        var rows: [StagedRow] = []

        /// Stages a row; returns how many bytes its encoding took.
        mutating func append(_ row: ParsedRow) -> Int {
            let start = bytes.count
            LedgerRecord.encode(row.transaction, into: &bytes)
            rows.append(StagedRow(row, end: bytes.count))
            return bytes.count - start
        }

        /// The identities of the rows in order. Rows without transaction id are numbered by
        /// `occurrences`, the counts of content hashes seen earlier in the file: identical rows
        /// share a date, so they share a month.
        func identities(of account: IBAN, occurrences: inout [UInt64: Int])
            -> [TransactionIdentity]
        {
            rows.map { row in
                if row.hasTransactionID {
                    return TransactionIdentity(hash: row.hash, isTransactionID: true)
                }
                let occurrence = occurrences[row.hash, default: 0] + 1
                occurrences[row.hash] = occurrence
                return TransactionIdentity(
                    account: account, contentHash: row.hash, occurrence: occurrence)
            }
        }
    }

    /// A staged row in 32 bytes, as a large import holds hundreds of thousands of them: its
    /// identity hash when it has a transaction id, else its content hash; the end of its
    /// encoded bytes; its amount; and its line, for the messages of conflicts.
    private struct StagedRow {
        let hash: UInt64
        /// The end offset, with whether the row has a transaction id in the top bit.
        private let packedEnd: UInt64
        let amount: Int64
        let line: Int

        init(_ row: ParsedRow, end: Int) {
            let transaction = row.transaction
            if let id = transaction.transactionID {
                hash = TransactionIdentity(account: row.account.iban, transactionID: id).hash
                packedEnd = UInt64(end) | 1 << 63
            } else {
                hash = TransactionIdentity.contentHash(transaction)
                packedEnd = UInt64(end)
            }
            amount = transaction.amount.minorUnits
            line = row.line
        }

        var end: Int { Int(packedEnd & ~(1 << 63)) }
        var hasTransactionID: Bool { packedEnd >> 63 == 1 }
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
        var turnover: [IBAN: Int64] = [:]
        /// Rows that cannot join the ledger: a transaction id already there with another
        /// amount, or an amount that would take the account's balance out of range.
        var conflicts: [(line: Int, code: DiagnosticCode, message: String)] = []
        var new = 0
        var present = 0
    }

    private func importFile(
        at path: String, dialect: Dialect?, sniffing: Bool = false, touched: inout Set<IBAN>
    ) throws(StorageError) -> FileImport {
        var progress = FileProgress()
        var writeError: StorageError?
        var fileAccounts: [IBAN: Account] = [:]
        var conflicts: [(line: Int, message: String)] = []
        // The file is parsed on another core while its rows are staged and written here.
        var (summary, collector) = produceConcurrently { yield in
            var collector = DiagnosticCollector(file: path)
            let summary = StatementFileReader.read(
                path: path, dialect: dialect, sniffing: sniffing, diagnostics: &collector,
                onRow: yield)
            return (summary, collector)
        } consume: { (row: ParsedRow) in
            let iban = row.account.iban
            if fileAccounts[iban] == nil {
                fileAccounts[iban] = row.account
                if let known = manifest.accounts[iban]?.account,
                    known.currency != row.account.currency
                {
                    conflicts.append(
                        (
                            row.line,
                            "account \(iban.electronic) is kept in \(known.currency.code) in the ledger; this file has it in \(row.account.currency.code)"
                        ))
                }
            }
            guard writeError == nil else { return }
            let key = AccountMonth(iban: iban, month: Month(row.transaction.date))
            progress.stagedBytes += progress.staged[key, default: StagedMonth()].append(row)
            if progress.stagedBytes >= stagingLimit {
                do throws(StorageError) {
                    try writeStaged(&progress, accounts: fileAccounts)
                } catch { writeError = error }
            }
        }
        if let writeError { throw writeError }
        for conflict in conflicts {
            collector.report(.currencyConflict, line: conflict.line, column: 1, conflict.message)
        }
        if collector.errorCount == 0 {
            // The last rows, and what only the ledger can tell about them.
            try writeStaged(&progress, accounts: fileAccounts)
            for iban in fileAccounts.keys where manifest.accounts[iban] == nil {
                // A new account's opening balance counts toward its turnover too (money is
                // never Int64.min, so its magnitude fits).
                let opening = Int64(summary.openingBalances[iban]?.minorUnits.magnitude ?? 0)
                if opening.addingReportingOverflow(progress.turnover[iban] ?? 0).overflow {
                    progress.conflicts.append((1, .amountOverflow, Self.rangeMessage(iban)))
                }
            }
            for conflict in progress.conflicts.sorted(by: { $0.line < $1.line }) {
                collector.report(conflict.code, line: conflict.line, column: 1, conflict.message)
            }
        }
        let validation = FileValidation(
            path: path, rowCount: summary.rowCount, collector: collector)
        guard collector.errorCount == 0 else {
            for (key, hashes) in progress.added {
                for hash in hashes { knownIdentities[key]!.remove(hash) }
                if isDryRun {
                    tails[key]!.written = tails[key]!.accepted
                } else {
                    try storage.cutBack(&tails[key]!)
                }
            }
            if summary.needsSniffing {
                // Windows-1252 text streamed as UTF-8: undone above, read again as such.
                return try importFile(at: path, dialect: dialect, sniffing: true, touched: &touched)
            }
            return FileImport(outcome: .rejected, validation: validation)
        }
        for (iban, account) in fileAccounts where manifest.accounts[iban] == nil {
            let opening = summary.openingBalances[iban]
            manifest.accounts[iban] = LedgerManifest.AccountEntry(
                account: account, openingBalance: opening, lastImport: nil,
                turnover: Int64(opening?.minorUnits.magnitude ?? 0), months: [:])
        }
        for (iban, added) in progress.turnover {
            // Proven to fit while staging; a dry run over a format 1 ledger starts from 0.
            manifest.accounts[iban]!.turnover = (manifest.accounts[iban]!.turnover ?? 0) + added
        }
        for key in progress.added.keys {
            tails[key]!.accepted = tails[key]!.written
            touched.insert(key.iban)
        }
        let (new, present) = (progress.new, progress.present)
        return FileImport(
            outcome: new == 0 ? .alreadyPresent(present) : .imported(new: new, present: present),
            validation: validation)
    }

    /// The message of a row that would take an account's balance out of range.
    private static func rangeMessage(_ iban: IBAN) -> String {
        "importing this amount could take the balance of account \(iban.electronic) beyond ±9,223,372,036,854,775,807 minor units; the file is rejected"
    }

    /// Sorts the staged rows into present and new, and writes the new ones out as tails of
    /// their month files (only counted in a dry run). A transaction id found with another
    /// amount, and an amount the account's balance could not hold, become conflicts.
    private func writeStaged(_ progress: inout FileProgress, accounts: [IBAN: Account])
        throws(StorageError)
    {
        for key in progress.staged.keys.sorted() {
            let month = progress.staged.removeValue(forKey: key)!
            let currency = accounts[key.iban]!.currency
            let rowIdentities = month.identities(
                of: key.iban, occurrences: &progress.occurrences[key, default: [:]])
            // A row with a transaction id is looked for in the months beside its own too.
            let neighbours =
                month.rows.contains(where: \.hasTransactionID)
                ? try [key.month.previous, key.month.next].compactMap { $0 }.map {
                    (month) throws(StorageError) in
                    (month, try identities(of: AccountMonth(iban: key.iban, month: month)))
                } : []
            // Taken out of the dictionaries while they grow, so that they are not copied.
            var known = try identities(of: key)
            knownIdentities[key] = nil
            var added = progress.added.removeValue(forKey: key) ?? []
            var turnover =
                (manifest.accounts[key.iban]?.turnover ?? 0) + (progress.turnover[key.iban] ?? 0)
            defer {
                knownIdentities[key] = known
                if !added.isEmpty { progress.added[key] = added }
                let base = manifest.accounts[key.iban]?.turnover ?? 0
                progress.turnover[key.iban] = turnover - base
            }
            var newRanges: [Range<Int>] = []
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
                                row.line, .transactionIDConflict,
                                "the transaction id of this row is already in the ledger (account \(key.iban.electronic), \(foundMonth)) with another amount or currency; a transaction id names one booking"
                            ))
                    }
                    progress.present += 1
                    continue
                }
                let (sum, overflow) = turnover.addingReportingOverflow(
                    Int64(exactly: row.amount.magnitude) ?? .max)
                guard !overflow else {
                    progress.conflicts.append(
                        (row.line, .amountOverflow, Self.rangeMessage(key.iban)))
                    continue
                }
                turnover = sum
                known.insert(hash, amountCheck: check)
                added.append(hash)
                newRanges.append(start..<end)
                withUnsafeBytes(of: hash.littleEndian) { ids += $0 }
                withUnsafeBytes(of: check.littleEndian) { ids += $0 }
            }
            guard !newRanges.isEmpty else { continue }
            progress.new += newRanges.count
            // Every row new, as in a first import: write the staged bytes without copying.
            let data =
                newRanges.count == month.rows.count
                ? month.bytes : newRanges.reduce(into: []) { $0 += month.bytes[$1] }
            var tail =
                tails[key]
                ?? MonthTail(
                    iban: key.iban, month: key.month,
                    committed: committed.accounts[key.iban]?.months[key.month])
            if isDryRun {
                tail.written.advance(data: data, ids: ids)
            } else {
                try storage.appendTail(data: data, ids: ids, to: &tail)
            }
            tails[key] = tail
        }
        progress.stagedBytes = 0
    }

    /// The identities stored in an account-month plus those this run added, loaded once,
    /// after checking the month's files against their checksums: an import never writes onto
    /// a damaged month.
    private func identities(of key: AccountMonth) throws(StorageError) -> KnownIdentities {
        if let known = knownIdentities[key] { return known }
        var known = KnownIdentities()
        if let length = committed.accounts[key.iban]?.months[key.month] {
            if committed.version < 2 {
                // A dry run over a format 1 ledger: the identities as an upgrade computes them.
                let account = committed.accounts[key.iban]!.account
                for (hash, check) in Self.identities(
                    of: try storage.transactions(of: account, in: key.month, length: length),
                    account: key.iban)
                {
                    known.insert(hash, amountCheck: check)
                }
            } else {
                try storage.verifyData(of: key.iban, in: key.month, length: length)
                for (hash, check) in try storage.identities(
                    of: key.iban, in: key.month, length: length)
                {
                    known.insert(hash, amountCheck: check)
                }
            }
        }
        knownIdentities[key] = known
        return known
    }

    /// The identity entries of an account-month's stored transactions, in order: identical
    /// rows without transaction id are numbered in the order the ledger holds them, as one
    /// file would number them; the amount check is 0 for them, as no conflict concerns them.
    static func identities(of transactions: [Transaction], account: IBAN)
        -> [(hash: UInt64, amountCheck: UInt64)]
    {
        var occurrences: [UInt64: Int] = [:]
        return transactions.map { transaction in
            let occurrence: Int
            if transaction.transactionID == nil {
                let content = TransactionIdentity.contentHash(transaction)
                occurrence = occurrences[content, default: 0] + 1
                occurrences[content] = occurrence
            } else {
                occurrence = 1
            }
            return (
                TransactionIdentity(
                    account: account, transaction: transaction, occurrence: occurrence
                ).hash,
                transaction.transactionID == nil
                    ? 0 : TransactionIdentity.amountCheck(transaction.amount)
            )
        }
    }

    /// Upgrades a format 1 ledger to the current format in one commit: identity files anew
    /// (references became content, the identity entries carry amount checks), checksums of
    /// every month and each account's turnover. A crash before the commit leaves format 1 in
    /// force, and the next writer upgrades again.
    private func upgrade() throws(StorageError) {
        var upgraded = committed
        upgraded.version = LedgerManifest.formatVersion
        for (iban, entry) in committed.accounts {
            var turnover = Int64(entry.openingBalance?.minorUnits.magnitude ?? 0)
            for (month, length) in entry.months {
                let transactions = try storage.transactions(
                    of: entry.account, in: month, length: length)
                var index: [UInt8] = []
                for (hash, check) in Self.identities(of: transactions, account: iban) {
                    withUnsafeBytes(of: hash.littleEndian) { index += $0 }
                    withUnsafeBytes(of: check.littleEndian) { index += $0 }
                }
                for transaction in transactions {
                    let (sum, overflow) = turnover.addingReportingOverflow(
                        Int64(exactly: transaction.amount.minorUnits.magnitude) ?? .max)
                    turnover = overflow ? .max : sum
                }
                try storage.writeUpgradedIndex(index, of: iban, in: month)
                upgraded.accounts[iban]!.months[month] = LedgerManifest.MonthLength(
                    dataBytes: length.dataBytes, idBytes: index.count,
                    dataChecksum: try storage.checksum(of: iban, in: month, length: length),
                    idChecksum: .of(index))
            }
            upgraded.accounts[iban]!.turnover = turnover
        }
        try storage.commit([], manifest: upgraded)
        storage.removeLegacyIndexes(of: committed)
        committed = upgraded
    }

    // MARK: Reading

    /// How many runs have committed to the ledger so far.
    package func generation() throws(StorageError) -> Int {
        try storage.loadManifest().generation
    }

    /// The months whose reports must be written after an import: the months it changed, when
    /// the reports reflected the ledger as it was just before it; otherwise every month (a new
    /// output folder, a run killed before its reports were all written, another run's import).
    package func monthsToReport(after report: ImportReport, reportedGeneration: Int?)
        throws(StorageError) -> Set<Month>
    {
        reportedGeneration == report.generations.before ? report.changedMonths : try allMonths()
    }

    /// Every month with transactions in the ledger.
    package func allMonths() throws(StorageError) -> Set<Month> {
        Set(try storage.loadManifest().accounts.values.flatMap(\.months.keys))
    }

    /// The latest month with transactions in the ledger, if any.
    package func latestMonth() throws(StorageError) -> Month? {
        try storage.loadManifest().accounts.values.compactMap { $0.months.keys.max() }.max()
    }

    /// The statements of the given months, for the given accounts (all when `nil`).
    ///
    /// An account gets a statement for each requested month in which it has transactions.
    /// Opening balances are computed from the account's opening balance and every earlier
    /// month, read once in order.
    package func monthlyStatements(months: Set<Month>, accounts: Set<IBAN>? = nil)
        throws(StorageError) -> [MonthlyStatement]
    {
        let manifest = try storage.loadManifest()
        guard let lastRequested = months.max() else { return [] }
        var statements: [MonthlyStatement] = []
        for iban in manifest.accounts.keys.sorted() where accounts?.contains(iban) ?? true {
            let entry = manifest.accounts[iban]!
            var balance = entry.openingBalance ?? .zero(entry.account.currency)
            for month in entry.months.keys.sorted() where month <= lastRequested {
                let length = entry.months[month]!
                guard months.contains(month) else {
                    // An earlier month only moves the opening balance: sum it without decoding.
                    let total = try storage.total(of: entry.account, in: month, length: length)
                    do throws(MoneyError) { balance = try balance.adding(total) } catch {
                        throw .unreadable(
                            folder: storage.folder,
                            reason: "the balance of \(iban.electronic) in \(month) \(error)")
                    }
                    continue
                }
                let transactions = try storage.transactions(
                    of: entry.account, in: month, length: length)
                do throws(MoneyError) {
                    let statement = try MonthlyStatement(
                        account: entry.account, month: month, openingBalance: balance,
                        transactions: transactions)
                    statements.append(statement)
                    balance = statement.closingBalance
                } catch {
                    throw .unreadable(
                        folder: storage.folder,
                        reason: "the balance of \(iban.electronic) in \(month) \(error)")
                }
            }
        }
        return statements
    }

    /// Every account of the ledger with its figures, computed from the stored transactions.
    package func accountSummaries() throws(StorageError) -> [AccountSummary] {
        let manifest = try storage.loadManifest()
        var summaries: [AccountSummary] = []
        for iban in manifest.accounts.keys.sorted() {
            let entry = manifest.accounts[iban]!
            var balance = entry.openingBalance ?? .zero(entry.account.currency)
            var count = 0
            var first: Day?
            var last: Day?
            for month in entry.months.keys.sorted() {
                for transaction in try storage.transactions(
                    of: entry.account, in: month, length: entry.months[month]!)
                {
                    do throws(MoneyError) {
                        balance = try balance.adding(transaction.amount)
                    } catch {
                        throw .unreadable(
                            folder: storage.folder,
                            reason: "the balance of \(iban.electronic) \(error)")
                    }
                    count += 1
                    first = min(first ?? transaction.date, transaction.date)
                    last = max(last ?? transaction.date, transaction.date)
                }
            }
            summaries.append(
                AccountSummary(
                    account: entry.account, transactionCount: count, balance: balance,
                    firstDate: first, lastDate: last,
                    lastImport: entry.lastImport))
        }
        return summaries
    }
}
