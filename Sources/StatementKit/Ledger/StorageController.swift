import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the ledger's state folder could not be read or written; the command exits 3.
package enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another run holds the writer lock.
    case inUse(folder: String, pid: Int?)
    /// Another run still held the writer lock when the time to wait for it was over.
    case stillInUse(folder: String, pid: Int?, seconds: Double)
    /// A system call failed on a path.
    case io(path: String, operation: String, reason: String)
    /// The state is not one this build can read.
    case unreadable(folder: String, reason: String)
    /// A file of the ledger is missing, cut short or changed: its checksum or length does not
    /// match what the manifest committed. No command writes to such a ledger.
    case damaged(folder: String, path: String, reason: String)

    package var description: String {
        switch self {
        case .inUse(let folder, let pid):
            "state folder \(folder) is in use by process \(pid.map(String.init) ?? "(unknown)")"
        case .stillInUse(let folder, let pid, let seconds):
            "state folder \(folder) is still in use by process \(pid.map(String.init) ?? "(unknown)") after waiting \(seconds.formatted()) \(seconds == 1 ? "second" : "seconds") for it"
        case .io(let path, let operation, let reason): "cannot \(operation) \(path): \(reason)"
        case .unreadable(let folder, let reason): "cannot use state folder \(folder): \(reason)"
        case .damaged(let folder, let path, let reason):
            "the ledger in \(folder) is damaged: \(path) \(reason). No command writes to it: 'statements check --state \(folder)' lists every problem; restore the folder from a backup, or import the statement files into a new ledger"
        }
    }
}

/// The steps of writing and committing a run, named so that tests can inject a failure at each.
enum CommitStep: Hashable, Sendable, CaseIterable {
    case journal, append, syncData, writeManifest, renameManifest
}

/// How far a run has written one account-month past its committed bytes.
struct MonthTail: Sendable {
    let accountID: AccountID
    let month: Month
    /// The lengths in the manifest when the run started; `nil` for a month new to the ledger.
    let committed: LedgerManifest.MonthLength?
    /// The month with the rows of the files accepted so far: what the commit makes visible.
    var accepted: LedgerManifest.MonthLength
    /// The month with everything written, including rows of the file being read.
    var written: LedgerManifest.MonthLength

    /// Whether accepted files added rows to the month.
    var hasAcceptedRows: Bool {
        accepted != committed ?? .empty
    }

    init(accountID: AccountID, month: Month, committed: LedgerManifest.MonthLength?) {
        self.accountID = accountID
        self.month = month
        self.committed = committed
        accepted = committed ?? .empty
        written = accepted
    }
}

