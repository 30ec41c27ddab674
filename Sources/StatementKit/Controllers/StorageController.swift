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

/// How far a run has written one account-month's files past their committed lengths.
struct MonthTail: Sendable {
    let accountID: AccountID
    let month: Month
    /// The lengths in the manifest when the run started; `nil` for a month new to the ledger.
    let committed: LedgerManifest.MonthLength?
    /// The end of the rows of the files accepted so far: what the commit makes visible.
    var accepted: LedgerManifest.MonthLength
    /// The end of everything written, including rows of the file being read.
    var written: LedgerManifest.MonthLength
    /// Whether the journal names the month yet.
    var isJournaled = false

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

/// All disk I/O of the ledger state: the manifest, the month files, the lock and recovery.
///
/// Layout of the state folder:
/// - `manifest`: the commit record (`LedgerManifest`), replaced atomically by rename.
/// - `accounts/AccountID/YYYY-MM.tsv` and `.idx`: append-only transaction lines and 16-byte
///   identity entries (identity hash, amount check of a transaction id or 0); only the committed prefix (per the
///   manifest) is ever read, and only after its checksum matched the manifest's.
///   (Format 1 kept 8-byte hashes in `.ids` files; an upgrade writes `.idx` files beside them.)
/// - `pending`: the journal of a run in progress: the month files it appends to, each named
///   before its first byte is written. Its presence at the next writer's start means a run
///   died; the files are cut back to their committed lengths. (Appends start at the
///   committed length even without it, so a journal line lost in a power cut leaves only
///   bytes that no reader sees and the next append overwrites.)
/// - The folder itself is held with `flock` by the one writer (a lock on the folder cannot be
///   deleted from under it, as a lock file can); `lock` holds the writer's process id, for
///   the message a second writer gives.
/// Readers take no lock: a manifest names only bytes that are already durable.
package final class StorageController {
    /// The state folder.
    package let folder: String
    private var lockDescriptor: Int32 = -1
    /// The journal, open for appending from a run's first tail until the journal goes (one
    /// `open` per run, not one per month file touched).
    private var journalDescriptor: Int32 = -1
    /// Called before each commit step; a test makes it throw to simulate a failure there.
    var faultInjection: (@Sendable (CommitStep) throws(StorageError) -> Void)?

    /// Creates a controller for a state folder; nothing is touched until a call needs it.
    package init(folder: String) {
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    deinit { unlock() }

    private var manifestPath: String { folder + "/manifest" }
    private var journalPath: String { folder + "/pending" }

    func dataPath(_ accountID: AccountID, _ month: Month) -> String {
        "\(folder)/accounts/\(accountID.fileName)/\(month.isoText).tsv"
    }

    /// The identity index of an account-month: `.idx` (16-byte entries), or in a format 1
    /// ledger `.ids` (8-byte hashes).
    func idsPath(
        _ accountID: AccountID, _ month: Month, version: Int = LedgerManifest.formatVersion
    )
        -> String
    {
        "\(folder)/accounts/\(accountID.fileName)/\(month.isoText).\(version >= 2 ? "idx" : "ids")"
    }

    // MARK: Reading

    /// Reads the committed manifest; a missing folder or manifest is an empty ledger.
    package func loadManifest() throws(StorageError) -> LedgerManifest {
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
        guard let bytes = try readFile(manifestPath, upTo: nil, missingIsEmpty: true) else {
            // No manifest but account files, and no journal of a first run that was stopped
            // before its commit: the manifest was lost, not never written.
            let accounts =
                (try? FileManager.default.contentsOfDirectory(atPath: folder + "/accounts"))
            if let accounts, !accounts.isEmpty, stat(journalPath, &info) != 0 {
                throw .damaged(
                    folder: folder, path: manifestPath,
                    reason: "is missing while the ledger holds account files")
            }
            return LedgerManifest()
        }
        do throws(LedgerManifest.DecodingError) {
            return try LedgerManifest(decoding: String(decoding: bytes, as: UTF8.self))
        } catch {
            if case .newerVersion = error {
                throw .unreadable(folder: folder, reason: error.description)
            }
            throw .damaged(folder: folder, path: manifestPath, reason: "\(error)")
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

    /// Reads the committed bytes of an account-month's transaction file and decodes them.
    private func decodeMonth<T>(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength,
        _ decode: ([UInt8], Currency) throws(LedgerRecord.DecodingError) -> T
    ) throws(StorageError) -> T {
        let path = dataPath(account.id, month)
        let bytes = try readCommitted(path, length.dataBytes, length.dataChecksum)
        do throws(LedgerRecord.DecodingError) {
            return try decode(bytes, account.currency)
        } catch {
            throw .damaged(folder: folder, path: path, reason: "cannot be read: \(error)")
        }
    }

    /// Reads the committed bytes of a ledger file and checks them against the manifest's
    /// checksum (a format 1 manifest has none).
    private func readCommitted(_ path: String, _ length: Int, _ checksum: Checksum?)
        throws(StorageError) -> [UInt8]
    {
        let bytes = try readFile(path, upTo: length, missingIsEmpty: false) ?? []
        if let checksum, Checksum.of(bytes) != checksum {
            throw .damaged(
                folder: folder, path: path,
                reason: "does not match its checksum: it was changed after it was written")
        }
        return bytes
    }

    /// Reads the committed transactions of an account-month with the checksum of their
    /// bytes, for an upgrade, which records the checksum.
    func transactionsAndChecksum(
        of account: Account, in month: Month, length: LedgerManifest.MonthLength
    ) throws(StorageError) -> ([Transaction], Checksum) {
        try decodeMonth(of: account, in: month, length: length) {
            (bytes, currency) throws(LedgerRecord.DecodingError) in
            (try LedgerRecord.decode(bytes, currency: currency), Checksum.of(bytes))
        }
    }

    /// Checks that an account-month's transaction file is as committed, without decoding it.
    func verifyData(of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError)
    {
        _ = try readCommitted(dataPath(accountID, month), length.dataBytes, length.dataChecksum)
    }

    /// Reads the committed identity entries of an account-month: each identity hash with the
    /// check of the amount it was imported with (0 for an identity without transaction id).
    func identities(of accountID: AccountID, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> [(hash: UInt64, amountCheck: UInt64)]
    {
        let bytes = try readCommitted(idsPath(accountID, month), length.idBytes, length.idChecksum)
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
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw .io(path: folder, operation: "lock", reason: String(cString: strerror(code)))
            }
            let text = (try? readFile(path, upTo: nil, missingIsEmpty: true)).flatMap { $0 }
            throw .inUse(
                folder: folder,
                pid: text.flatMap {
                    Int(String(decoding: $0.prefix(32), as: UTF8.self).filter(\.isNumber))
                })
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

    /// Releases the writer lock.
    package func unlock() {
        closeJournal()
        guard lockDescriptor >= 0 else { return }
        close(lockDescriptor)
        lockDescriptor = -1
    }

    /// Cuts the files a crashed run appended to back to their committed lengths.
    private func recover() throws(StorageError) {
        closeJournal()
        _ = unlink(manifestPath + ".tmp")
        guard let journal = try readFile(journalPath, upTo: nil, missingIsEmpty: true) else {
            return
        }
        let manifest = try loadManifest()
        for line in String(decoding: journal, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let accountID = try? AccountID(parsing: String(parts[0])),
                let month = Month(parsing: String(parts[1]))
            else { continue }
            let length = manifest.accounts[accountID]?.months[month]
            for (path, committed) in [
                (dataPath(accountID, month), length?.dataBytes),
                (idsPath(accountID, month), length?.idBytes),
            ] {
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

    /// Writes rows of a run past an account-month's committed length, where no reader looks:
    /// at `tail.written`, after naming the month in the journal on its first write.
    func appendTail(data: [UInt8], ids: [UInt8], to tail: inout MonthTail) throws(StorageError) {
        precondition(lockDescriptor >= 0, "writing needs the writer lock")
        if !tail.isJournaled {
            try faultInjection?(.journal)
            try appendToJournal("\(tail.accountID.text)\t\(tail.month.isoText)\n")
            try makeDirectories("\(folder)/accounts/\(tail.accountID.fileName)")
            tail.isJournaled = true
        }
        try faultInjection?(.append)
        try writeBytes(data, to: dataPath(tail.accountID, tail.month), at: tail.written.dataBytes)
        try writeBytes(ids, to: idsPath(tail.accountID, tail.month), at: tail.written.idBytes)
        tail.written.advance(data: data, ids: ids)
    }

    /// Cuts an account-month's files back to the rows of the accepted files, after a file was
    /// rejected; a month that holds none goes.
    func cutBack(_ tail: inout MonthTail) throws(StorageError) {
        let length = tail.accepted
        for (path, bytes) in [
            (dataPath(tail.accountID, tail.month), length.dataBytes),
            (idsPath(tail.accountID, tail.month), length.idBytes),
        ] {
            let result =
                bytes == 0 && tail.committed == nil ? unlink(path) : truncate(path, off_t(bytes))
            guard result == 0 || errno == ENOENT else { throw error("cut back", path) }
        }
        tail.written = length
    }

    /// Makes a run's tails and its new manifest durable and visible, all or nothing.
    ///
    /// Order: sync the appended files; write and `fsync` the new manifest beside the old;
    /// `rename` it over the old (the commit point); remove the journal. A failure at any step
    /// leaves the previous manifest in force, and the tails are cut back now or by the next
    /// writer.
    func commit(_ tails: [MonthTail], manifest: LedgerManifest) throws(StorageError) {
        precondition(lockDescriptor >= 0, "commit needs the writer lock")
        do throws(StorageError) {
            try faultInjection?(.syncData)
            try syncAppendedData(tails)
            try faultInjection?(.writeManifest)
            try writeNewFile(manifestPath + ".tmp", Array(manifest.encoded.utf8))
            try faultInjection?(.renameManifest)
            guard rename(manifestPath + ".tmp", manifestPath) == 0 else {
                throw error("commit", manifestPath)
            }
            try syncDirectory(folder)
        } catch {
            try? recover()
            throw error
        }
        closeJournal()
        _ = unlink(journalPath)
        try? syncDirectory(folder)
    }

    /// Writes the identity index of an account-month anew, for an upgrade of the ledger's
    /// format: a new file that no committed manifest names until the upgrade commits.
    func writeUpgradedIndex(_ bytes: [UInt8], of accountID: AccountID, in month: Month)
        throws(StorageError)
    {
        precondition(lockDescriptor >= 0, "writing needs the writer lock")
        try writeNewFile(idsPath(accountID, month), bytes)
    }

    /// Removes the identity files of format 1 after an upgrade committed; what is left by a
    /// crash here is never read again.
    func removeLegacyIndexes(of manifest: LedgerManifest) {
        for (accountID, entry) in manifest.accounts {
            for month in entry.months.keys { _ = unlink(idsPath(accountID, month, version: 1)) }
        }
    }

    /// Every problem of the ledger's committed files: missing, short, or not matching their
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
                    _ = try readCommitted(
                        idsPath(accountID, month, version: manifest.version), length.idBytes,
                        length.idChecksum)
                } catch {
                    problems.append(error)
                }
            }
        }
        return (problems, months)
    }

    /// Undoes every tail of the run, as the next writer would after a crash.
    func rollBack() throws(StorageError) {
        try recover()
    }

    /// Writes bytes at an offset of a file, cutting off anything past it first.
    private func writeBytes(_ bytes: [UInt8], to path: String, at offset: Int)
        throws(StorageError)
    {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw error("open", path) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(offset)) == 0 else { throw error("write", path) }
        if let code = bytes.withUnsafeBytes({ POSIXIO.writeAll(descriptor, $0, at: offset) }) {
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
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

    /// Up to how many account-months a commit syncs file by file: above it, one `syncfs` is
    /// cheaper than the `fsync`s (two files and a folder per account-month).
    static let fileSyncLimit = 256

    /// Makes the appended files and their folders durable before the manifest names them.
    ///
    /// A run that appended to at most `fileSyncLimit` account-months syncs each file and its
    /// folder, so that it waits for its own data only, whatever other programs have waiting
    /// to be written on the same file system (a nightly increment beside a download or a
    /// database). A larger run, on Linux, syncs the ledger's file system with one `syncfs`
    /// (where it is missing, file by file too). Nothing appended, nothing to sync.
    private func syncAppendedData(_ tails: [MonthTail]) throws(StorageError) {
        guard !tails.isEmpty else { return }
        #if os(Linux)
            // Glibc declares syncfs only under _GNU_SOURCE, which the Swift module map lacks.
            typealias SyncFS = @convention(c) (Int32) -> Int32
            if tails.count > Self.fileSyncLimit,
                let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs")
            {
                let syncfs = unsafeBitCast(symbol, to: SyncFS.self)
                let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard descriptor >= 0 else { throw error("open", folder) }
                defer { close(descriptor) }
                guard syncfs(descriptor) == 0 else { throw error("sync", folder) }
                return
            }
        #endif
        for tail in tails {
            for path in [dataPath(tail.accountID, tail.month), idsPath(tail.accountID, tail.month)]
            {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw error("open", path) }
                defer { close(descriptor) }
                guard fsync(descriptor) == 0 else { throw error("sync", path) }
            }
        }
        try syncAccountFolders(Set(tails.map(\.accountID)))
    }

    /// Makes the names of the files in the accounts' folders, and the folders' own names,
    /// durable.
    func syncAccountFolders(_ accountIDs: Set<AccountID>) throws(StorageError) {
        for accountID in accountIDs.sorted() {
            try syncDirectory("\(folder)/accounts/\(accountID.fileName)")
        }
        try syncDirectory(folder + "/accounts")
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
