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

    /// A write that failed.
    static func io(_ failure: WriteFailure) -> StorageError {
        .io(path: failure.path, operation: failure.operation, reason: failure.error.description)
    }
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
    var lockDescriptor: Int32 = -1
    /// The journal, open from a run's first append until the journal goes.
    var journalDescriptor: Int32 = -1
    /// The logs open for appending during a run (-1: not yet), and open for reading.
    var writers: [LogPart: Int32] = [:]
    /// The logs open for reading, by path.
    var readers: [String: Int32] = [:]
    /// The months log open for appending during a commit, with its name.
    var monthsWriter: (name: String, descriptor: Int32)?
    /// How many bytes of superseded sections a months log may hold beyond as many as its live
    /// ones before a commit copies the live ones into a new months log (a test makes it 0).
    var monthsLogSlack = 1 << 20
    /// How many bytes of sections and pages a commit gathers before it writes them to the
    /// months log (a test makes it a few).
    var monthsLogChunk = 1 << 22
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
    func closeReaders() {
        for descriptor in readers.values { close(descriptor) }
        readers = [:]
    }

    var manifestPath: String { folder + "/manifest" }
    var journalPath: String { folder + "/pending" }

    func logPath(_ part: LogPart) -> String {
        folder + (part == .data ? "/transactions" : "/identities")
    }

    /// An account-month's own file in formats 1 to 3: its transaction lines, or its identity
    /// index (`.idx` with 16-byte entries, `.ids` with 8-byte hashes in format 1).
    func monthPath(_ part: LogPart, _ accountID: AccountID, _ month: Month, version: Int)
        -> String
    {
        let name = part == .data ? "tsv" : version >= 2 ? "idx" : "ids"
        return "\(folder)/accounts/\(accountID.fileName)/\(month.isoText).\(name)"
    }

    /// The manifest last read with the stamp of its file, and that stamp now.
    var cachedRoot: (stamp: [Int], manifest: LedgerManifest)?
    /// The manifest with every account's record, read for the manifest file of `stamp`.
    var cachedAccounts: (stamp: [Int], manifest: LedgerManifest)?
    /// The manifest with every account's months too, read for the manifest file of `stamp`
    /// by a controller that does not hold the writer lock.
    var cachedMonths: (stamp: [Int], manifest: LedgerManifest)?
    /// How many bytes of the ledger's files this controller has read (the manifest, the
    /// months log, the logs): what a run costs in reading, which tests count.
    package internal(set) var bytesRead = 0
}