/// All disk I/O of the ledger state: the manifest, the logs, the lock and recovery.
///
/// Layout of the state folder (format 4):
/// - `manifest`: the commit record (`LedgerManifest`), replaced atomically by rename.
/// - `transactions` and `identities`: two append-only logs, of transaction lines and of
///   16-byte identity entries (identity hash, amount check of a transaction id or 0). Every
///   account-month's bytes lie in them as extents, one per run that appended to it, which
///   the manifest records with the logs' committed lengths; only committed bytes are ever
///   read, and only after their checksum matched the manifest's. A ledger has these few files
///   however many accounts and months it holds.
/// - `pending`: the journal of a run in progress. Its presence at the next writer's start
///   means a run died; the logs are cut back to their committed lengths. (Appends start at
///   the committed lengths even without it, so a journal lost in a power cut leaves only
///   bytes that no reader sees and the next append overwrites.)
/// - The folder itself is held with `flock` by the one writer (a lock on the folder cannot be
///   deleted from under it, as a lock file can); `lock` holds the writer's process id, for
///   the message a second writer gives.
/// Readers take no lock: a manifest names only bytes that are already durable.
///
/// Formats 1 to 3 kept each account-month in files of its own, `accounts/AccountID/YYYY-MM.tsv`
/// and `.idx` (`.ids` with 8-byte hashes in format 1); they are read as they are, and a
/// writer upgrades them into the logs first.
package final class StorageController {
    /// The state folder.
    package let folder: String
    private var lockDescriptor: Int32 = -1
    /// The journal, open from a run's first append until the journal goes.
    private var journalDescriptor: Int32 = -1
    /// The logs open for appending during a run (-1: not yet), and open for reading.
    private var writers: [LogPart: Int32] = [:]
    /// The logs open for reading, by path.
    private var readers: [String: Int32] = [:]
    /// The months log open for appending during a commit, with its name.
    private var monthsWriter: (name: String, descriptor: Int32)?
    /// How many bytes of superseded sections a months log may hold beyond as many as its live
    /// ones before a commit copies the live ones into a new months log (a test makes it 0).
    var monthsLogSlack = 1 << 20
    /// Called between reading the manifest and reading its months log; a test commits
    /// there, as another process could.
    var beforeReadingMonths: (() -> Void)?
    /// How long a writer waits for another run's lock, in seconds (`.infinity`: as long as
    /// it takes); `nil`, not at all: `lockForWriting` fails at once.
    package var lockWait: Double?
    /// Called before each commit step; a test makes it throw to simulate a failure there.
    var faultInjection: (@Sendable (CommitStep) throws(StorageError) -> Void)?

    /// The two logs of a ledger.
    enum LogPart: CaseIterable {
        case data, ids
    }

    /// Creates a controller for a state folder; nothing is touched until a call needs it.
    package init(folder: String) {
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    deinit {
        unlock()
        closeReaders()
    }

    /// Closes the logs open for reading, when files may have been removed or replaced.
    private func closeReaders() {
        for descriptor in readers.values { close(descriptor) }
        readers = [:]
    }

    private var manifestPath: String { folder + "/manifest" }
    private var journalPath: String { folder + "/pending" }

    func logPath(_ part: LogPart) -> String {
        folder + (part == .data ? "/transactions" : "/identities")
    }

    /// An account-month's own file in formats 1 to 3: its transaction lines, or its identity
    /// index (`.idx` with 16-byte entries, `.ids` with 8-byte hashes in format 1).
    private func monthPath(_ part: LogPart, _ accountID: AccountID, _ month: Month, version: Int)
        -> String
    {
        let name = part == .data ? "tsv" : version >= 2 ? "idx" : "ids"
        return "\(folder)/accounts/\(accountID.fileName)/\(month.isoText).\(name)"
    }

    // MARK: Reading

    /// Reads the committed manifest, with every account's months unless `months` is false
    /// (then `loadMonths(of:in:)` reads those of the accounts a run needs); a missing folder
    /// or manifest is an empty ledger.
    ///
    /// Readers take no lock, so a writer's commit may replace the months log between reading
    /// the manifest and reading that log: the manifest is then read again.
    package func loadManifest(months: Bool = true) throws(StorageError) -> LedgerManifest {
        var attempt = 0
        while true {
            var manifest = try loadRoot()
            guard months else { return manifest }
            do throws(StorageError) {
                beforeReadingMonths?()
                try loadAllMonths(&manifest)
                return manifest
            } catch {
                attempt += 1
                guard attempt < 5, try loadRoot().monthsLog.name != manifest.monthsLog.name
                else { throw error }
            }
        }
    }

    /// The manifest last read with the stamp of its file, and that stamp now.
    private var cachedRoot: (stamp: [Int], manifest: LedgerManifest)?

    private func manifestStamp() -> [Int]? {
        var info = stat()
        guard lstat(manifestPath, &info) == 0 else { return nil }
        return [
            Int(info.st_dev), Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec,
            info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec,
        ]
    }

    /// Reads the committed manifest without the months of format 4's accounts.
    private func loadRoot() throws(StorageError) -> LedgerManifest {
        var info = stat()
        if stat(folder, &info) != 0 {
            guard errno == ENOENT else { throw error("read", folder) }
            return LedgerManifest()
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .io(
                path: folder, operation: "use state folder",
                reason: String(cString: strerror(ENOTDIR)))
        }
        // A command asks for the manifest several times; it is read again only when a commit
        // replaced it (a new file: another inode, size or time).
        let before = manifestStamp()
        if let cached = cachedRoot, let before, cached.stamp == before { return cached.manifest }
        guard let bytes = try readFile(manifestPath, upTo: nil, missingIsEmpty: true) else {
            // No manifest but ledger data, and no journal of a first run that was stopped
            // before its commit: the manifest was lost, not never written.
            let accounts =
                (try? FileManager.default.contentsOfDirectory(atPath: folder + "/accounts"))
            let hasData =
                !(accounts ?? []).isEmpty
                || (stat(logPath(.data), &info) == 0 && info.st_size > 0)
            if hasData, stat(journalPath, &info) != 0 {
                throw .damaged(
                    folder: folder, path: manifestPath,
                    reason: "is missing while the ledger holds transactions")
            }
            return LedgerManifest()
        }
        do throws(LedgerManifest.DecodingError) {
            let manifest = try LedgerManifest(decoding: bytes)
            if let before, manifestStamp() == before { cachedRoot = (before, manifest) }
            return manifest
        } catch {
            if case .newerVersion = error {
                throw .unreadable(folder: folder, reason: error.description)
            }
            throw .damaged(folder: folder, path: manifestPath, reason: "\(error)")
        }
    }

    private func monthsPath(_ log: LedgerManifest.MonthsLog) -> String {
        "\(folder)/\(log.name)"
    }

    /// Reads the months of the given accounts that are not read yet, from their sections of
    /// the months log, each checked against its checksum.
    func loadMonths(of accountIDs: some Sequence<AccountID>, in manifest: inout LedgerManifest)
        throws(StorageError)
    {
        let path = monthsPath(manifest.monthsLog)
        for accountID in accountIDs {
            guard let entry = manifest.accounts[accountID], !entry.monthsLoaded,
                let section = entry.section
            else { continue }
            let bytes = try read(path, [(section.offset, section.bytes)])
            (manifest.accounts[accountID]!.months, manifest.accounts[accountID]!.assertions) =
                try contents(of: accountID, bytes, manifest)
            manifest.accounts[accountID]!.monthsLoaded = true
        }
    }

    /// Reads every account's months, reading the months log in one go.
    private func loadAllMonths(_ manifest: inout LedgerManifest) throws(StorageError) {
        guard manifest.version >= 4, manifest.monthsLog.bytes > 0 else { return }
        let log =
            try readFile(
                monthsPath(manifest.monthsLog), upTo: manifest.monthsLog.bytes,
                missingIsEmpty: false)
            ?? []
        for (accountID, entry) in manifest.accounts where !entry.monthsLoaded {
            guard let section = entry.section else { continue }
            (manifest.accounts[accountID]!.months, manifest.accounts[accountID]!.assertions) =
                try contents(
                    of: accountID, Array(log[section.offset..<section.offset + section.bytes]),
                    manifest)
            manifest.accounts[accountID]!.monthsLoaded = true
        }
    }

    /// Decodes an account's section after checking its checksum.
    private func contents(of accountID: AccountID, _ bytes: [UInt8], _ manifest: LedgerManifest)
        throws(StorageError)
        -> (months: [Month: LedgerManifest.MonthLength], assertions: [BalanceAssertion])
    {
        let path = "\(monthsPath(manifest.monthsLog)) (the months of \(accountID.text))"
        guard Checksum.of(bytes) == manifest.accounts[accountID]!.section!.checksum else {
            throw .damaged(
                folder: folder, path: path,
                reason: "does not match its checksum: it was changed after it was written")
        }
        do throws(LedgerManifest.DecodingError) {
            return try LedgerManifest.contents(
                ofSection: bytes, logs: manifest.logs,
                currency: manifest.accounts[accountID]!.account.currency)
        } catch {
            throw .damaged(folder: folder, path: path, reason: "cannot be read: \(error)")
        }
    }

    /// Reads the committed transactions of an account-month.
    package func transactions(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> [Transaction] {
        try decodeMonth(of: account, in: month, length: length, LedgerRecord.decode)
    }

    /// Sums the committed amounts of an account-month, without decoding the rest.
    func total(of account: Account, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> Money
    {
        try decodeMonth(of: account, in: month, length: length, LedgerRecord.sum)
    }

    /// Reads the committed bytes of an account-month's transaction lines and decodes them.
    private func decodeMonth<T>(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength,
        _ decode: ([UInt8], Currency) throws(LedgerRecord.DecodingError) -> T
    ) throws(StorageError) -> T {
        let bytes = try committedBytes(.data, account.id, month, length)
        do throws(LedgerRecord.DecodingError) {
            return try decode(bytes, account.currency)
        } catch {
            throw damaged(error, account: account, in: month, length: length)
        }
    }

    /// The error of an account-month's transaction lines that cannot be decoded.
    func damaged(
        _ error: LedgerRecord.DecodingError, account: Account, in month: Month,
        length: LedgerManifest.MonthLength
    ) -> StorageError {
        .damaged(
            folder: folder, path: place(.data, account.id, month, length),
            reason: "cannot be read: \(error)")
    }

    /// Where an account-month's bytes are, for messages: the log, with the account-month, or
    /// the month's own file in formats 1 to 3.
    private func place(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) -> String {
        length.extents == nil
            ? monthPath(part, accountID, month, version: version)
            : "\(logPath(part)) (the rows of \(accountID.text) in \(month.isoText))"
    }

    /// Reads the committed bytes of an account-month, from its extents in a log (or its own
    /// file in formats 1 to 3), and checks them against the manifest's checksum (a format 1
    /// manifest has none).
    private func committedBytes(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) throws(StorageError) -> [UInt8] {
        let bytes = try uncheckedBytes(part, accountID, month, length, version: version)
        let checksum = part == .data ? length.dataChecksum : length.idChecksum
        if let checksum, Checksum.of(bytes) != checksum {
            throw changed(part, accountID, month, length, version: version)
        }
        return bytes
    }

    /// Reads the committed bytes of an account-month without checking them (see
    /// `committedBytes`).
    private func uncheckedBytes(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) throws(StorageError) -> [UInt8] {
        if let extents = length.extents { return try readExtents(part, extents) }
        return try readFile(
            monthPath(part, accountID, month, version: version),
            upTo: part == .data ? length.dataBytes : length.idBytes, missingIsEmpty: false) ?? []
    }

    /// The error of an account-month's bytes that do not match their checksum.
    private func changed(
        _ part: LogPart, _ accountID: AccountID, _ month: Month,
        _ length: LedgerManifest.MonthLength, version: Int = LedgerManifest.formatVersion
    ) -> StorageError {
        .damaged(
            folder: folder, path: place(part, accountID, month, length, version: version),
            reason: "does not match its checksum: it was changed after it was written")
    }

    /// An account-month's transaction lines as committed, for readers that check them on
    /// other cores (`LedgerManifest.MonthLength.holds(data:)`, else `changed(data:…)`).
    func uncheckedDataBytes(
        of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> [UInt8] {
        try uncheckedBytes(.data, accountID, month, length)
    }

    /// The error of an account-month's transaction lines that do not match their checksum.
    func changed(data accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        -> StorageError
    {
        changed(.data, accountID, month, length)
    }

    /// A log open for reading, opened once: a missing one is damage.
    private func reader(_ path: String) throws(StorageError) -> Int32 {
        if let descriptor = readers[path] { return descriptor }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .damaged(folder: folder, path: path, reason: "is missing") }
            throw error("read", path)
        }
        readers[path] = descriptor
        return descriptor
    }

    /// Reads extents of a log, one after another.
    private func readExtents(_ part: LogPart, _ extents: [LedgerManifest.Extent])
        throws(StorageError) -> [UInt8]
    {
        try read(
            logPath(part),
            extents.map {
                part == .data ? ($0.dataOffset, $0.dataBytes) : ($0.idOffset, $0.idBytes)
            })
    }

    /// Reads ranges of a committed log, one after another.
    private func read(_ path: String, _ ranges: [(offset: Int, count: Int)])
        throws(StorageError) -> [UInt8]
    {
        let descriptor = try reader(path)
        var bytes = [UInt8](repeating: 0, count: ranges.reduce(0) { $0 + $1.1 })
        var start = 0
        for (offset, count) in ranges {
            let result = bytes.withUnsafeMutableBytes {
                POSIXIO.readFully(
                    descriptor,
                    into: UnsafeMutableRawBufferPointer(rebasing: $0[start..<start + count]),
                    at: offset)
            }
            switch result {
            case .success(let read) where read < count:
                throw .damaged(
                    folder: folder, path: path,
                    reason: "is shorter than its committed length (\(offset + count) bytes)")
            case .success: start += count
            case .failure(let failure):
                throw .io(path: path, operation: "read", reason: failure.description)
            }
        }
        return bytes
    }

    /// Reads the committed transactions of an account-month with its bytes, for an upgrade,
    /// which copies them into the logs.
    func transactionsAndBytes(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> ([Transaction], [UInt8]) {
        try decodeMonth(of: account, in: month, length: length) {
            (bytes, currency) throws(LedgerRecord.DecodingError) in
            (try LedgerRecord.decode(bytes, currency: currency), bytes)
        }
    }

    /// An account-month's transaction lines, checked to be as committed, without decoding
    /// them.
    func dataBytes(of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> [UInt8]
    {
        try committedBytes(.data, accountID, month, length)
    }

    /// The committed identity index of an account-month, as stored.
    func identityBytes(
        of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> [UInt8] {
        try committedBytes(.ids, accountID, month, length)
    }

    /// Reads the committed identity entries of an account-month: each identity hash with the
    /// check of the amount it was imported with (0 for an identity without transaction id).
    func identities(of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> [(hash: UInt64, amountCheck: UInt64)]
    {
        let bytes = try identityBytes(of: accountID, in: month, length: length)
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
        }
        return stride(from: 0, to: bytes.count - bytes.count % 16, by: 16).map { offset in
            (word(offset), word(offset + 8))
        }
    }

    private func readFile(_ path: String, upTo limit: Int?, missingIsEmpty: Bool)
        throws(StorageError) -> [UInt8]?
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT && missingIsEmpty { return nil }
            if errno == ENOENT && limit != nil {
                throw .damaged(folder: folder, path: path, reason: "is missing")
            }
            throw error("read", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw error("read", path) }
        let size = limit ?? Int(info.st_size)
        guard Int(info.st_size) >= size else {
            throw .damaged(
                folder: folder, path: path,
                reason: "is shorter (\(info.st_size) bytes) than its committed length (\(size))")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let result = bytes.withUnsafeMutableBytes {
            POSIXIO.readFully(descriptor, into: $0, at: 0)
        }
        switch result {
        case .success(let count) where count < size:
            throw .damaged(folder: folder, path: path, reason: "ended early")
        case .success: break
        case .failure(let failure):
            throw .io(path: path, operation: "read", reason: failure.description)
        }
        return bytes
    }

    // MARK: Writing

    /// Takes the writer lock, creating the folder if needed, and repairs what a crashed run
    /// left behind.
    ///
    /// - Throws: `StorageError.inUse` at once when another run holds the lock.
    package func lockForWriting() throws(StorageError) {
        guard lockDescriptor < 0 else { return }
        try makeDirectories(folder)
        // The folder itself is locked: unlike a lock file, it cannot be deleted and made anew
        // under a running writer.
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error("open", folder) }
        let path = folder + "/lock"
        guard Self.lock(descriptor, waiting: lockWait) == 0 else {
            let code = errno
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw .io(path: folder, operation: "lock", reason: String(cString: strerror(code)))
            }
            let text = (try? readFile(path, upTo: nil, missingIsEmpty: true)).flatMap { $0 }
            let pid = text.flatMap {
                Int(String(decoding: $0.prefix(32), as: UTF8.self).filter(\.isNumber))
            }
            if let lockWait { throw .stillInUse(folder: folder, pid: pid, seconds: lockWait) }
            throw .inUse(folder: folder, pid: pid)
        }
        lockDescriptor = descriptor
        // The process id, for a second writer's message; never through a symbolic link.
        let pidFile = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard pidFile >= 0 else {
            let failure = error("open", path)
            unlock()
            throw failure
        }
        defer { close(pidFile) }
        try writeAll(pidFile, Array("\(getpid())\n".utf8), path)
        try recover()
    }

    /// Whether this controller holds the writer lock.
    var isLocked: Bool { lockDescriptor >= 0 }

    /// Releases the writer lock.
    package func unlock() {
        closeLogWriters()
        closeJournal()
        guard lockDescriptor >= 0 else { return }
        // Released explicitly: a child process forked meanwhile (before its exec closes the
        // descriptor) holds a copy of it, which would keep the lock.
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
        lockDescriptor = -1
    }

    /// Cuts what a crashed run appended back to the committed lengths.
    private func recover() throws(StorageError) {
        closeReaders()
        closeLogWriters()
        closeJournal()
        _ = unlink(manifestPath + ".tmp")
        guard let journal = try readFile(journalPath, upTo: nil, missingIsEmpty: true) else {
            return
        }
        let manifest = try loadRoot()
        // The logs past their committed lengths; logs with nothing committed (no ledger yet,
        // or one of an earlier format that a dead upgrade was copying) go.
        for part in LogPart.allCases {
            try cutBack(
                logPath(part),
                to: part == .data ? manifest.logs.dataBytes : manifest.logs.idBytes)
        }
        // The months log in force past its committed length; any other goes (a new one a
        // dead run was copying the live sections into, or the one a commit replaced).
        try cutBack(monthsPath(manifest.monthsLog), to: manifest.monthsLog.bytes)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix("months.") && name != manifest.monthsLog.name {
            guard unlink("\(folder)/\(name)") == 0 || errno == ENOENT else {
                throw error("repair", "\(folder)/\(name)")
            }
        }
        // A run of an earlier release named each month file it appended to.
        for line in String(decoding: journal, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let accountID = try? AccountID(parsing: String(parts[0])),
                let month = Month(parsing: String(parts[1]))
            else { continue }
            let length = manifest.accounts[accountID]?.months[month]
            for (part, committed) in [(LogPart.data, length?.dataBytes), (.ids, length?.idBytes)] {
                let path = monthPath(part, accountID, month, version: 2)
                if let committed {
                    if truncate(path, off_t(committed)) != 0 && errno != ENOENT {
                        throw error("repair", path)
                    }
                } else if unlink(path) != 0 && errno != ENOENT {
                    throw error("repair", path)
                }
            }
            if manifest.accounts[accountID] == nil {
                // An account the run created: remove its folder (this fails while it is not empty).
                _ = rmdir("\(folder)/accounts/\(accountID.fileName)")
            }
        }
        guard unlink(journalPath) == 0 else { throw error("remove", journalPath) }
        try syncDirectory(folder)
    }

    /// Cuts a log back to its committed length; a log with nothing committed goes.
    private func cutBack(_ path: String, to committed: Int) throws(StorageError) {
        var info = stat()
        if committed == 0 {
            guard unlink(path) == 0 || errno == ENOENT else { throw error("repair", path) }
        } else if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            info.st_size > committed, truncate(path, off_t(committed)) != 0
        {
            throw error("repair", path)
        }
    }

    /// Writes a run's bytes to the logs at `ends`, past their committed lengths where no
    /// reader looks; the run's first append journals the run and cuts off what a dead run
    /// left past the committed lengths.
    ///
    /// - Throws: `.damaged` when a log is shorter than its committed length.
    func appendToLogs(
        data: [UInt8], ids: [UInt8], at ends: LedgerManifest.LogLengths,
        committed: LedgerManifest.LogLengths
    ) throws(StorageError) {
        precondition(lockDescriptor >= 0, "writing needs the writer lock")
        if writers.isEmpty {
            try faultInjection?(.journal)
            try appendToJournal(
                "statements-journal \(LedgerManifest.formatVersion): logs committed at \(committed.dataBytes) and \(committed.idBytes) bytes\n"
            )
            for part in LogPart.allCases {
                writers[part] = try openForAppending(
                    logPath(part),
                    committed: part == .data ? committed.dataBytes : committed.idBytes)
            }
        }
        try faultInjection?(.append)
        for (part, bytes, offset) in [
            (LogPart.data, data, ends.dataBytes), (.ids, ids, ends.idBytes),
        ] where !bytes.isEmpty {
            try write(bytes, to: writers[part]!, at: offset, logPath(part))
        }
    }

    /// Cuts the logs back to `ends`, the rows of the files accepted so far, after a file was
    /// rejected.
    func cutBack(to ends: LedgerManifest.LogLengths) throws(StorageError) {
        for (part, descriptor) in writers {
            let length = part == .data ? ends.dataBytes : ends.idBytes
            guard ftruncate(descriptor, off_t(length)) == 0 else {
                throw error("cut back", logPath(part))
            }
        }
    }

    /// Makes a run's appends and its new manifest durable and visible, all or nothing.
    ///
    /// Order: append a new section with the months of each account in `changed` to the months
    /// log (copying the live sections into a new months log when superseded ones take more
    /// than half of it); `fsync` the logs appended to (the run's own data, whatever other
    /// programs have waiting to be written on the same file system); write and `fsync` the
    /// new manifest beside the old; `rename` it over the old (the commit point); remove the
    /// journal and a months log no longer in force. A failure at any step leaves the previous
    /// manifest in force, and the logs are cut back now or by the next writer.
    ///
    /// - Precondition: the months of every account in `changed` are loaded.
    func commit(_ manifest: inout LedgerManifest, changed: Set<AccountID> = [])
        throws(StorageError)
    {
        precondition(lockDescriptor >= 0, "commit needs the writer lock")
        let previousLog = manifest.monthsLog
        do throws(StorageError) {
            try writeSections(&manifest, changed: changed)
            try faultInjection?(.syncData)
            var descriptors = writers.map { ($0.value, logPath($0.key)) }
            if let months = monthsWriter { descriptors.append((months.descriptor, months.name)) }
            for (descriptor, path) in descriptors where fsync(descriptor) != 0 {
                throw error("sync", path)
            }
            // The logs' names, when this run made them.
            if !descriptors.isEmpty { try syncDirectory(folder) }
            try faultInjection?(.writeManifest)
            try writeNewFile(manifestPath + ".tmp", manifest.encodedBytes)
            try faultInjection?(.renameManifest)
            guard rename(manifestPath + ".tmp", manifestPath) == 0 else {
                throw error("commit", manifestPath)
            }
            try syncDirectory(folder)
        } catch {
            manifest.monthsLog = previousLog
            try? recover()
            throw error
        }
        closeReaders()
        closeLogWriters()
        closeJournal()
        // The replaced months log first: while the journal is there, a crash leaves it to
        // the next writer's recovery.
        if previousLog.name != manifest.monthsLog.name { _ = unlink(monthsPath(previousLog)) }
        _ = unlink(journalPath)
        try? syncDirectory(folder)
    }

    /// Appends the sections of the changed accounts to the months log, and copies the live
    /// sections into a new months log when superseded ones take more than half of it.
    private func writeSections(_ manifest: inout LedgerManifest, changed: Set<AccountID>)
        throws(StorageError)
    {
        var sections: [UInt8] = []
        let start = manifest.monthsLog.bytes
        for accountID in changed.sorted() {
            precondition(manifest.accounts[accountID]!.monthsLoaded, "the months are loaded")
            let entry = manifest.accounts[accountID]!
            guard !entry.months.isEmpty || !entry.assertions.isEmpty else { continue }
            let bytes = LedgerManifest.section(of: entry.months, assertions: entry.assertions)
            manifest.accounts[accountID]!.section = LedgerManifest.Section(
                offset: start + sections.count, bytes: bytes.count, checksum: .of(bytes))
            sections += bytes
        }
        guard !sections.isEmpty else { return }
        let path = monthsPath(manifest.monthsLog)
        try openMonthsLog(path, committed: start, truncating: false)
        try faultInjection?(.append)
        try write(sections, to: monthsWriter!.descriptor, at: start, path)
        manifest.monthsLog.bytes += sections.count
        let live = manifest.accounts.values.reduce(0) { $0 + ($1.section?.bytes ?? 0) }
        guard manifest.monthsLog.bytes > 2 * live + monthsLogSlack else { return }
        // Copied as they are: their checksums go with them.
        let log = try readFile(path, upTo: manifest.monthsLog.bytes, missingIsEmpty: false) ?? []
        var compacted: [UInt8] = []
        compacted.reserveCapacity(live)
        for accountID in manifest.accounts.keys.sorted() {
            guard let section = manifest.accounts[accountID]!.section else { continue }
            manifest.accounts[accountID]!.section!.offset = compacted.count
            compacted += log[section.offset..<section.offset + section.bytes]
        }
        var name = "months.\(manifest.generation)"
        while name == manifest.monthsLog.name { name += "c" }
        manifest.monthsLog = LedgerManifest.MonthsLog(name: name, bytes: compacted.count)
        let newPath = monthsPath(manifest.monthsLog)
        close(monthsWriter!.descriptor)
        monthsWriter = nil
        try openMonthsLog(newPath, committed: 0, truncating: true)
        try write(compacted, to: monthsWriter!.descriptor, at: 0, newPath)
    }

    /// Opens the months log for appending at its committed length, after journaling the run
    /// (if no append did).
    private func openMonthsLog(_ path: String, committed: Int, truncating: Bool)
        throws(StorageError)
    {
        if journalDescriptor < 0 {
            try appendToJournal("statements-journal \(LedgerManifest.formatVersion)\n")
        }
        monthsWriter = (
            path, try openForAppending(path, committed: committed, truncating: truncating)
        )
    }

    /// Opens a log for appending at its committed length, cutting off what a dead run left
    /// past it (or everything, `truncating`, for a new log).
    ///
    /// - Throws: `.damaged` when the log is shorter than its committed length.
    private func openForAppending(_ path: String, committed: Int, truncating: Bool = false)
        throws(StorageError) -> Int32
    {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (truncating ? O_TRUNC : 0)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw error("open", path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let failure = error("open", path)
            close(descriptor)
            throw failure
        }
        guard info.st_size >= committed else {
            close(descriptor)
            throw .damaged(
                folder: folder, path: path,
                reason:
                    "is shorter (\(info.st_size) bytes) than its committed length (\(committed))")
        }
        if info.st_size > committed && ftruncate(descriptor, off_t(committed)) != 0 {
            let failure = error("write", path)
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int, _ path: String)
        throws(StorageError)
    {
        if let code = bytes.withUnsafeBytes({ POSIXIO.writeAll(descriptor, $0, at: offset) }) {
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
    }

    /// Removes the month files of formats 1 to 3 (`accounts/ID/YYYY-MM.tsv|.idx|.ids`) once
    /// an upgrade committed, or, found by a later writer, after a run killed between the
    /// upgrade's commit and this removal; a ledger of the current format never reads them.
    /// Costs one `stat` when there are none.
    func removeEarlierFormatFiles() {
        let accounts = folder + "/accounts"
        var info = stat()
        guard stat(accounts, &info) == 0 else { return }
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: accounts)) ?? [] {
            let account = "\(accounts)/\(name)"
            for file in (try? files.contentsOfDirectory(atPath: account)) ?? []
            where [".tsv", ".idx", ".ids"].contains(where: file.hasSuffix) {
                _ = unlink("\(account)/\(file)")
            }
            _ = rmdir(account)
        }
        _ = rmdir(accounts)
    }

    /// Every problem of the ledger's committed bytes: missing, short, or not matching their
    /// checksums (empty for a sound ledger), and how many account-months were checked.
    /// Reads everything; writes nothing.
    ///
    /// - Throws: `StorageError` when the manifest itself is missing, damaged or unreadable.
    package func check() throws(StorageError) -> (problems: [StorageError], months: Int) {
        let manifest = try loadManifest()
        var problems: [StorageError] = []
        var months = 0
        for accountID in manifest.accounts.keys.sorted() {
            let entry = manifest.accounts[accountID]!
            for month in entry.months.keys.sorted() {
                let length = entry.months[month]!
                months += 1
                do throws(StorageError) {
                    _ = try transactions(of: entry.account, in: month, length: length)
                } catch {
                    problems.append(error)
                }
                do throws(StorageError) {
                    _ = try committedBytes(
                        .ids, accountID, month, length, version: manifest.version)
                } catch {
                    problems.append(error)
                }
            }
        }
        return (problems, months)
    }

    /// Checks the committed bytes (transaction lines and identity index) of the
    /// account-months that `includes` selects against their checksums, without decoding
    /// them: what a writer verifies before it commits, so that it never builds on damage.
    ///
    /// - Throws: `StorageError.damaged` for the first account-month that does not match.
    /// - Complexity: reads the selected months' bytes once.
    func verifyChecksums(
        of manifest: LedgerManifest, where includes: (AccountID, Month) -> Bool
    ) throws(StorageError) {
        for accountID in manifest.accounts.keys.sorted() {
            let entry = manifest.accounts[accountID]!
            for month in entry.months.keys.sorted() where includes(accountID, month) {
                let length = entry.months[month]!
                for part in LogPart.allCases {
                    _ = try committedBytes(
                        part, accountID, month, length, version: manifest.version)
                }
            }
        }
    }

    /// Undoes every append of the run, as the next writer would after a crash.
    func rollBack() throws(StorageError) {
        try recover()
    }

    private func appendToJournal(_ line: String) throws(StorageError) {
        if journalDescriptor < 0 {
            journalDescriptor = open(
                journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard journalDescriptor >= 0 else { throw error("create", journalPath) }
        }
        try writeAll(journalDescriptor, Array(line.utf8), journalPath)
    }

    /// Closes the journal, before it is read, removed or left to the next writer.
    private func closeJournal() {
        guard journalDescriptor >= 0 else { return }
        close(journalDescriptor)
        journalDescriptor = -1
    }

    /// Closes the logs open for appending.
    private func closeLogWriters() {
        for descriptor in writers.values { close(descriptor) }
        writers = [:]
        if let months = monthsWriter { close(months.descriptor) }
        monthsWriter = nil
    }

    /// Writes a whole new file and makes it durable, replacing one of the same name.
    private func writeNewFile(_ path: String, _ bytes: [UInt8]) throws(StorageError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw error("create", path) }
        defer { close(descriptor) }
        try writeAll(descriptor, bytes, path)
        guard fsync(descriptor) == 0 else { throw error("sync", path) }
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ path: String)
        throws(StorageError)
    {
        if let code = bytes.withUnsafeBytes({ POSIXIO.writeAll(descriptor, $0) }) {
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
    }

    private func makeDirectories(_ path: String) throws(StorageError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .io(
                    path: path, operation: "use state folder",
                    reason: String(cString: strerror(ENOTDIR)))
            }
            return
        }
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ""
        if !parent.isEmpty { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw error("create folder", path) }
    }

    private func syncDirectory(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error("open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw error("sync", path) }
    }

    private func error(_ operation: String, _ path: String) -> StorageError {
        .io(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
