#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the ledger's state folder could not be read or written; the command exits 3.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another run holds the writer lock.
    case inUse(folder: String, pid: Int?)
    /// A system call failed on a path.
    case io(path: String, operation: String, reason: String)
    /// The state is not one this build can read.
    case unreadable(folder: String, reason: String)

    public var description: String {
        switch self {
        case .inUse(let folder, let pid):
            "state folder \(folder) is in use by process \(pid.map(String.init) ?? "(unknown)")"
        case .io(let path, let operation, let reason): "cannot \(operation) \(path): \(reason)"
        case .unreadable(let folder, let reason): "cannot use state folder \(folder): \(reason)"
        }
    }
}

/// The steps of a commit, named so that tests can inject a failure at each.
enum CommitStep: Hashable, Sendable, CaseIterable {
    case journal, append, syncData, writeManifest, renameManifest
}

/// Everything one run appends to one account-month.
struct MonthAppend: Sendable {
    let iban: IBAN
    let month: Month
    /// The committed lengths before this run; appends start exactly there.
    let committed: LedgerManifest.MonthLength
    var data: [UInt8] = []
    var ids: [UInt8] = []
}

/// All disk I/O of the ledger state: the manifest, the month files, the lock and recovery.
///
/// Layout of the state folder:
/// - `manifest`: the commit record (`LedgerManifest`), replaced atomically by rename.
/// - `accounts/IBAN/YYYY-MM.tsv` and `.ids`: append-only transaction lines and 8-byte
///   identity hashes; only the committed prefix (per the manifest) is ever read.
/// - `pending`: the journal of a run in progress: the files it appends to. Its presence at
///   the next writer's start means a run died; the files are cut back to their committed
///   lengths.
/// - `lock`: held with `flock` by the one writer, holding its process id.
/// Readers take no lock: a manifest names only bytes that are already durable.
public final class StorageController {
    /// The state folder.
    public let folder: String
    private var lockDescriptor: Int32 = -1
    /// Called before each commit step; a test makes it throw to simulate a failure there.
    var faultInjection: (@Sendable (CommitStep) throws(StorageError) -> Void)?

    /// Creates a controller for a state folder; nothing is touched until a call needs it.
    public init(folder: String) {
        self.folder = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    deinit { unlock() }

    private var manifestPath: String { folder + "/manifest" }
    private var journalPath: String { folder + "/pending" }

    func dataPath(_ iban: IBAN, _ month: Month) -> String {
        "\(folder)/accounts/\(iban.electronic)/\(month.isoText).tsv"
    }

    func idsPath(_ iban: IBAN, _ month: Month) -> String {
        "\(folder)/accounts/\(iban.electronic)/\(month.isoText).ids"
    }

    // MARK: Reading

    /// Reads the committed manifest; a missing folder or manifest is an empty ledger.
    public func loadManifest() throws(StorageError) -> LedgerManifest {
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
            return LedgerManifest()
        }
        do throws(LedgerManifest.DecodingError) {
            return try LedgerManifest(decoding: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .unreadable(folder: folder, reason: error.description)
        }
    }

    /// Reads the committed transactions of an account-month.
    public func transactions(
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
        let path = dataPath(account.iban, month)
        let bytes = try readFile(path, upTo: length.dataBytes, missingIsEmpty: false) ?? []
        do throws(LedgerRecord.DecodingError) {
            return try decode(bytes, account.currency)
        } catch {
            throw .unreadable(folder: folder, reason: "\(path): \(error)")
        }
    }

    /// Reads the committed identity hashes of an account-month.
    func identities(of iban: IBAN, in month: Month, length: LedgerManifest.MonthLength)
        throws(StorageError) -> [UInt64]
    {
        let bytes =
            try readFile(idsPath(iban, month), upTo: length.idBytes, missingIsEmpty: false) ?? []
        return stride(from: 0, to: bytes.count - bytes.count % 8, by: 8).map { offset in
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << UInt64(8 * $1) }
        }
    }

