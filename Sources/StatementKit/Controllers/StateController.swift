import Foundation

/// Holds the ledger and its business logic: merging statement files into accounts exactly
/// once, and deciding when to save.
///
/// Identity follows SPEC 4 (see `TransactionIdentity`). A transaction with a bank reference is
/// looked for in its own month and the months beside it, so that a booking the bank re-dates
/// across a month end is still found; one without is looked for in its own month. Either way a
/// run reads only the account-months it touches, never the whole history.
public final class StateController {
    private let storage: StorageController
    private let clock: () -> String
    /// The manifest as committed on disk when the run started.
    private var committed = LedgerManifest()
    /// The manifest as the run has changed it so far.
    private var manifest = LedgerManifest()
    private var knownIdentities: [AccountMonth: Set<UInt64>] = [:]
    private var appends: [AccountMonth: MonthAppend] = [:]

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
    public init(
        storage: StorageController, clock: @escaping () -> String = StateController.currentTime
    ) {
        self.storage = storage
        self.clock = clock
    }

    /// The current time as ISO 8601 in UTC, such as `2026-11-22T22:58:00Z`.
    public static func currentTime() -> String {
        Date().formatted(.iso8601)
    }

    // MARK: Import

    /// Imports every statement file at or below the paths, each file whole or not at all, and
    /// saves the result in one atomic commit.
    ///
    /// - Parameter dryRun: report what would happen, take no lock and write nothing.
    /// - Throws: `StorageError` when the state folder cannot be locked, read or written;
    ///   nothing of the run is then visible.
    public func importFiles(_ statementFiles: StatementFiles, dryRun: Bool = false)
        throws(StorageError) -> ImportReport
    {
        if !dryRun { try storage.lockForWriting() }
        defer { storage.unlock() }
        committed = try storage.loadManifest()
        manifest = committed
        knownIdentities = [:]
        appends = [:]
        var files: [FileImport] = []
        var touched: Set<IBAN> = []
        for (entry, dialect) in statementFiles.entries {
            switch entry {
            case .file(let path, _):
                files.append(try importFile(at: path, dialect: dialect, touched: &touched))
            case .problem(let path, let code, let reason):
                files.append(
                    FileImport(
                        outcome: .rejected,
                        validation: ValidationController.unreadable(path, code, reason)))
            }
        }
        if !dryRun && !appends.isEmpty {
            let now = clock()
            for (key, append) in appends {
                manifest.accounts[key.iban]!.months[key.month] = LedgerManifest.MonthLength(
                    dataBytes: append.committed.dataBytes + append.data.count,
                    idBytes: append.committed.idBytes + append.ids.count)
            }
            for iban in touched { manifest.accounts[iban]!.lastImport = now }
            manifest.generation += 1
            try storage.commit(appends.keys.sorted().map { appends[$0]! }, manifest: manifest)
        }
        var earliest: [IBAN: Month] = [:]
        for key in appends.keys {
            earliest[key.iban] = min(earliest[key.iban] ?? key.month, key.month)
        }
        // The appended months (not yet in the manifest of a dry run), and every later month of
        // the same accounts.
        var changed = Set(appends.keys.map(\.month))
        for (iban, first) in earliest {
            for month in manifest.accounts[iban]!.months.keys where month >= first {
                changed.insert(month)
            }
        }
        return ImportReport(files: files, isDryRun: dryRun, changedMonths: changed)
    }

    /// The rows of one file, encoded for storage, grouped by account-month.
    private struct StagedMonth {
        var bytes: [UInt8] = []
        var rows: [(identity: TransactionIdentity, end: Int)] = []
    }

