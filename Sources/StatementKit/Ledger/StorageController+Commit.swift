import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appending to the logs, journaled, and committing the manifest; rolling back; durable writes.
extension StorageController {
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
            if let failure = POSIXIO.writeSynced(manifest.encodedBytes, to: manifestPath + ".tmp") {
                throw .io(failure)
            }
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

    /// Opens a log for appending at its committed length, cutting off what a dead run left
    /// past it (or everything, `truncating`, for a new log).
    ///
    /// - Throws: `.damaged` when the log is shorter than its committed length.
    func openForAppending(_ path: String, committed: Int, truncating: Bool = false)
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

    func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int, _ path: String)
        throws(StorageError)
    {
        if let code = POSIXIO.writeAll(descriptor, bytes, at: offset) {
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
    }

    /// Undoes every append of the run, as the next writer would after a crash.
    func rollBack() throws(StorageError) {
        try recover()
    }

    func appendToJournal(_ line: String) throws(StorageError) {
        if journalDescriptor < 0 {
            journalDescriptor = open(
                journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard journalDescriptor >= 0 else { throw error("create", journalPath) }
        }
        try writeAll(journalDescriptor, Array(line.utf8), journalPath)
    }

    /// Closes the journal, before it is read, removed or left to the next writer.
    func closeJournal() {
        guard journalDescriptor >= 0 else { return }
        close(journalDescriptor)
        journalDescriptor = -1
    }

    /// Closes the logs open for appending.
    func closeLogWriters() {
        for descriptor in writers.values { close(descriptor) }
        writers = [:]
        if let months = monthsWriter { close(months.descriptor) }
        monthsWriter = nil
    }

    func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ path: String)
        throws(StorageError)
    {
        if let code = POSIXIO.writeAll(descriptor, bytes) {
            throw .io(path: path, operation: "write", reason: POSIXErrno(code: code).description)
        }
    }

    func makeDirectories(_ path: String) throws(StorageError) {
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

    func syncDirectory(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error("open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw error("sync", path) }
    }

    func error(_ operation: String, _ path: String) -> StorageError {
        .io(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
