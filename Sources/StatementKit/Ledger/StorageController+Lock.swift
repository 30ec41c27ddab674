import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer's lock on the folder, and recovery from a run that did not finish.
extension StorageController {
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
        cachedMonths = nil
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
    func recover() throws(StorageError) {
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
    func cutBack(_ path: String, to committed: Int) throws(StorageError) {
        var info = stat()
        if committed == 0 {
            guard unlink(path) == 0 || errno == ENOENT else { throw error("repair", path) }
        } else if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            info.st_size > committed, truncate(path, off_t(committed)) != 0
        {
            throw error("repair", path)
        }
    }
}