    private func importFile(at path: String, dialect: Dialect?, touched: inout Set<IBAN>)
        throws(StorageError) -> FileImport
    {
        var collector = DiagnosticCollector(file: path)
        var staged: [AccountMonth: StagedMonth] = [:]
        var occurrences: [UInt64: Int] = [:]
        var fileAccounts: [IBAN: Account] = [:]
        var conflicts: [(line: Int, message: String)] = []
        let summary = StatementFileReader.read(
            path: path, dialect: dialect, diagnostics: &collector
        ) { row in
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
            var occurrence = 1
            if row.transaction.reference == nil {
                let key = TransactionIdentity(
                    account: iban, transaction: row.transaction, occurrence: 0
                ).hash
                occurrence = occurrences[key, default: 0] + 1
                occurrences[key] = occurrence
            }
            let identity = TransactionIdentity(
                account: iban, transaction: row.transaction, occurrence: occurrence)
            let key = AccountMonth(iban: iban, month: Month(row.transaction.date))
            LedgerRecord.encode(row.transaction, into: &staged[key, default: StagedMonth()].bytes)
            staged[key]!.rows.append((identity, staged[key]!.bytes.count))
        }
        for conflict in conflicts {
            collector.report(.currencyConflict, line: conflict.line, column: 1, conflict.message)
        }
        let validation = FileValidation(
            path: path, rowCount: summary.rowCount, collector: collector)
        guard collector.errorCount == 0 else {
            return FileImport(outcome: .rejected, validation: validation)
        }

        for (iban, account) in fileAccounts where manifest.accounts[iban] == nil {
            manifest.accounts[iban] = LedgerManifest.AccountEntry(
                account: account, openingBalance: summary.openingBalances[iban], lastImport: nil,
                months: [:])
        }
        var new = 0
        var present = 0
        for key in staged.keys.sorted() {
            let month = staged.removeValue(forKey: key)!
            var newRanges: [Range<Int>] = []
            var ids: [UInt8] = []
            var start = 0
            for (identity, end) in month.rows {
                defer { start = end }
                let months =
                    identity.isReference
                    ? [key.month.previous, key.month, key.month.next] : [key.month]
                var isPresent = false
                for candidate in months.compactMap({ $0 })
                where try identities(of: AccountMonth(iban: key.iban, month: candidate)).contains(
                    identity.hash)
                {
                    isPresent = true
                    break
                }
                if isPresent {
                    present += 1
                    continue
                }
                knownIdentities[key]!.insert(identity.hash)
                newRanges.append(start..<end)
                withUnsafeBytes(of: identity.hash.littleEndian) { ids += $0 }
            }
            guard !newRanges.isEmpty else { continue }
            new += newRanges.count
            touched.insert(key.iban)
            if appends[key] == nil {
                let length =
                    committed.accounts[key.iban]?.months[key.month]
                    ?? LedgerManifest.MonthLength(dataBytes: 0, idBytes: 0)
                appends[key] = MonthAppend(iban: key.iban, month: key.month, committed: length)
            }
            if newRanges.count == month.rows.count && appends[key]!.data.isEmpty {
                // Every row is new: hand the staged bytes over instead of copying them.
                appends[key]!.data = month.bytes
            } else {
                for range in newRanges { appends[key]!.data += month.bytes[range] }
            }
            appends[key]!.ids += ids
        }
        return FileImport(
            outcome: new == 0 ? .alreadyPresent(present) : .imported(new: new, present: present),
            validation: validation)
    }

    /// The identities stored in an account-month plus those this run added, loaded once.
    private func identities(of key: AccountMonth) throws(StorageError) -> Set<UInt64> {
        if let known = knownIdentities[key] { return known }
        var known: Set<UInt64> = []
        if let length = committed.accounts[key.iban]?.months[key.month] {
            known = Set(try storage.identities(of: key.iban, in: key.month, length: length))
        }
        knownIdentities[key] = known
        return known
    }

    // MARK: Reading

    /// How many runs have committed to the ledger so far.
    public func generation() throws(StorageError) -> Int {
        try storage.loadManifest().generation
    }

    /// Every month with transactions in the ledger.
    public func allMonths() throws(StorageError) -> Set<Month> {
        Set(try storage.loadManifest().accounts.values.flatMap(\.months.keys))
    }

    /// The latest month with transactions in the ledger, if any.
    public func latestMonth() throws(StorageError) -> Month? {
        try storage.loadManifest().accounts.values.compactMap { $0.months.keys.max() }.max()
    }

    /// The statements of the given months, for the given accounts (all when `nil`).
    ///
    /// An account gets a statement for each requested month in which it has transactions.
    /// Opening balances are computed from the account's opening balance and every earlier
    /// month, read once in order.
    public func monthlyStatements(months: Set<Month>, accounts: Set<IBAN>? = nil)
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
    public func accountSummaries() throws(StorageError) -> [AccountSummary] {
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