    private func readFile(_ path: String, upTo limit: Int?, missingIsEmpty: Bool)
        throws(StorageError) -> [UInt8]?
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT && missingIsEmpty { return nil }
            throw error("read", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw error("read", path) }
        let size = limit ?? Int(info.st_size)
        guard Int(info.st_size) >= size else {
            throw .unreadable(
                folder: folder, reason: "\(path) is shorter than its committed length")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + offset, size - offset, off_t(offset))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw count == 0
                    ? .unreadable(folder: folder, reason: "\(path) ended early")
                    : error("read", path)
            }
            offset += count
        }
        return bytes
    }

    // MARK: Writing

    /// Takes the writer lock, creating the folder if needed, and repairs what a crashed run
    /// left behind.
    ///
    /// - Throws: `StorageError.inUse` at once when another run holds the lock.
    public func lockForWriting() throws(StorageError) {
        guard lockDescriptor < 0 else { return }
        try makeDirectories(folder)
        let path = folder + "/lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw error("open", path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 32, 0) }
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw .io(path: path, operation: "lock", reason: String(cString: strerror(code)))
            }
            let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            throw .inUse(folder: folder, pid: Int(text.filter(\.isNumber)))
        }
        lockDescriptor = descriptor
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        try recover()
    }

    /// Releases the writer lock.
    public func unlock() {
        guard lockDescriptor >= 0 else { return }
        close(lockDescriptor)
        lockDescriptor = -1
    }

    /// Cuts the files a crashed run appended to back to their committed lengths.
    private func recover() throws(StorageError) {
        _ = unlink(manifestPath + ".tmp")
        guard let journal = try readFile(journalPath, upTo: nil, missingIsEmpty: true) else {
            return
        }
        let manifest = try loadManifest()
        for line in String(decoding: journal, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let iban = try? IBAN(parsing: String(parts[0])),
                let month = Month(parsing: String(parts[1]))
            else { continue }
            let length = manifest.accounts[iban]?.months[month]
            for (path, committed) in [
                (dataPath(iban, month), length?.dataBytes), (idsPath(iban, month), length?.idBytes),
            ] {
                if let committed {
                    if truncate(path, off_t(committed)) != 0 && errno != ENOENT {
                        throw error("repair", path)
                    }
                } else if unlink(path) != 0 && errno != ENOENT {
                    throw error("repair", path)
                }
            }
            if manifest.accounts[iban] == nil {
                // An account the run created: remove its folder (this fails while it is not empty).
                _ = rmdir("\(folder)/accounts/\(iban.electronic)")
            }
        }
        guard unlink(journalPath) == 0 else { throw error("remove", journalPath) }
        try syncDirectory(folder)
    }

    /// Makes a run's appends and its new manifest durable and visible, all or nothing.
    ///
    /// Order: journal the touched files; append and `fsync` them; write and `fsync` the new
    /// manifest beside the old; `rename` it over the old (the commit point); remove the
    /// journal. A failure at any step leaves the previous manifest in force, and the appended
    /// tails are cut back now or by the next writer.
    func commit(_ appends: [MonthAppend], manifest: LedgerManifest) throws(StorageError) {
        precondition(lockDescriptor >= 0, "commit needs the writer lock")
        try faultInjection?(.journal)
        let journal = appends.map { "\($0.iban.electronic)\t\($0.month.isoText)\n" }.joined()
        try writeNewFile(journalPath, Array(journal.utf8))
        do throws(StorageError) {
            var folders: Set<String> = []
            for append in appends {
                let accountFolder = "\(folder)/accounts/\(append.iban.electronic)"
                if folders.insert(accountFolder).inserted { try makeDirectories(accountFolder) }
                try faultInjection?(.append)
                try appendBytes(
                    append.data, to: dataPath(append.iban, append.month),
                    at: append.committed.dataBytes)
                try appendBytes(
                    append.ids, to: idsPath(append.iban, append.month), at: append.committed.idBytes
                )
            }
            try faultInjection?(.syncData)
            try syncAppendedData(appends, folders: folders)
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
        _ = unlink(journalPath)
        try? syncDirectory(folder)
    }

    /// Writes bytes at a file's committed length, cutting off anything past it first.
    private func appendBytes(_ bytes: [UInt8], to path: String, at committed: Int)
        throws(StorageError)
    {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw error("open", path) }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(committed)) == 0,
            lseek(descriptor, off_t(committed), SEEK_SET) == off_t(committed)
        else { throw error("write", path) }
        try writeAll(descriptor, bytes, path)
    }

    /// Makes the appended files and their folders durable before the manifest names them.
    ///
    /// On Linux one `syncfs` of the ledger's file system replaces an `fsync` per file and
    /// folder (thousands per run for a ledger of many accounts); where it is missing, each
    /// appended file and its folder are synced one by one.
    private func syncAppendedData(_ appends: [MonthAppend], folders: Set<String>)
        throws(StorageError)
    {
        #if os(Linux)
            // Glibc declares syncfs only under _GNU_SOURCE, which the Swift module map lacks.
            typealias SyncFS = @convention(c) (Int32) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
                let syncfs = unsafeBitCast(symbol, to: SyncFS.self)
                let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard descriptor >= 0 else { throw error("open", folder) }
                defer { close(descriptor) }
                guard syncfs(descriptor) == 0 else { throw error("sync", folder) }
                return
            }
        #endif
        for append in appends {
            for path in [dataPath(append.iban, append.month), idsPath(append.iban, append.month)] {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw error("open", path) }
                defer { close(descriptor) }
                guard fsync(descriptor) == 0 else { throw error("sync", path) }
            }
        }
        for folder in folders.sorted() { try syncDirectory(folder) }
        try syncDirectory(folder + "/accounts")
    }

    /// Writes a whole new file and makes it durable, replacing one of the same name.
    private func writeNewFile(_ path: String, _ bytes: [UInt8]) throws(StorageError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw error("create", path) }
        defer { close(descriptor) }
        try writeAll(descriptor, bytes, path)
        guard fsync(descriptor) == 0 else { throw error("sync", path) }
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ path: String)
        throws(StorageError)
    {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw error("write", path) }
            offset += count
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
